// The built language server on a live cluster (the API test server), where a metadata-only graph is not enough:
// Simulate Delete reads the Pods it can reach in full first, so pvc-protection knows who mounts a claim (and says
// when it could not read them); the live stuck list knows the same from connecting on, and shows a terminating
// Namespace's real status conditions.
// Never a write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterConnectRequest, ClusterSimulateRequest, ClusterStuckRequest } from '../../server/src/lsp/methods';
import { ACCEPT_OBJECTS } from '../../server/src/sources/cluster/apiClient';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { STUCK_NAMESPACE_CONDITIONS, configMap, ns, pod, pvc, terminatingNs } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let lsp: LspSession;

const T = '2026-11-20T08:00:00Z';
const db = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', uid: 'sts-db' } };

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'lsp-pods-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-lsp-pods-'));
  // data: a claim being deleted while db-0 (of StatefulSet db) still mounts it.
  server.add(ns('data', 'ns-data'));
  server.add({
    ...db,
    metadata: { ...db.metadata, namespace: 'data', creationTimestamp: T },
    spec: {
      replicas: 1,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'example/db:1' }] } },
    },
  });
  server.add(pvc('data', 'data-db-0', 'pvc-data-db-0', { deletionTimestamp: '2026-11-20T09:00:00Z' }));
  server.add(pod('data', 'db-0', 'p-db-0', { owner: db, claims: ['data-db-0'] }));
  server.add(configMap('data', 'settings', 'cm-data-settings'));
  // vault: the same, but its Pods may not be read in full (forbidden later, after the metadata-only listing).
  server.add(ns('vault', 'ns-vault'));
  server.add(pvc('vault', 'secrets', 'pvc-vault'));
  server.add(pod('vault', 'vault-0', 'p-vault-0', { claims: ['secrets'] }));
  server.add(configMap('vault', 'settings', 'cm-vault-settings'));
  // legacy: a Namespace being deleted, with the conditions its namespace controller wrote.
  server.add(terminatingNs('legacy', 'ns-legacy', STUCK_NAMESPACE_CONDITIONS));
  server.add(
    pod('legacy', 'held', 'p-legacy-held', { deletionTimestamp: '2026-11-20T09:00:00Z', finalizers: ['storage.acme.io/protect'] }),
  );
  lsp = new LspSession({ folder: join(__dirname, '../../examples') });
  await lsp.initialize();
  await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig: server.writeKubeconfig(dir), allowExec: false });
});

afterAll(async () => {
  await lsp.dispose();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const podReads = () => server.requests.filter((r) => r.verb === 'list' && r.resource === 'pods' && r.namespace !== undefined);

describe('Simulate Delete on the live graph reads the Pods it needs in full', () => {
  it('a claim being deleted while a Pod mounts it: pvc-protection holds it, naming the Pod', async () => {
    const report = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'cm-data-settings', policy: 'Background' });
    // Deleting a ConfigMap changes nothing for the claim: it stays, held by db-0, with or without this delete.
    const claim = report!.stuck.find((s) => s.uid === 'pvc-data-db-0');
    expect(claim?.blockedBy[0]).toMatchObject({
      type: 'finalizer',
      finalizer: 'kubernetes.io/pvc-protection',
      message: 'still mounted by Pod data/db-0',
    });
    expect(report!.stuck.filter((s) => s.cause === 'settling').map((s) => s.uid)).toContain('pvc-data-db-0');
    // One full LIST, of the Pods in data: the only namespace this simulation (and what is terminating) can reach with claims.
    expect(podReads().map((r) => [r.namespace, r.accept])).toEqual([['data', ACCEPT_OBJECTS]]);
    expect(report!.notes.filter((n) => n.startsWith('this preview is incomplete'))).toEqual([]);
  });

  it('deleting the StatefulSet: its Pod goes, then pvc-protection lets the claim go', async () => {
    const report = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'sts-db', policy: 'Background' });
    const deleted = report!.deleted.map((d) => d.uid);
    expect(deleted).toEqual(expect.arrayContaining(['sts-db', 'p-db-0', 'pvc-data-db-0']));
    expect(deleted.indexOf('pvc-data-db-0')).toBeGreaterThan(deleted.indexOf('p-db-0'));
    expect(report!.steps).toContainEqual(
      expect.objectContaining({
        actor: 'pvc-protection-controller',
        action: 'remove-finalizer',
        target: expect.objectContaining({ uid: 'pvc-data-db-0' }),
      }),
    );
    expect(report!.stuck.find((s) => s.uid === 'pvc-data-db-0')).toBeUndefined();
  });

  it('Pods that may not be read in full: the preview says it is incomplete, and why', async () => {
    server.faults.forbid({ group: '', resource: 'pods', namespace: 'vault' });
    const report = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'cm-vault-settings', policy: 'Background' });
    expect(report!.notes).toContainEqual(
      expect.stringMatching(
        /^this preview is incomplete: cannot read the Pods in vault in full \(pods is forbidden: User ".*" cannot list resource "pods" in API group "" in the namespace "vault"\), so which PersistentVolumeClaims its Pods mount \(and their nodes and phases\) is unknown$/,
      ),
    );
    expect(report!.target.name).toBe('settings');
  });
});

describe('the live stuck list and a terminating Namespace', () => {
  it('a claim being deleted that a Pod mounts is stuck, naming the Pod: the Pods beside it were read in full on connecting', async () => {
    const items = await lsp.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 10 });
    const claim = items.find((i) => i.uid === 'pvc-data-db-0');
    expect(claim).toMatchObject({ state: 'stuck' });
    expect(claim!.blockedBy[0]).toMatchObject({
      type: 'finalizer',
      finalizer: 'kubernetes.io/pvc-protection',
      message: 'still mounted by Pod data/db-0',
    });
  });

  it('shows its real status conditions (those that hold) beside what is left inside', async () => {
    const items = await lsp.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 10 });
    const legacy = items.find((i) => i.uid === 'ns-legacy');
    expect(legacy).toMatchObject({ state: 'stuck', since: '2026-11-20T09:00:00Z' });
    expect(legacy!.namespaceConditions).toEqual(STUCK_NAMESPACE_CONDITIONS.filter((c) => c.status === 'True'));
    const content = legacy!.blockedBy.find((b) => b.type === 'namespace-content')!;
    expect(content.blockedBy?.map((b) => b.object?.uid)).toEqual(['p-legacy-held']);
    expect(server.writes()).toBe(0);
  });
});
