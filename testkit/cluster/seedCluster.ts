// Writes a world of manifests into a real cluster (the control plane of testkit/cluster/controlPlane.ts) the way
// `kubectl apply` would, for tests, the cluster bench and the live demo. The product itself never writes: this is
// test infrastructure, with its own small HTTPS client (client certificates from the kubeconfig).
//
// - Owners first: Namespaces (also those only named by a manifest's namespace), then CRDs (waited for until
// Established), then the rest in ownerReference order.
// - A manifest's metadata.uid is a placeholder: references to it are rewritten to the uid the server gives its
//   object. References to a uid no manifest has keep it (deliberately dangling or mismatched references).
// - References in a cycle are added by a PATCH once every object exists (the server needs no owner to exist, but
//   the GC would judge a reference whose owner appears later).
// - A manifest with metadata.deletionTimestamp is made terminating: created with its finalizers (or, having none,
//   with HOLD_FINALIZER so that it stays; a Namespace is held by its content) and then deleted.
// - Each namespace gets its `default` ServiceAccount; an exported Job loses the selector its old uid generated.
// Per-object failures are collected, never thrown: the caller decides whether a refused object matters.

import { readdirSync, readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export type Manifest = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The finalizer that keeps a manifest marked terminating from going away (nothing in the cluster removes it). */
export const HOLD_FINALIZER = 'kube-gc-lens.test/hold';

export interface ClusterWriter {
  request(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: Manifest }>;
}

/** An HTTPS client for the kubeconfig's context (default: its current context), with certificate data inline. */
export function clusterWriter(kubeconfigPath: string, contextName?: string): ClusterWriter {
  const config = parse(readFileSync(kubeconfigPath, 'utf8')) as Manifest;
  const ctxName = contextName ?? config['current-context'];
  const ctx = config.contexts.find((c: Manifest) => c.name === ctxName).context;
  const cluster = config.clusters.find((c: Manifest) => c.name === ctx.cluster).cluster;
  const user = config.users.find((u: Manifest) => u.name === ctx.user).user;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets: 32,
    ca: b64(cluster['certificate-authority-data']),
    cert: b64(user['client-certificate-data']),
    key: b64(user['client-key-data']),
  });
  const server = new URL(cluster.server);
  const once = (
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<{ status: number; body: Manifest }> => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent,
          method,
          host: server.hostname,
          port: server.port,
          path,
          headers: { Accept: 'application/json', ...(data ? { 'Content-Type': contentType, 'Content-Length': data.length } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: Manifest = {};
            try {
              parsed = text ? (JSON.parse(text) as Manifest) : {};
            } catch {
              parsed = { message: text };
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  };
  return {
    // A kept-alive connection the server closed ("socket hang up", ECONNRESET) is retried on a new one. A retried
    // POST that meets 409 had gone through: the object is read back as its answer.
    async request(method, path, body, contentType) {
      for (let attempt = 1; ; attempt++) {
        try {
          const r = await once(method, path, body, contentType);
          if (attempt > 1 && method === 'POST' && r.status === 409 && (body as Manifest)?.metadata?.name) {
            const got = await once('GET', `${path}/${encodeURIComponent((body as Manifest).metadata.name)}`);
            if (got.status === 200) return { status: 201, body: got.body };
          }
          return r;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (attempt >= 4 || !(code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/.test(String(err)))) throw err;
        }
      }
    },
  };
}

export interface Resource {
  plural: string;
  namespaced: boolean;
  /** It has a /status subresource. */ status?: boolean;
}

/** apiVersion/kind → its resource, from legacy discovery (every group version, not only the preferred). */
export async function discoverResources(writer: ClusterWriter): Promise<Map<string, Resource>> {
  const out = new Map<string, Resource>();
  const read = async (prefix: string, groupVersion: string) => {
    const r = await writer.request('GET', `${prefix}/${groupVersion}`);
    if (r.status !== 200) return;
    const list: Manifest[] = r.body.resources ?? [];
    const withStatus = new Set(
      list
        .map((res) => String(res.name))
        .filter((n) => n.endsWith('/status'))
        .map((n) => n.slice(0, -'/status'.length)),
    );
    for (const res of list) {
      if (!String(res.name).includes('/'))
        out.set(`${groupVersion}/${res.kind}`, { plural: res.name, namespaced: res.namespaced, status: withStatus.has(res.name) });
    }
  };
  await read('/api', 'v1');
  const groups = (await writer.request('GET', '/apis')).body.groups ?? [];
  await Promise.all(groups.flatMap((g: Manifest) => g.versions.map((v: Manifest) => read('/apis', v.groupVersion))));
  return out;
}

/** The path of an object's collection (no name) or of the object itself. */
export function resourcePath(resource: Resource, apiVersion: string, namespace: string | undefined, name?: string): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const ns = resource.namespaced ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
  return `${base}${ns}/${resource.plural}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
}

export interface SeedFailure {
  object: string;
  status: number;
  message: string;
  /** The object was created; what failed came after (a cycle's PATCH, the DELETE making it terminating). */
  created?: boolean;
}

export interface SeedResult {
  /** The uid a manifest was written with → the uid the server gave its object. */
  uids: Map<string, string>;
  /** `apiVersion kind namespace/name` → the object as the server returned it after creation. */
  created: Map<string, Manifest>;
  failures: SeedFailure[];
}

export const keyOf = (m: Manifest): string => `${m.apiVersion} ${m.kind} ${m.metadata?.namespace ?? ''}/${m.metadata?.name}`;
const SERVER_SET = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'generation',
  'selfLink',
];

/** Orders manifests owners first; each comes with the references to leave out at creation (cycles). */
function ownersFirst(manifests: Manifest[]): { manifest: Manifest; deferred: Set<string> }[] {
  const byUid = new Map<string, Manifest>();
  for (const m of manifests) if (m.metadata?.uid) byUid.set(m.metadata.uid, m);
  const rank = (m: Manifest) => (m.kind === 'Namespace' ? 0 : m.kind === 'CustomResourceDefinition' ? 1 : 2);
  const done = new Set<Manifest>();
  const visiting = new Set<Manifest>();
  const out: { manifest: Manifest; deferred: Set<string> }[] = [];
  const visit = (m: Manifest) => {
    if (done.has(m) || visiting.has(m)) return;
    visiting.add(m);
    const deferred = new Set<string>();
    for (const ref of m.metadata?.ownerReferences ?? []) {
      const owner = byUid.get(ref.uid);
      if (!owner) continue;
      if (visiting.has(owner)) deferred.add(ref.uid);
      else visit(owner);
    }
    visiting.delete(m);
    done.add(m);
    out.push({ manifest: m, deferred });
  };
  for (const m of [...manifests].sort((a, b) => rank(a) - rank(b))) visit(m);
  return out;
}

/** Runs `work` over items, at most `limit` at a time. */
export async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Creates `manifests` in the cluster (see the file's comment). `concurrency` requests at a time (default 16). */
export async function seedCluster(
  writer: ClusterWriter,
  manifests: Manifest[],
  options: {
    concurrency?: number;
    /** What discoverResources gave, when the caller seeds many worlds with no new CRDs among them. */
    resources?: Map<string, Resource>;
    /**
     * Write each manifest's `status` after creating it, through the /status subresource, as the kubelet or a
     * controller would have (a Pod's phase). Without it status is dropped, as `kubectl apply` drops it.
     */
    writeStatus?: boolean;
  } = {},
): Promise<SeedResult> {
  const concurrency = options.concurrency ?? 16;
  const result: SeedResult = { uids: new Map(), created: new Map(), failures: [] };
  const order = ownersFirst(manifests);
  const fail = (m: Manifest, status: number, message: string) =>
    result.failures.push({ object: keyOf(m), status, message, ...(result.created.has(keyOf(m)) ? { created: true } : {}) });
  let resources = options.resources ?? (await discoverResources(writer));

  // Levels: an object waits only for the owners before it, so objects of one level are created side by side.
  const level = new Map<Manifest, number>();
  const byUid = new Map<string, Manifest>(manifests.filter((m) => m.metadata?.uid).map((m) => [m.metadata.uid, m]));
  for (const { manifest, deferred } of order) {
    let l = manifest.kind === 'Namespace' ? 0 : manifest.kind === 'CustomResourceDefinition' ? 1 : 2;
    for (const ref of manifest.metadata?.ownerReferences ?? []) {
      const owner = byUid.get(ref.uid);
      if (owner && !deferred.has(ref.uid)) l = Math.max(l, (level.get(owner) ?? 2) + 1);
    }
    level.set(manifest, l);
  }
  const levels: { manifest: Manifest; deferred: Set<string> }[][] = [];
  for (const entry of order) (levels[level.get(entry.manifest)!] ??= []).push(entry);

  const rewriteRefs = (refs: Manifest[] | undefined, deferred: Set<string>) =>
    refs?.filter((r) => !deferred.has(r.uid)).map((r) => ({ ...r, uid: result.uids.get(r.uid) ?? r.uid }));

  await createMissingNamespaces(writer, manifests);
  let accountsMade = false;
  let rediscovered = options.resources !== undefined;
  for (const [index, entries] of levels.entries()) {
    if (!entries) continue;
    if (index >= 1 && !accountsMade) {
      await createDefaultServiceAccounts(writer, manifests);
      accountsMade = true;
    }
    if (index >= 2 && !rediscovered) {
      resources = await discoverResources(writer); // the CRDs' kinds, now served
      rediscovered = true;
    }
    await inParallel(entries, concurrency, async ({ manifest, deferred }) => {
      const resource = resources.get(`${manifest.apiVersion}/${manifest.kind}`);
      if (!resource) return void fail(manifest, 0, `the cluster does not serve ${manifest.apiVersion} ${manifest.kind}`);
      const metadata: Manifest = { ...manifest.metadata };
      for (const field of SERVER_SET) delete metadata[field];
      const terminating = manifest.metadata?.deletionTimestamp !== undefined;
      // A Namespace is held by its content (and spec.finalizers), as a real one is.
      if (terminating && manifest.kind !== 'Namespace' && !(metadata.finalizers?.length > 0)) metadata.finalizers = [HOLD_FINALIZER];
      const refs = rewriteRefs(manifest.metadata?.ownerReferences, deferred);
      if (refs) metadata.ownerReferences = refs;
      const body = forCreation({ ...manifest, metadata });
      const created = await writer.request('POST', resourcePath(resource, manifest.apiVersion, metadata.namespace), body);
      if (created.status !== 201 && created.status !== 200) return void fail(manifest, created.status, created.body.message ?? '');
      if (manifest.metadata?.uid) result.uids.set(manifest.metadata.uid, created.body.metadata.uid);
      result.created.set(keyOf(manifest), created.body);
      if (options.writeStatus && manifest.status && resource.status) {
        const path = `${resourcePath(resource, manifest.apiVersion, metadata.namespace, metadata.name)}/status`;
        const r = await writer.request('PATCH', path, { status: manifest.status }, 'application/merge-patch+json');
        if (r.status !== 200) fail(manifest, r.status, `writing its status: ${r.body.message ?? ''}`);
        else result.created.set(keyOf(manifest), r.body);
      }
    });
    if (index === 1)
      await waitEstablished(
        writer,
        entries.map((e) => e.manifest),
      );
  }

  // References left out because of a cycle: added now that every owner has its real uid.
  await inParallel(
    order.filter((e) => e.deferred.size > 0 && result.created.has(keyOf(e.manifest))),
    concurrency,
    async ({ manifest }) => {
      const resource = resources.get(`${manifest.apiVersion}/${manifest.kind}`)!;
      const patch = { metadata: { ownerReferences: rewriteRefs(manifest.metadata.ownerReferences, new Set()) } };
      const r = await writer.request(
        'PATCH',
        resourcePath(resource, manifest.apiVersion, manifest.metadata.namespace, manifest.metadata.name),
        patch,
        'application/merge-patch+json',
      );
      if (r.status !== 200) fail(manifest, r.status, `adding the references of a cycle: ${r.body.message ?? ''}`);
    },
  );

  // Terminating ones last, so that their owners and dependents all exist when the deletion starts; Namespaces after
  // the rest, as the namespace controller deletes what they hold.
  const toDelete = order.map((e) => e.manifest).filter((m) => m.metadata?.deletionTimestamp !== undefined && result.created.has(keyOf(m)));
  const deleteOne = async (m: Manifest) => {
    const resource = resources.get(`${m.apiVersion}/${m.kind}`)!;
    const r = await writer.request('DELETE', resourcePath(resource, m.apiVersion, m.metadata.namespace, m.metadata.name), {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
    });
    if (r.status !== 200 && r.status !== 202) fail(m, r.status, `making it terminating: ${r.body.message ?? ''}`);
  };
  await inParallel(
    toDelete.filter((m) => m.kind !== 'Namespace'),
    concurrency,
    deleteOne,
  );
  await inParallel(
    toDelete.filter((m) => m.kind === 'Namespace'),
    concurrency,
    deleteOne,
  );
  return result;
}

/** Waits (bounded by a count of tries) until each CRD among `manifests` is Established. */
async function waitEstablished(writer: ClusterWriter, manifests: Manifest[]): Promise<void> {
  for (const crd of manifests.filter((m) => m.kind === 'CustomResourceDefinition')) {
    for (let i = 0; i < 200; i++) {
      const r = await writer.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
      if ((r.body.status?.conditions ?? []).some((c: Manifest) => c.type === 'Established' && c.status === 'True')) break;
      await new Promise((done) => setTimeout(done, 50));
    }
  }
}

/** Namespaces the manifests use but do not define, created empty (as a test world expects them to exist). */
async function createMissingNamespaces(writer: ClusterWriter, manifests: Manifest[]): Promise<void> {
  const defined = new Set(manifests.filter((m) => m.kind === 'Namespace' && m.apiVersion === 'v1').map((m) => m.metadata?.name));
  const used = new Set(manifests.map((m) => m.metadata?.namespace).filter((n): n is string => typeof n === 'string' && !defined.has(n)));
  for (const name of used) {
    await writer.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }); // 409 if it exists: fine
  }
}

/**
 * Each namespace's `default` ServiceAccount, which the ServiceAccount admission plugin requires of a Pod: a cluster's
 * serviceaccount controller creates it, and the control plane runs only the controllers a test chooses.
 */
async function createDefaultServiceAccounts(writer: ClusterWriter, manifests: Manifest[]): Promise<void> {
  const namespaces = new Set(
    manifests.map((m) => (m.kind === 'Namespace' && m.apiVersion === 'v1' ? m.metadata?.name : m.metadata?.namespace)),
  );
  await inParallel(
    [...namespaces].filter((n): n is string => typeof n === 'string'),
    8,
    async (ns) => {
      await writer.request('POST', `/api/v1/namespaces/${encodeURIComponent(ns)}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default' },
      });
    },
  );
}

