// The server's activity log (server/src/lsp/activityLog.ts): what was loaded, the load's and the first
// diagnostics' times, and debug lines, through the LspClient's info and debug, with everything still passed on.

import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import type { ServerStatus } from '../../shared/src/protocol';
import { durationText, loadedText, withActivityLog } from '../../server/src/lsp/activityLog';
import type { LspClient } from '../../server/src/lsp/client';
import { InProcessServer } from './inProcessServer';

function recorder() {
  const lines: string[] = [];
  const passed: string[] = [];
  const inner: LspClient = {
    publishDiagnostics: (uri, d) => void passed.push(`diagnostics ${uri} ${d.length}`),
    sendStatus: (s) => void passed.push(`status ${s.state}`),
    sendClusterStatus: () => undefined,
    refreshCodeLenses: () => undefined,
    settings: async () => [null, null],
    progress: async () => ({ report: (p, m) => void passed.push(`progress ${p} ${m}`), done: () => void passed.push('progress done') }),
    warn: (m) => void lines.push(`warn: ${m}`),
    error: (m) => void lines.push(`error: ${m}`),
    info: (m) => void lines.push(`info: ${m}`),
    debug: (m) => void lines.push(`debug: ${m}`),
  };
  return { inner, lines, passed };
}

const status = (state: 'loading' | 'ready', more: Partial<ServerStatus> = {}): ServerStatus => ({
  protocolVersion: 1,
  state,
  files: 0,
  objects: 0,
  findings: 0,
  stuck: 0,
  problems: 0,
  ...more,
});

const diagnostic = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'x' } as Diagnostic;

describe('the activity log', () => {
  it('says what was loaded and how long the load and the first diagnostics took, and passes everything on', async () => {
    const { inner, lines, passed } = recorder();
    let clock = 1000;
    const client = withActivityLog(inner, () => clock);
    clock += 5;
    client.sendStatus(status('loading'));
    clock += 1234;
    const ready = status('ready', { files: 22, objects: 20, problems: 1, findings: 3, stuck: 1 });
    client.sendStatus(ready);
    clock += 30;
    client.publishDiagnostics('file:///ws/my%20app/pods.yaml', [diagnostic]);
    client.publishDiagnostics('file:///ws/other.yaml', []);
    const progress = await client.progress('Kube GC Lens', 'Finding Kubernetes manifests…');
    progress!.report(50, 'Reading 11 of 22 files');
    clock += 400;
    progress!.done();
    client.sendStatus(status('ready', { files: 22, objects: 21 }));
    client.warn('Could not read settings');

    expect(lines).toEqual([
      'info: Loading the workspace',
      'info: Loaded 22 files in 1.23 s: 20 objects, 1 load problem, 3 findings (1 stuck)',
      'info: First diagnostics 1.27 s after the server started (pods.yaml)',
      'debug: Diagnostics: pods.yaml: 1',
      'debug: Diagnostics: other.yaml: 0',
      'debug: Kube GC Lens: Reading 11 of 22 files (400 ms)',
      'debug: Status: ready, 22 files, 21 objects, 0 findings',
      'warn: Could not read settings',
    ]);
    expect(passed).toEqual([
      'status loading',
      'status ready',
      'diagnostics file:///ws/my%20app/pods.yaml 1',
      'diagnostics file:///ws/other.yaml 0',
      'progress 50 Reading 11 of 22 files',
      'progress done',
      'status ready',
    ]);
  });

  it('tells a reload from the first load, and logs nothing through a client without info and debug', () => {
    const { inner, lines } = recorder();
    const client = withActivityLog(inner, () => 0);
    for (let i = 0; i < 2; i++) {
      client.sendStatus(status('loading'));
      client.sendStatus(status('ready', { files: 1, objects: 1 }));
    }
    expect(lines.filter((l) => l.startsWith('info: Loading'))).toEqual([
      'info: Loading the workspace',
      'info: Loading the workspace again (its files or settings changed)',
    ]);

    const { info: _info, debug: _debug, ...bare } = recorder().inner;
    const quiet = withActivityLog(bare, () => 0);
    expect(() => {
      quiet.sendStatus(status('loading'));
      quiet.publishDiagnostics('file:///a.yaml', []);
    }).not.toThrow();
  });

  it('writes durations and counts as a person reads them', () => {
    expect([durationText(0.4), durationText(999.4), durationText(1000), durationText(4567)]).toEqual([
      '0 ms',
      '999 ms',
      '1.00 s',
      '4.57 s',
    ]);
    expect(loadedText(status('ready', { files: 1, objects: 1, problems: 0, findings: 1 }), 12)).toBe(
      'Loaded 1 file in 12 ms: 1 object, 0 load problems, 1 finding',
    );
  });

  it('reaches the editor as window/logMessage at info level, from a server on a connection', async () => {
    const server = new InProcessServer();
    try {
      await server.initialize();
      expect(server.logs).toContain('3: Loading the workspace');
      expect(
        server.logs.filter((l) => /^3: Loaded 0 files in \d+(?: ms|\.\d\d s): 0 objects, 0 load problems, 0 findings$/.test(l)),
      ).toHaveLength(1);
    } finally {
      server.dispose();
    }
  });
});
