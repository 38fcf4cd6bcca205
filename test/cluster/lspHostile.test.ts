// The built language server's kubeGcLens/cluster/connect with requestTimeoutSeconds (the VS Code setting
// kubeGcLens.cluster.requestTimeoutSeconds): a trickling LIST is cut at that deadline and named in the status, the rest
// is connected; malformed items are left out and named in a live simulation's notes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterConnectRequest, ClusterDisconnectRequest, ClusterSimulateRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { seedShop } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
let lsp: LspSession;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'lsp-hostile' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-lsp-hostile-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
  lsp = new LspSession({ folder: join(__dirname, '../../examples') });
  await lsp.initialize();
});

afterAll(async () => {
  await lsp.dispose();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the language server against a hostile cluster', () => {
  it('cuts a trickling LIST at requestTimeoutSeconds and names it; the rest is connected', { timeout: 30_000 }, async () => {
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'trickle', intervalMs: 50 });
    try {
      const status = await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false, requestTimeoutSeconds: 2 });
      expect(status.problems).toEqual([
        expect.objectContaining({
          kind: 'failing',
          resource: 'configmaps',
          message: 'GET /api/v1/configmaps?limit=500 did not complete within 2 s (the request deadline)',
        }),
      ]);
      expect(status.objects).toBeGreaterThanOrEqual(5);
    } finally {
      server.faults.clear();
      await lsp.connection.sendRequest(ClusterDisconnectRequest);
    }
  });

  it('leaves malformed items out and names them in the notes of a live simulation', async () => {
    server.faults.hostile(
      { group: '', resource: 'configmaps' },
      { kind: 'items', items: [null, { metadata: { name: 'odd', namespace: 'shop', uid: 1 } }] },
    );
    try {
      const status = await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false });
      expect(status.problems).toEqual([]);
      const report = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'd-web', policy: 'Background' });
      expect(report?.notes).toEqual(
        expect.arrayContaining([
          'this preview is incomplete: 1 configmap in shop has malformed metadata and was left out ("odd": metadata.uid must be a string, found a number)',
          'this preview is incomplete: 1 configmap has malformed metadata and was left out (an item of the LIST is null, not an object)',
        ]),
      );
    } finally {
      server.faults.clear();
      await lsp.connection.sendRequest(ClusterDisconnectRequest);
    }
  });

  it('refuses a negative or non-number requestTimeoutSeconds (InvalidParams)', async () => {
    for (const v of [-1, '60']) {
      await expect(
        lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false, requestTimeoutSeconds: v as number }),
      ).rejects.toThrow(/requestTimeoutSeconds/);
    }
  });
});
