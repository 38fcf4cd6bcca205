// The built language server on a live cluster whose Deployments are listed metadata-only: the one thing their spec
// tells the simulation, which workload runs the controller of a custom finalizer (by its container images), is read
// when the live stuck list or a Simulate Delete needs it, so the answers are those full objects give. Never a write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterConnectRequest, ClusterSimulateRequest, ClusterStuckRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { ns } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let lsp: LspSession;

const T = '2026-11-20T08:00:00Z';
const held = (name: string, uid: string, terminating: boolean) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  data: { k: 'v' },
  metadata: {
    name,
    namespace: 'widgets',
    uid,
    creationTimestamp: T,
    finalizers: ['widgets.example.com/cleanup'],
    ...(terminating ? { deletionTimestamp: '2026-11-20T09:00:00Z' } : {}),
  },
});

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'lsp-workloads-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-lsp-workloads-'));
  server.add(ns('platform', 'ns-platform'));
  server.add(ns('widgets', 'ns-widgets'));
  // Its name and labels share no word with widgets.example.com: only its image's path ("widgets") does.
  server.add({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'ops-manager', namespace: 'platform', uid: 'd-ops', creationTimestamp: T, generation: 4 },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'ops' } },
      template: {
        metadata: { labels: { app: 'ops' } },
        spec: { containers: [{ name: 'manager', image: 'registry.example.org/widgets-operator:2.1' }] },
      },
    },
  });
  server.add(held('held', 'cm-held', true));
  server.add(held('other', 'cm-other', false));
  lsp = new LspSession({ folder: join(__dirname, '../../examples') });
  await lsp.initialize();
  await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig: server.writeKubeconfig(dir), allowExec: false });
});

afterAll(async () => {
  await lsp.dispose();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('custom finalizers on a live cluster with metadata-only Deployments', () => {
  it("the stuck list: the terminating ConfigMap finishes only if its finalizer's guessed controller (by image) is the one: listed with that guess", async () => {
    // Connecting read the Deployments in full once (a terminating object carries a custom finalizer).
    const deployments = server.requests.filter((r) => r.verb === 'list' && r.resource === 'deployments');
    expect(deployments.map((r) => (/PartialObjectMetadata/.test(r.accept) ? 'metadata' : 'full'))).toEqual(['metadata', 'full']);
    const items = await lsp.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 1e9 });
    // Without the image, no workload would match widgets.example.com: "nobody removes" it, with no guess to name.
    expect(items.find((i) => i.uid === 'cm-held')).toMatchObject({
      state: 'stuck',
      guess: expect.stringMatching(/^finishes if Deployment platform\/ops-manager is its controller \(guessed from the words "widgets" /),
    });
  });

  it('Simulate Delete of another object with that finalizer: removed by the guessed controller, said so in a note', async () => {
    const report = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'cm-other', policy: 'Background' });
    expect(report!.deleted.map((d) => d.uid)).toContain('cm-other');
    expect(report!.notes).toContainEqual(
      expect.stringMatching(
        /^Assumed: widgets\.example\.com\/cleanup is removed by Deployment platform\/ops-manager \(guessed from the words "widgets" /,
      ),
    );
    expect(report!.notes.filter((n) => n.startsWith('this preview is incomplete'))).toEqual([]);
    expect(server.writes()).toBe(0);
  });
});