/**
 * What an exported manifest needs before it can be created again, as a user cleans `kubectl get -o yaml` before
 * `kubectl apply`: no status, and a Job without the selector and labels its old uid generated (the server refuses
 * them: "`selector` not auto-generated").
 */
function forCreation(manifest: Manifest): Manifest {
  const body: Manifest = { ...manifest };
  delete body.status;
  if (body.kind === 'Job' && String(body.apiVersion).startsWith('batch/') && body.spec?.manualSelector !== true) {
    const labels = { ...body.spec?.template?.metadata?.labels };
    for (const generated of ['controller-uid', 'batch.kubernetes.io/controller-uid']) delete labels[generated];
    const spec = { ...body.spec, template: { ...body.spec?.template, metadata: { ...body.spec?.template?.metadata, labels } } };
    delete spec.selector;
    body.spec = spec;
  }
  return body;
}

/** Every object of the .yaml/.yml/.json files under `dir` (kubectl's Lists expanded), in file order. */
export function manifestsIn(dir: string): Manifest[] {
  const out: Manifest[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }).sort((a, b) =>
    join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)),
  )) {
    if (!entry.isFile() || !/\.(ya?ml|json)$/.test(entry.name)) continue;
    for (const doc of parseAllDocuments(readFileSync(join(entry.parentPath, entry.name), 'utf8'))) {
      const value = doc.toJS() as Manifest | null;
      if (!value || typeof value !== 'object') continue;
      if (Array.isArray(value.items) && /List$/.test(String(value.kind))) out.push(...value.items);
      else out.push(value);
    }
  }
  return out;
}
