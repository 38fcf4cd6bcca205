// The built language server's cluster requests over stdio against a real kube-apiserver and kube-controller-manager
// (test/controlplane: Kubernetes' own code), not the API test server: contexts, connect (all or chosen namespaces) and
// status, the live stuck list (a namespace held by a custom finalizer, a foreground deletion in progress, a claim a
// scheduled Pod mounts), the live graph and its scopes, search, live documents, Simulate Delete of a live namespace
// (then the real deletion, which must do what was predicted), the restricted user's real 403s as incomplete-preview
// notes, disconnect, and workspace manifests checked against the live graph. Every expected value is what kubectl reads
// from the same server; the API test server holding the same objects must give the same answers. The apiserver's audit
// log counts what the language server sent: GET only. Skipped only where `go` is not on PATH (CI and the project's
// machines have it).

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeLensRequest, CodeLensResolveRequest, DiagnosticSeverity, HoverRequest, type CodeLens } from 'vscode-languageserver-protocol';
import { liveObjectUri, type ClusterStatus, type StuckItem } from '../../shared/src/protocol';
import {
  ClusterConnectRequest,
  ClusterContextsRequest,
  ClusterDisconnectRequest,
  ClusterDocumentRequest,
  ClusterGraphRequest,
  ClusterGraphSummaryRequest,
  ClusterSearchObjectsRequest,
  ClusterSimulateRequest,
  ClusterStatusNotification,
  ClusterStuckRequest,
} from '../../server/src/lsp/methods';
import { LspSession, uriOf } from '../../testkit/lsp/lspSession';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { readAll, readOne, watchedTypes, type RealItem } from '../helpers/realCluster';
import { hoverText, objectLabel } from '../helpers/lspText';
import { startKubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';

if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/lspRealServer.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-lsp-real-'));
const WS = path.join(dir, 'ws');
const AUDIT_LOG = path.join(dir, 'audit.log');
const AUDIT_POLICY = path.join(dir, 'audit-policy.yaml');
let plane: ControlPlane;
let lsp: LspSession;
const statuses: (ClusterStatus | null)[] = [];
const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);
const uidOf = (ref: string, namespace?: string) => readOne(plane, ref, namespace).metadata.uid;
const labelOf = (o: RealItem) => objectLabel({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name });
const fileUri = (name: string) => uriOf(path.join(WS, name));
const claim = (name: string) =>
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ${name}, namespace: data}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}`;
/** A Pod bound to a node by its spec (no scheduler, no kubelet: it never runs) that mounts the claim. */
const mountingPod = (name: string, claimName: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: data}\nspec: {nodeName: node-1, containers: [{name: db, image: example/db:1}], volumes: [{name: data, persistentVolumeClaim: {claimName: ${claimName}}}]}`;

// A ConfigMap exported from an earlier incarnation of ConfigMap shop/web: its owner uid is not the live one.
const PART = 'web-part.yaml';
const STALE_UID = '3f2a4b5c-0000-4000-8000-000000000000';
const partText = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web-part
  namespace: shop
  ownerReferences:
  - apiVersion: v1
    kind: ConfigMap
    name: web
    uid: ${STALE_UID}
