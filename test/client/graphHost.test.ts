// The graph panel host's pure parts: the page and its CSP, the webview's messages checked, Show in Graph's
// arguments, the ready handshake, export files.

import { describe, expect, it } from 'vitest';
import { graphCsp, graphPage } from '../../client/src/logic/graphHtml';
import {
  exportFile,
  exportName,
  GraphChannel,
  panelTitle,
  parseShowInGraphArgs,
  parseWebviewMessage,
  sourceFromState,
  sourceKey,
} from '../../client/src/logic/graphHost';
import type { HostToWebviewMessage } from '../../shared/src/protocol';
import { deploymentReport, deploymentTree } from '../../testkit/webview/fixtures';

const NONCE = 'q1w2e3r4t5y6u7i8o9p0aA==';

describe('graphPage', () => {
  it("allows nothing but its nonce'd script and the bundle's styles", () => {
    const csp = graphCsp('https://x.vscode-cdn.net', NONCE);
    expect(csp).toBe(`default-src 'none'; script-src 'nonce-${NONCE}'; style-src https://x.vscode-cdn.net;`);
    const html = graphPage({
      cspSource: 'https://x.vscode-cdn.net',
      nonce: NONCE,
      scriptUri: 'https://x/webview.js?a=1&b="2"',
      styleUri: 'https://x/webview.css',
    });
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-${NONCE}&#39;; style-src https://x.vscode-cdn.net;">`,
    );
    expect(html).toContain(`<script nonce="${NONCE}" src="https://x/webview.js?a=1&#38;b=&#34;2&#34;"></script>`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/style="|<style|unsafe-inline|unsafe-eval/);
  });

  it('refuses a weak nonce or a CSP source that could add directives', () => {
    expect(() => graphPage({ cspSource: 'x', nonce: 'short', scriptUri: '', styleUri: '' })).toThrow(/nonce/);
    expect(() => graphPage({ cspSource: "x; script-src 'unsafe-inline'", nonce: NONCE, scriptUri: '', styleUri: '' })).toThrow(
      /CSP source/,
    );
    // code-server's value: two sources.
    expect(graphCsp("'self' https://*.vscode-cdn.net", NONCE)).toContain("style-src 'self' https://*.vscode-cdn.net;");
    expect(() => graphPage({ cspSource: "'self' https://*.vscode-cdn.net", nonce: NONCE, scriptUri: '', styleUri: '' })).not.toThrow();
  });
});

