// The server class without any connection: a fake LspClient stands in for the editor and receives everything that
// goes out, and each LSP message is a method call. What a front end needs to test the server's decisions alone.

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CancellationToken, type Diagnostic } from 'vscode-languageserver';
import type { ServerStatus } from '../../shared/src/protocol';
import type { LspClient } from '../../server/src/lsp/client';
import { KubeGcLensServer } from '../../server/src/lsp/server';

const FOLDER = path.resolve(__dirname, '../../examples/deployment-export-from-another-cluster');
const FILE = pathToFileURL(path.join(FOLDER, 'checkout-export.yaml')).toString();

/** A client that records what the server sends and resolves `ready` on the status "ready". */
function fakeClient() {
  const sent = { diagnostics: new Map<string, Diagnostic[]>(), statuses: [] as ServerStatus[], warnings: [] as string[] };
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const client: LspClient = {
    publishDiagnostics: (uri, d) => void sent.diagnostics.set(uri, d),
    sendStatus: (s) => {
      sent.statuses.push(s);
      if (s.state === 'ready') ready();
    },
    sendClusterStatus: () => undefined,
    refreshCodeLenses: () => undefined,
    settings: async () => [null, null],
    progress: async () => undefined,
    warn: (m) => void sent.warnings.push(m),
    error: (m) => void sent.warnings.push(m),
  };
  return { client, sent, isReady };
}

describe('KubeGcLensServer without a connection', () => {
  it('loads a folder, publishes its diagnostics through the LspClient and answers hover and simulate as method calls', async () => {
    const { client, sent, isReady } = fakeClient();
    const server = new KubeGcLensServer(client);
    const init = server.initialize({
      processId: null,
      rootUri: null,
      workspaceFolders: [{ uri: pathToFileURL(FOLDER).toString(), name: 'export' }],
      capabilities: { workspace: { configuration: true } },
    });
    expect(init.capabilities.hoverProvider).toBe(true);
    server.initialized();
    await isReady;

    expect((sent.diagnostics.get(FILE) ?? []).map((d) => d.code).sort()).toEqual(['dangling-owner', 'owner-uid-mismatch']);
    const hover = await server.hover({ textDocument: { uri: FILE }, position: { line: 110, character: 15 } }, CancellationToken.None);
    expect(JSON.stringify(hover?.contents)).toContain('64b1c1b1-59ad-4af3-a756-871bd6965119');
    const report = await server.simulate({ uid: '64b1c1b1-59ad-4af3-a756-871bd6965119', policy: 'Foreground' }, CancellationToken.None);
    expect(report?.summary).toMatch(/^Deleting Deployment /);
    await server.shutdown();
    expect(sent.warnings).toEqual([]);
  });

  it('answers a cancelled request with the LSP "cancelled" error', async () => {
    const { client, isReady } = fakeClient();
    const server = new KubeGcLensServer(client);
    server.initialize({ processId: null, rootUri: null, workspaceFolders: null, capabilities: {} });
    server.initialized();
    await isReady;
    await expect(server.objects({}, CancellationToken.Cancelled)).rejects.toMatchObject({ code: -32800 });
    await server.shutdown();
  });
});