`;
// The manifest of a live object that is terminating (team-a's held ConfigMap).
const HELD = 'held.yaml';
const heldText = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: team-a\n';

const byNamespace = (c: { namespace: string; objects: number }[]) => [...c].sort((a, b) => a.namespace.localeCompare(b.namespace));

/**
 * The graph summary of what kubectl reads (of these namespaces' namespaced objects, else all): objects per namespace,
 * every Namespace listed.
 */
function expectedSummary(namespaces?: string[]): { namespace: string; objects: number }[] {
  const counts = new Map<string, number>();
  for (const o of readAll(plane).items) {
    if (o.kind === 'Namespace') counts.set(o.metadata.name, counts.get(o.metadata.name) ?? 0);
    const ns = o.metadata.namespace ?? '';
    if (ns && namespaces && !namespaces.includes(ns)) continue;
    counts.set(ns, (counts.get(ns) ?? 0) + 1);
  }
  return byNamespace([...counts].map(([namespace, objects]) => ({ namespace, objects })));
}

/** What the language server says about a live cluster, without what depends on where or when it is asked. */
interface LiveAnswers {
  objects: number;
  graph: unknown;
  summary: unknown;
  stuck: unknown;
  search: unknown;
}
async function liveAnswers(session: LspSession): Promise<LiveAnswers> {
  // Each server numbers its own resourceVersions: a way out's precondition on one (its ops and its command) is the
  // server's, the rest must agree.
  const ownResourceVersion = /(\\?"path\\?":\\?"\/metadata\/resourceVersion\\?",\\?"value\\?":\\?")\d+/g;
  const placeless = (x: unknown) =>
    JSON.parse(
      JSON.stringify(x, (k, v) => (['location', 'locations', 'ageSeconds'].includes(k) ? undefined : v)).replace(
        ownResourceVersion,
        "$1(the server's own)",
      ),
    ) as unknown;
  const g = await session.connection.sendRequest(ClusterGraphRequest, {});
  const byUid = (a: { uid: string }, b: { uid: string }) => a.uid.localeCompare(b.uid);
  const stuck = await session.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 10 });
  const search = await session.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'kube-system', limit: 1000 });
  return {
    objects: (await session.connection.sendRequest(ClusterSearchObjectsRequest, { limit: 0 })).total,
    graph: placeless({ nodes: [...g.nodes].sort(byUid), edges: g.edges.map((e) => JSON.stringify(e)).sort() }),
    summary: await session.connection.sendRequest(ClusterGraphSummaryRequest),
    stuck: placeless([...stuck].sort((a, b) => byUid(a, b))),
    search: placeless(search),
  };
}

/** The live stuck list once it agrees with `check` (the watch may trail kubectl by a moment). */
async function stuckWhen(check: (items: StuckItem[]) => boolean): Promise<StuckItem[]> {
  let items: StuckItem[] = [];
  await until('the live stuck list to follow the cluster', async () =>
    check((items = await lsp.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 10 }))),
  );
  return items;
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('the language server on a real control plane', () => {
  beforeAll(async () => {
    writeFileSync(AUDIT_POLICY, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    plane = await startControlPlane({ apiserverArgs: [`--audit-policy-file=${AUDIT_POLICY}`, `--audit-log-path=${AUDIT_LOG}`] });
    // team-a: a namespace being deleted, held by a ConfigMap's custom finalizer. fg: a foreground deletion waiting for
    // a blocking dependent that a custom finalizer holds. shop: a ConfigMap the workspace's manifest names as owner.
    kubectl(
      ['apply', '-f', '-'],
      [
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: team-a, finalizers: [example.com/hold]}',
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: fg}',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: parent, namespace: fg}',
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, namespace: shop}',
      ].join('\n---\n'),
    );
    kubectl(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: child
  namespace: fg
  finalizers: [example.com/hold]
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: parent, uid: ${uidOf('configmap/parent', 'fg')}, blockOwnerDeletion: true}]
`,
    );
    // data: a claim being deleted while a scheduled Pod mounts it (no kubelet: the Pod never runs), and one no Pod
    // mounts. (The ServiceAccount admission wants the default ServiceAccount; no controller here creates it.)
    kubectl(
      ['apply', '-f', '-'],
      [
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: data}',
        'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: default, namespace: data}',
        claim('data-db-0'),
        claim('free'),
        mountingPod('db-0', 'data-db-0'),
      ].join('\n---\n'),
    );
    kubectl(['delete', 'pvc', 'data-db-0', 'free', '-n', 'data', '--wait=false']);
    kubectl(['delete', 'namespace', 'team-a', '--wait=false']);
    kubectl(['delete', 'configmap', 'parent', '-n', 'fg', '--cascade=foreground', '--wait=false']);
    // The real namespace controller and garbage collector act: held and child get their deletionTimestamps.
    await until(
      'the garbage collector deletes the blocking dependent',
      () => readOne(plane, 'configmap/child', 'fg').metadata.deletionTimestamp !== undefined,
    );
    await until(
      'the namespace controller deletes the content',
      () => readOne(plane, 'configmap/held', 'team-a').metadata.deletionTimestamp !== undefined,
    );
    // The pvc-protection controller has been through namespace data: the free claim is gone, the mounted one kept.
    await until('pvc-protection lets the free claim go', () => plane.kubectlResult(['get', 'pvc', 'free', '-n', 'data']).status !== 0);
    mkdirSync(WS);
    writeFileSync(path.join(WS, PART), partText);
    writeFileSync(path.join(WS, HELD), heldText);
    lsp = new LspSession({ folder: WS });
    lsp.connection.onNotification(ClusterStatusNotification, (s) => {
      statuses.push(s);
    });
    await lsp.initialize();
  }, 900_000);

  afterAll(async () => {
    await lsp?.dispose();
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("connects with the kubeconfig's current context: every watched type listed, every object kubectl lists", async () => {
    const status = await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig: plane.kubeconfig, allowExec: false });
    expect(status).toMatchObject({ context: 'admin', server: plane.server, namespaces: 'all', state: 'watching', problems: [] });
    const types = watchedTypes(plane);
    expect(status.resources).toEqual({ total: types.length, listed: types.length, watching: types.length });
    await lsp.until(() => statuses.at(-1)?.state === 'watching', 'the status notification "watching"');
    // Objects per namespace (the graph summary) are those kubectl reads in full, every Namespace included.
    const summary = await lsp.connection.sendRequest(ClusterGraphSummaryRequest);
    expect(byNamespace(summary.namespaces)).toEqual(expectedSummary());
    expect(summary.objects).toBe(status.objects);
  });

  it("the kubeconfig's contexts, as kubectl config reads them", async () => {
    const config = JSON.parse(kubectl(['config', 'view', '-o', 'json'])) as {
      'current-context': string;
      contexts: { name: string; context: { cluster: string; user: string; namespace?: string } }[];
      clusters: { name: string; cluster: { server: string } }[];
    };
    const r = await lsp.connection.sendRequest(ClusterContextsRequest, { kubeconfig: plane.kubeconfig });
    expect(r).toEqual({
      contexts: config.contexts.map((c) => ({
        name: c.name,
        cluster: c.context.cluster,
        user: c.context.user,
        namespace: c.context.namespace,
        current: c.name === config['current-context'],
        server: config.clusters.find((k) => k.name === c.context.cluster)!.cluster.server,
      })),
    });
    expect(r.contexts.map((c) => c.name).sort()).toEqual(['admin', 'restricted']);
  });

  it('the live stuck list: the namespace held by a custom finalizer and the foreground deletion, as kubectl shows them', async () => {
    const terminating = readAll(plane).items.filter((o) => o.metadata.deletionTimestamp);
    expect(terminating.map(labelOf).sort()).toEqual([
      'ConfigMap fg/child',
      'ConfigMap fg/parent',
      'ConfigMap team-a/held',
      'Namespace team-a',
      'PersistentVolumeClaim data/data-db-0',
    ]);
    const teamA = readOne(plane, 'namespace/team-a');
    const held = (teamA.status?.conditions ?? []).filter((c) => c.status === 'True');
    expect(held.map((c) => c.type)).toEqual(expect.arrayContaining(['NamespaceContentRemaining', 'NamespaceFinalizersRemaining']));
    // The namespace controller rewrites its conditions on every pass: wait until the watch has brought kubectl's.
    const items = await stuckWhen((i) => isDeepStrictEqual(i.find((x) => x.uid === teamA.metadata.uid)?.namespaceConditions, held));
    expect(items.map((i) => [i.uid, i.state, i.since, i.finalizers]).sort()).toEqual(
      terminating.map((o) => [o.metadata.uid, 'stuck', o.metadata.deletionTimestamp, o.metadata.finalizers ?? []]).sort(),
    );
    const byName = (name: string) => items.find((i) => i.name === name)!;
    const child = readOne(plane, 'configmap/child', 'fg');
    expect(readOne(plane, 'configmap/parent', 'fg').metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(byName('parent').blockedBy[0]).toMatchObject({
      type: 'waiting-for-dependents',
      finalizer: 'foregroundDeletion',
      object: { uid: child.metadata.uid },
    });
    expect(byName('parent').blockedBy[0].blockedBy?.[0]).toMatchObject({ type: 'finalizer', finalizer: 'example.com/hold' });
    expect(byName('child').blockedBy[0]).toMatchObject({ type: 'finalizer', finalizer: 'example.com/hold' });
    const content = byName('team-a').blockedBy.find((b) => b.type === 'namespace-content')!;
    expect(content.blockedBy?.map((b) => b.object?.uid)).toEqual([uidOf('configmap/held', 'team-a')]);
    // What the simulation leaves inside is worded as the real namespace controller words it (`configmaps. has 1 …`), but
    // for the stray dot it leaves after a core resource: that sentence is the simulation's own.
    const message = (type: string) => held.find((c) => c.type === type)!.message!.replace(/\b([a-z0-9]+)\. has /g, '$1 has ');
    expect(content.message).toBe(
      `NamespaceContentRemaining: ${message('NamespaceContentRemaining')}. NamespaceFinalizersRemaining: ${message('NamespaceFinalizersRemaining')}`,
    );
  });

  it('a claim being deleted while a scheduled Pod mounts it: stuck on pvc-protection, naming the Pod (read in full), in the Problems panel too', async () => {
    const mounted = readOne(plane, 'pvc/data-db-0', 'data');
    expect(mounted.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']); // the real controller kept it
    const item = (await lsp.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 10 })).find(
      (i) => i.uid === mounted.metadata.uid,
    );
    // Before the fix, the metadata-only Pod mounted nothing: "slow" (and left out under stuckAfterMinutes).
    expect(item).toMatchObject({ state: 'stuck', since: mounted.metadata.deletionTimestamp });
    expect(item!.blockedBy).toEqual([
      expect.objectContaining({ type: 'finalizer', finalizer: 'kubernetes.io/pvc-protection', message: 'still mounted by Pod data/db-0' }),
    ]);
    const uri = liveObjectUri(
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'data', name: 'data-db-0', uid: mounted.metadata.uid },
      'admin',
    );
    const diags = await lsp.diagnosticsFor(uri, (d) => d.some((x) => String(x.message).includes('still mounted by Pod data/db-0')));
    expect(diags.map((d) => [d.code, d.severity])).toEqual([['stuck-terminating', DiagnosticSeverity.Warning]]); // not "still cleaning up" (Information)
    // The same while connected: a new Pod mounts another claim, which is then deleted.
    kubectl(['apply', '-f', '-'], `${claim('logs')}\n---\n${mountingPod('db-1', 'logs')}`);
    kubectl(['delete', 'pvc', 'logs', '-n', 'data', '--wait=false']);
    await stuckWhen((items) =>
      items.some((i) => i.name === 'logs' && i.state === 'stuck' && i.blockedBy[0]?.message === 'still mounted by Pod data/db-1'),
    );
    expect(readOne(plane, 'pvc/logs', 'data').metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });

  it("the live graph: its edges are the ownerReferences kubectl reads; a namespace's scope and an object's component", async () => {
    const all = readAll(plane).items;
    const refs = all.flatMap((o) => (o.metadata.ownerReferences ?? []).map((r) => `${o.metadata.uid}->${r.uid}`)).sort();
    expect(refs.length).toBeGreaterThan(0);
    const whole = await lsp.connection.sendRequest(ClusterGraphRequest, {});
    expect(whole.edges.map((e) => `${e.from}->${e.to}`).sort()).toEqual(refs);
    // fg: its two ConfigMaps and the Namespace; the edge says what the reference says.
    const fg = await lsp.connection.sendRequest(ClusterGraphRequest, { namespace: 'fg' });
    const inFg = all.filter((o) => o.metadata.namespace === 'fg' || (o.kind === 'Namespace' && o.metadata.name === 'fg'));
    expect(fg.nodes.map((n) => n.uid).sort()).toEqual(inFg.map((o) => o.metadata.uid).sort());
    const child = readOne(plane, 'configmap/child', 'fg');
    expect(fg.edges).toEqual([
      { from: child.metadata.uid, to: child.metadata.ownerReferences![0].uid, controller: false, blockOwnerDeletion: true },
    ]);
    expect(fg.nodes.find((n) => n.name === 'parent')).toMatchObject({ state: 'deleting-dependents', finalizers: ['foregroundDeletion'] });
    expect(fg.nodes.find((n) => n.name === 'child')?.stuck).toContain('example.com/hold');
    const component = await lsp.connection.sendRequest(ClusterGraphRequest, { uid: child.metadata.uid });
    expect(component.nodes.map((n) => n.name).sort()).toEqual(['child', 'parent']);
  });

  it('search: words in any order, a uid prefix, the total of every live object', async () => {
    const held = readOne(plane, 'configmap/held', 'team-a');
    const byWords = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'held team-a' });
    expect(byWords.items.map((o) => [objectLabel(o), o.uid, o.beingDeleted])).toEqual([['ConfigMap team-a/held', held.metadata.uid, true]]);
    const byUid = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: held.metadata.uid.slice(0, 8) });
    expect(byUid.items.map((o) => o.uid)).toContain(held.metadata.uid);
    const everything = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { limit: 0 });
    expect(everything.total).toBe(readAll(plane).items.length);
  });

  it('the API test server holding what kubectl reads from the real one: the language server answers the same', async () => {
    // Every difference here is one between the API test server (testkit/kubeApiServer) and kube-apiserver.
    const api = await startKubeApiServer({ token: 'same-cluster' });
    const twin = new LspSession({});
    try {
      api.addMany(readAll(plane).items as unknown as Record<string, unknown>[]);
      await twin.initialize();
      const status = await twin.connection.sendRequest(ClusterConnectRequest, {
        kubeconfig: api.writeKubeconfig(dir, { context: 'admin' }),
        allowExec: false,
      });
      expect(status.problems).toEqual([]);
      const real = statuses.at(-1)!;
      expect(status.resources).toEqual(real.resources);
      let answers: [LiveAnswers, LiveAnswers] | undefined;
      // The real server's watch may trail kubectl's read by an event: ask again until both agree, or show the difference.
      await until(
        'the same answers',
        async () => {
          answers = [await liveAnswers(lsp), await liveAnswers(twin)];
          return isDeepStrictEqual(...answers);
        },
        50,
      ).catch(() => undefined);
      expect(answers![1]).toEqual(answers![0]);
    } finally {
      await twin.dispose();
      await api.close();
    }
  });

  it('a live document: the object as kubectl reads it, read-only, stuck in the Problems panel, with its lenses', async () => {
    const child = readOne(plane, 'configmap/child', 'fg');
    const owner = child.metadata.ownerReferences![0];
    const uri = liveObjectUri({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'fg', name: 'child', uid: child.metadata.uid }, 'admin');
    const { text } = await lsp.connection.sendRequest(ClusterDocumentRequest, { uri });
    expect(text.split('\n')[0]).toBe(
      '# Live ConfigMap fg/child in context admin (read-only: metadata only, as the garbage collector lists it).',
    );
    expect(text).toContain(`  uid: ${child.metadata.uid}\n`);
    expect(text).toContain(`  deletionTimestamp: ${child.metadata.deletionTimestamp}\n`);
    expect(text).toContain('  finalizers:\n    - example.com/hold\n');
    expect(text).toContain(`      name: ${owner.name}\n      uid: ${owner.uid}\n      blockOwnerDeletion: true\n`);
    const diags = await lsp.diagnosticsFor(uri, (d) => d.length > 0);
    expect(diags.map((d) => d.code)).toEqual(['stuck-terminating']);
    await lsp.open(uri, text);
    const lenses = (await lsp.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
    const ownedBy = lenses.find((l) => l.command?.title.startsWith('Owned by'));
    expect(ownedBy?.command?.arguments?.[0]).toBe(
      liveObjectUri({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'fg', name: 'parent', uid: owner.uid }, 'admin'),
    );
    const impact = await lsp.connection.sendRequest(CodeLensResolveRequest.type, lenses.find((l) => !l.command)!);
    expect(impact.command).toMatchObject({
      command: 'kubeGcLens.simulateDelete',
      arguments: [{ source: 'cluster', uid: child.metadata.uid }, 'default'],
    });
    // A terminating Namespace's document has the conditions its real namespace controller wrote, as kubectl reads them.
    const teamA = readOne(plane, 'namespace/team-a');
    const nsUri = liveObjectUri({ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'team-a', uid: teamA.metadata.uid }, 'admin');
    const nsText = (await lsp.connection.sendRequest(ClusterDocumentRequest, { uri: nsUri })).text;
    expect(parseManifestText(nsText, nsUri).objects[0].facts.namespaceConditions).toEqual(teamA.status?.conditions);
  });

  it('workspace manifests against the live graph: collected on apply (the real owner uid), live-terminating, hover', async () => {
    const web = uidOf('configmap/web', 'shop');
    const part = await lsp.diagnosticsFor(fileUri(PART), (d) => d.some((x) => x.code === 'collected-on-apply'));
    const collected = part.find((x) => x.code === 'collected-on-apply')!;
    expect(collected.message).toBe(
      `Applying this file gets it garbage-collected: owner uid 3f2a4b5c… is not the live ConfigMap shop/web's uid ${web.slice(0, 8)}….`,
    );
    expect(collected.range.start.line).toBe(9);
    const h = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: fileUri(PART) },
      position: { line: 9, character: 10 },
    });
    expect(hoverText(h)).toContain(`ConfigMap shop/web exists with uid \`${web}\` (present), not this reference's`);
    const held = await lsp.diagnosticsFor(fileUri(HELD), (d) => d.some((x) => x.code === 'live-terminating'));
    const terminating = held.find((x) => x.code === 'live-terminating')!.message;
    expect(terminating).toContain('The live ConfigMap team-a/held (context admin)');
    expect(terminating).toContain('example.com/hold');
  });

  it('Simulate Delete of a live namespace; the real deletion then does what it predicted', async () => {
    const before = readAll(plane).items.filter(
      (o) => o.metadata.namespace === 'fg' || (o.kind === 'Namespace' && o.metadata.name === 'fg'),
    );
    const fg = before.find((o) => o.kind === 'Namespace')!;
    const report = (await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: fg.metadata.uid, policy: 'Background' }))!;
    expect(report.target).toMatchObject({ kind: 'Namespace', name: 'fg', uid: fg.metadata.uid });
    // The namespace controller's Background delete replaces parent's foregroundDeletion; child's finalizer holds it,
    // and so the namespace.
    const deleted = report.deleted.map((d) => d.uid).sort();
    const survivors = before
      .map((o) => o.metadata.uid)
      .filter((u) => !deleted.includes(u))
      .sort();
    expect(deleted).toEqual([uidOf('configmap/parent', 'fg')]);
    expect(report.stuck.map((s) => s.uid)).toEqual(expect.arrayContaining(survivors));
    expect(report.notes).toEqual([]);
    kubectl(['delete', 'namespace', 'fg', '--wait=false']);
    const inFg = () =>
      readAll(plane)
        .items.filter((o) => o.metadata.namespace === 'fg' || (o.kind === 'Namespace' && o.metadata.name === 'fg'))
        .map((o) => o.metadata.uid)
        .sort();
    await until('the real deletion leaves what the simulation left', () => isDeepStrictEqual(inFg(), survivors));
    expect(readOne(plane, 'namespace/fg').metadata.deletionTimestamp).toBeDefined();
    // The live graph follows: parent is gone, the namespace is stuck.
    await stuckWhen((i) => !i.some((x) => x.name === 'parent') && i.some((x) => x.uid === fg.metadata.uid));
  });

  it('namespaces chosen: their objects and every cluster-scoped one, as kubectl reads them', async () => {
    const status = await lsp.connection.sendRequest(ClusterConnectRequest, {
      kubeconfig: plane.kubeconfig,
      namespaces: ['shop', 'data'],
      allowExec: false,
    });
    expect(status).toMatchObject({ context: 'admin', namespaces: ['shop', 'data'], state: 'watching', problems: [] });
    const summary = await lsp.connection.sendRequest(ClusterGraphSummaryRequest);
    expect(byNamespace(summary.namespaces)).toEqual(expectedSummary(['shop', 'data']));
  });

  it("the restricted context: RBAC's real 403s are the problems and the incomplete-preview notes, the rest is answered", async () => {
    const status = await lsp.connection.sendRequest(ClusterConnectRequest, {
      kubeconfig: plane.kubeconfig,
      context: 'restricted',
      allowExec: false,
    });
    expect(status).toMatchObject({ context: 'restricted', state: 'degraded' });
    const forbidden = watchedTypes(plane).filter(
      (t) => plane.kubectlResult(['--context', 'restricted', 'auth', 'can-i', 'list', t, '-A']).stdout.trim() === 'no',
    );
    expect(forbidden).toContain('secrets');
    expect(status.problems.map((p) => [p.kind, p.resource]).sort()).toEqual(forbidden.map((t) => ['forbidden', t]).sort());
    const real = plane
      .kubectlResult(['--context', 'restricted', 'get', 'secrets', '-A'])
      .stderr.trim()
      .replace(/^Error from server \(Forbidden\): /, '');
    expect(status.problems.find((p) => p.resource === 'secrets')!.message).toBe(real);
    const report = (await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: uidOf('namespace/shop'), policy: 'Background' }))!;
    expect(report.notes).toContain(`this preview is incomplete: cannot list secrets (${real})`);
    expect(report.deleted.map((d) => d.name)).toEqual(expect.arrayContaining(['shop', 'web']));
  });

  it('disconnects: the null status, cluster requests say so, the live findings go', async () => {
    await lsp.connection.sendRequest(ClusterDisconnectRequest);
    await lsp.until(() => statuses.at(-1) === null, 'the null status');
    await expect(lsp.connection.sendRequest(ClusterStuckRequest, {})).rejects.toThrow(/not connected to a cluster/);
    await lsp.diagnosticsFor(fileUri(PART), (d) => !d.some((x) => String(x.code).startsWith('live-') || x.code === 'collected-on-apply'));
  });

  it("the apiserver's audit log: every request the language server sent was a GET (get, list or watch)", async () => {
    const ours = () =>
      readFileSync(AUDIT_LOG, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { verb: string; userAgent?: string; stage: string; user: { username: string } })
        .filter((e) => e.userAgent === 'kube-gc-lens (read-only)');
    await until("the audit log has both users' requests", () => new Set(ours().map((e) => e.user.username)).size === 2);
    expect(ours().filter((e) => !['get', 'list', 'watch'].includes(e.verb))).toEqual([]);
  });
});