describe('parseWebviewMessage', () => {
  it('accepts our messages and nothing else', () => {
    expect(parseWebviewMessage({ type: 'ready', protocolVersion: 2 })).toEqual({ type: 'ready', protocolVersion: 2 });
    expect(parseWebviewMessage({ type: 'reveal', uid: 'u1' })).toEqual({ type: 'reveal', uid: 'u1' });
    expect(parseWebviewMessage({ type: 'simulate', uid: 'u1', policy: 'Orphan' })).toEqual({
      type: 'simulate',
      uid: 'u1',
      policy: 'Orphan',
    });
    expect(parseWebviewMessage({ type: 'simulate', uid: 'u1', policy: 'Everything' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'export', format: 'svg', data: '<svg/>', name: '../../etc/passwd' })).toEqual({
      type: 'export',
      format: 'svg',
      data: '<svg/>',
      name: 'etc-passwd.svg',
    });
    expect(parseWebviewMessage({ type: 'export', format: 'exe', data: '' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'reveal', uid: 5 })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'runCommand', command: 'x' })).toBeUndefined();
    expect(parseWebviewMessage('ready')).toBeUndefined();
    expect(parseWebviewMessage({ type: 'error', message: 'x'.repeat(10_000) })).toEqual({ type: 'error', message: 'x'.repeat(4000) });
  });

  it('names exports safely', () => {
    expect(exportName('ownership-graph-kind-dev.png', 'png')).toBe('ownership-graph-kind-dev.png');
    expect(exportName('', 'dot')).toBe('ownership-graph.dot');
    expect(exportName('a/b\\c:d', 'svg')).toBe('a-b-c-d.svg');
    expect([...exportFile('png', Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64')).bytes]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(exportFile('dot', 'digraph {}').filters).toEqual({ 'Graphviz DOT': ['dot', 'gv'] });
  });
});

describe('parseShowInGraphArgs', () => {
  it('takes a uid, {uid, source, policy}, or a Stuck Objects node', () => {
    expect(parseShowInGraphArgs('u1')).toEqual({ uid: 'u1' });
    expect(parseShowInGraphArgs('u1', 'Foreground')).toEqual({ uid: 'u1', policy: 'Foreground' });
    expect(parseShowInGraphArgs({ uid: 'u1', source: 'cluster', policy: 'default' })).toEqual({
      uid: 'u1',
      source: 'cluster',
      policy: 'default',
    });
    expect(parseShowInGraphArgs({ uid: 'u1', live: true, label: 'x' })).toEqual({ uid: 'u1', source: 'cluster' });
    expect(parseShowInGraphArgs({ uid: 'u1' })).toEqual({ uid: 'u1', source: 'workspace' });
    expect(parseShowInGraphArgs(undefined)).toBeUndefined();
    expect(parseShowInGraphArgs({ source: 'cluster' })).toBeUndefined();
  });

  it('keys and titles panels by source', () => {
    expect(sourceKey({ kind: 'workspace' })).toBe('workspace');
    expect(sourceKey({ kind: 'cluster', context: 'kind-dev' })).toBe('cluster:kind-dev');
    expect(panelTitle({ kind: 'cluster', context: 'kind-dev' })).toBe('Ownership Graph: kind-dev');
    // A restored panel reopens the graph its webview saved in its state.
    expect(sourceFromState({ version: 1, source: { kind: 'cluster', context: 'kind-dev' }, zoom: { k: 1, x: 0, y: 0 } })).toEqual({
      kind: 'cluster',
      context: 'kind-dev',
    });
    expect(sourceFromState({ source: { kind: 'cluster' } })).toEqual({ kind: 'workspace' });
    expect(sourceFromState(undefined)).toEqual({ kind: 'workspace' });
  });
});

describe('GraphChannel', () => {
  const workspace = { kind: 'workspace' as const };

  it('holds everything until the page says ready, then sends graph, notice, focus, simulation', () => {
    const sent: HostToWebviewMessage[] = [];
    const ch = new GraphChannel((m) => sent.push(m));
    ch.focus('p2');
    expect(ch.setGraph(workspace, deploymentTree())).toBe(true);
    ch.setNotice('reading…');
    ch.setSimulation(deploymentReport(), 7);
    expect(sent).toEqual([]);
    ch.onReady();
    expect(sent.map((m) => m.type)).toEqual(['graph', 'notice', 'focus', 'simulation']);
    expect(sent[0]).toMatchObject({ revision: 1, source: workspace });
    expect(sent[2]).toEqual({ type: 'focus', uid: 'p2' });
  });

  it('sends directly while the page listens, skips an unchanged graph, and resends after a reload', () => {
    const sent: HostToWebviewMessage[] = [];
    const ch = new GraphChannel((m) => sent.push(m));
    ch.onReady();
    expect(sent).toEqual([]); // nothing to send yet
    ch.focus('p1'); // no graph yet: after it
    ch.setGraph(workspace, deploymentTree());
    expect(sent.map((m) => m.type)).toEqual(['graph', 'focus']);
    expect(ch.setGraph(workspace, deploymentTree())).toBe(false);
    const changed = deploymentTree();
    changed.nodes.pop();
    ch.setGraph(workspace, changed);
    expect(sent.map((m) => (m.type === 'graph' ? m.revision : m.type))).toEqual([1, 'focus', 2]);
    ch.setNotice('x', 'warning');
    ch.setNotice('x', 'warning');
    ch.setNotice();
    expect(sent.slice(3)).toEqual([{ type: 'notice', message: 'x', severity: 'warning' }, { type: 'notice' }]);
    // Hidden, then shown: the page reloads and says ready again; the latest graph (and no old notice) is sent.
    ch.reset();
    ch.setSimulation(deploymentReport(), 3);
    expect(sent).toHaveLength(5);
    ch.onReady();
    expect(sent.slice(5).map((m) => m.type)).toEqual(['graph', 'simulation']);
    expect(ch.locationOf('rs1')?.range.start.line).toBe(20);
    expect(ch.currentSimulation?.target.uid).toBe('d1');
    // A new focus starts clean: the old simulation is not sent again.
    ch.focus('p2');
    expect(sent.at(-1)).toEqual({ type: 'focus', uid: 'p2' });
    expect(ch.currentSimulation).toBeUndefined();
    ch.reset();
    sent.length = 0;
    ch.onReady();
    expect(sent.map((m) => m.type)).toEqual(['graph']);
  });
});
