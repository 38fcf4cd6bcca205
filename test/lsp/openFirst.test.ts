// A cold open shows the open documents first: their own problems as soon as they are parsed (before the rest of the
// workspace is read), then, once everything is loaded, their complete diagnostics before any other file's; the load
// reports $/progress from the first file read to the last publication.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../shared/src/protocol';
import type { LspClient } from '../../server/src/lsp/client';
import { KubeGcLensServer } from '../../server/src/lsp/server';

const dir = mkdtempSync(join(tmpdir(), 'kube-gc-open-first-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const owner = 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web\n  namespace: ns\n  uid: rs-1\n';
const pod = (i: number, ownerUid: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\n  namespace: ns\n  uid: pod-${i}\n  ownerReferences:\n` +
  `  - apiVersion: apps/v1\n    kind: ReplicaSet\n    name: web\n    uid: ${ownerUid}\n    controller: true\n`;
// Pods whose owner reference has the wrong uid (a finding in each file), and the owner in the last file.
for (let i = 0; i < 120; i++) writeFileSync(join(dir, `pod-${String(i).padStart(3, '0')}.yaml`), pod(i, 'wrong'));
writeFileSync(join(dir, 'zz-owner.yaml'), owner);
const openUri = pathToFileURL(join(dir, 'pod-050.yaml')).toString();
// The editor's text of the open file: a second document with a syntax error.
const openText = `${pod(50, 'wrong')}---\nkind: [unclosed\n`;

type Event = { publish: string; codes: string[] } | { status: ServerStatus['state'] } | { progress: string };

function recordingClient(events: Event[]): { client: LspClient; ready: Promise<void> } {
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const client: LspClient = {
    publishDiagnostics: (uri, d) => void events.push({ publish: uri, codes: d.map((x) => String(x.code)).sort() }),
    sendStatus: (s) => {
      events.push({ status: s.state });
      if (s.state === 'ready') ready();
    },
    sendClusterStatus: () => undefined,
    refreshCodeLenses: () => undefined,
    settings: async () => [null, null],
    progress: async (_title, message) => {
      events.push({ progress: `begin: ${message}` });
      return {
        report: (_percent, m) => void events.push({ progress: m }),
        done: () => void events.push({ progress: 'done' }),
      };
    },
    warn: () => undefined,
    error: () => undefined,
  };
  return { client, ready: isReady };
}

describe('a cold open', () => {
  it('publishes the open document first, then the workspace, with progress until the end', async () => {
    const events: Event[] = [];
    const { client, ready } = recordingClient(events);
    const server = new KubeGcLensServer(client);
    server.initialize({
      processId: null,
      rootUri: null,
      workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
      capabilities: { workspace: { configuration: true }, window: { workDoneProgress: true } },
    });
    server.didOpen({ textDocument: { uri: openUri, languageId: 'yaml', version: 1, text: openText } });
    server.initialized();
    await ready;
    await server.shutdown();

    const publishes = events.flatMap((e, i) => ('publish' in e ? [{ ...e, at: i }] : []));
    const firstProgress = events.findIndex((e) => 'progress' in e && /files$/.test(e.progress));
    const readyAt = events.findIndex((e) => 'status' in e && e.status === 'ready');
    // The open document's own problem, before any other file was read.
    expect(publishes[0]).toMatchObject({ publish: openUri, codes: ['yaml-syntax'] });
    expect(publishes[0].at).toBeLessThan(firstProgress);
    // Then its complete diagnostics before any other file's.
    const complete = publishes.filter((p) => p.at > firstProgress);
    expect(complete[0]).toMatchObject({ publish: openUri, codes: ['owner-uid-mismatch', 'yaml-syntax'] });
    expect(complete.length).toBe(120); // every Pod file once (the owner's file has nothing to show)
    // Progress from the first file to after the last publication.
    const done = events.findIndex((e) => 'progress' in e && e.progress === 'done');
    expect(done).toBeGreaterThan(publishes[publishes.length - 1].at);
    expect(done).toBeLessThan(readyAt); // and ends before the status says ready
  });
});
