// A settings change over the LSP connection (workspace/didChangeConfiguration, then workspace/configuration): only a
// change of which files are read (kubeGcLens.files, VS Code's files.exclude) makes the built server read the
// workspace again; severities and the simulation's settings are applied to what is loaded. A file changed on disk
// without a watched-files notification tells the two apart: only a reload sees it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationRequest, DidChangeConfigurationNotification } from 'vscode-languageserver-protocol';
import { LspSession, uriOf } from '../../testkit/lsp/lspSession';

const sessions: LspSession[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const replicaSet = (name: string, ownerUid: string) => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: ${name}
  namespace: shop
  uid: rs-${name}
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: gone
    uid: ${ownerUid}
    controller: true
`;

async function start(files: Record<string, string>): Promise<{ s: LspSession; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kgl-settings-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const s = new LspSession({ folder: dir });
  sessions.push(s);
  await s.initialize();
  return { s, dir };
}

const codes = (s: LspSession, uri: string) => (s.diagnostics.get(uri) ?? []).map((d) => `${String(d.code)}:${d.severity}`);

describe('settings changes', () => {
  it('a severity applies to what is loaded, without reading the workspace again', async () => {
    const { s, dir } = await start({ 'a.yaml': replicaSet('a', 'dep-gone') });
    const a = uriOf(path.join(dir, 'a.yaml'));
    await s.diagnosticsFor(a, (d) => d.some((x) => x.code === 'dangling-owner'));
    const before = codes(s, a);
    // Changed on disk behind the server's back: a reload would see a second dangling ReplicaSet in b.yaml.
    writeFileSync(path.join(dir, 'b.yaml'), replicaSet('b', 'dep-gone-too'));
    const mark = s.mark();
    s.settings.kubeGcLens = { severity: { 'dangling-owner': 'hint' } };
    await s.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await s.diagnosticsFor(a, (d) => d.some((x) => x.code === 'dangling-owner' && x.severity === 4));
    expect(codes(s, a)).not.toEqual(before);
    // No reload happened: no "loading" status, no progress, b.yaml unseen.
    expect(s.timeline.slice(mark).some((e) => (e.type === 'status' && e.status.state === 'loading') || e.type === 'progress-create')).toBe(
      false,
    );
    expect(s.diagnostics.has(uriOf(path.join(dir, 'b.yaml')))).toBe(false);
    expect(s.status).toMatchObject({ state: 'ready', files: 1 });

    // Off: the finding disappears from the document and from the status counts.
    s.settings.kubeGcLens = { severity: { 'dangling-owner': 'off' } };
    await s.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await s.diagnosticsFor(a, (d) => !d.some((x) => x.code === 'dangling-owner'));
  });

  it('a change of which files are read reads the workspace again', async () => {
    const { s, dir } = await start({ 'a.yaml': replicaSet('a', 'dep-gone') });
    writeFileSync(path.join(dir, 'b.yaml'), replicaSet('b', 'dep-gone-too'));
    const b = uriOf(path.join(dir, 'b.yaml'));
    const mark = s.mark();
    s.settings.files = { exclude: { '**/a.yaml': true } };
    await s.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await s.untilReloaded(mark);
    await s.diagnosticsFor(b, (d) => d.some((x) => x.code === 'dangling-owner'));
    await s.diagnosticsFor(uriOf(path.join(dir, 'a.yaml')), (d) => d.length === 0);
    expect(s.status).toMatchObject({ state: 'ready', files: 1 });
  });

  it('the same settings sent again change nothing', async () => {
    const { s, dir } = await start({ 'a.yaml': replicaSet('a', 'dep-gone') });
    writeFileSync(path.join(dir, 'b.yaml'), replicaSet('b', 'dep-gone-too'));
    let asked = 0;
    s.connection.onRequest(ConfigurationRequest.type, (p) => {
      asked++;
      return p.items.map((i) => (i.section ? (s.settings[i.section] ?? null) : null));
    });
    const mark = s.mark();
    await s.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    for (let i = 0; i < 200 && asked === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(asked).toBeGreaterThan(0);
    // A request answered after that: a reload, had one started, would have said "loading" before it.
    await s.connection.sendRequest('kubeGcLens/objects', {});
    expect(s.timeline.slice(mark).some((e) => e.type === 'status' && e.status.state === 'loading')).toBe(false);
    expect(s.status).toMatchObject({ state: 'ready', files: 1 });
  });
});
