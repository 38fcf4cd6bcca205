// Large valid input (docs/reliability.md, "Large valid input"): many small, realistic objects as one multi-document
// YAML file or one JSON List, generated on the fly (never committed). 997 Namespaces hold apps: a Deployment, its
// ReplicaSet, Pods owned by it, a Service and ConfigMaps (200,000 documents: about 35 MB of YAML). One app in 500 has
// a Pod whose owner uid is stale and one in 700 a terminating ConfigMap held by a finalizer, so the CLI has findings
// and terminating objects to report, not only objects.

/** The documents of one app, in the order they are written; `i` numbers the app. */
function appObjects(i: number): object[] {
  const ns = `team-${i % 997}`;
  const app = `app-${i}`;
  const hash = (i * 2654435761).toString(16).slice(-8).padStart(8, '0');
  const uid = (what: string, n = 0) =>
    `${hash}-${what.padEnd(4, '0').slice(0, 4)}-4${String(n).padStart(3, '0')}-8000-${String(i).padStart(12, '0')}`;
  const labels = { app };
  const deployUid = uid('depl');
  const rsUid = uid('rset');
  const rsName = `${app}-${hash.slice(0, 6)}`;
  const owner = (kind: string, name: string, u: string) => ({
    apiVersion: 'apps/v1',
    kind,
    name,
    uid: u,
    controller: true,
    blockOwnerDeletion: true,
  });
  const pod = (n: number) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${rsName}-${n}`,
      namespace: ns,
      uid: uid('pod', n),
      labels,
      ownerReferences: [owner('ReplicaSet', rsName, n === 1 && i % 500 === 0 ? uid('gone') : rsUid)],
    },
    spec: { nodeName: `node-${i % 50}`, containers: [{ name: 'main', image: `registry.example/${app}:1.${i % 10}` }] },
  });
  const configMap = (n: number) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `${app}-config-${n}`,
      namespace: ns,
      ...(n === 0 && i % 700 === 0 ? { uid: uid('cm'), finalizers: ['example.com/hold'], deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    data: { key: `value-${n}` },
  });
  return [
    ...(i < 997 ? [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, uid: uid('ns') } }] : []),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: app, namespace: ns, uid: deployUid, labels },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: `registry.example/${app}:1.${i % 10}` }] } },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: rsName, namespace: ns, uid: rsUid, labels, ownerReferences: [owner('Deployment', app, deployUid)] },
      spec: { replicas: 2 },
    },
    pod(0),
    pod(1),
    pod(2),
    { apiVersion: 'v1', kind: 'Service', metadata: { name: app, namespace: ns, uid: uid('svc') }, spec: { selector: labels } },
    ...Array.from({ length: 20 }, (_, n) => configMap(n)),
  ];
}

/** The first `count` objects of the generated apps. */
function objects(count: number): object[] {
  const out: object[] = [];
  for (let i = 0; out.length < count; i++) for (const o of appObjects(i)) if (out.length < count) out.push(o);
  return out;
}

/** Plain block YAML as kubectl and helm write it (two-space indentation, `- ` sequences at the key's column). */
function toYaml(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object') {
        const lines: string[] = [];
        toYaml(item, indent + '  ', lines);
        lines[0] = `${indent}- ${lines[0].slice(indent.length + 2)}`;
        out.push(...lines);
      } else out.push(`${indent}- ${scalar(item)}`);
    }
    return;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x !== null && typeof x === 'object' && (Array.isArray(x) ? x.length : Object.keys(x).length)) {
      out.push(`${indent}${k}:`);
      toYaml(x, Array.isArray(x) ? indent : indent + '  ', out);
    } else out.push(`${indent}${k}: ${Array.isArray(x) ? '[]' : x !== null && typeof x === 'object' ? '{}' : scalar(x)}`);
  }
}

/** Strings that the core schema would read as something else (a number, a boolean, null) are quoted. */
const scalar = (x: unknown): string =>
  (typeof x === 'string' && !/^[\w][\w./:-]*$/.test(x)) ||
  (/^(?:[-+]?[\d.][\d.eE+-]*|true|false|null|~)$/i.test(String(x)) && typeof x === 'string')
    ? JSON.stringify(x)
    : String(x);

/** `count` documents of plain block YAML, separated by `---` lines. */
export function largeYaml(count: number): string {
  const parts: string[] = [];
  for (const o of objects(count)) {
    const lines: string[] = [];
    toYaml(o, '', lines);
    parts.push(lines.join('\n'));
  }
  return parts.join('\n---\n') + '\n';
}

/** The same objects as one `kind: List` in kubectl's layout (`kubectl get -o json`: 4-space indentation). */
export function largeJsonList(count: number): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects(count), metadata: { resourceVersion: '' } }, null, 4) + '\n';
}

/**
 * `count` Pods as documents, each owned by a ReplicaSet that is not given (Pods exported without their owners, three
 * per ReplicaSet): every document has a finding, and the garbage collector deletes them all when it settles.
 */
export function ownerlessPodsYaml(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const rs = Math.floor(i / 3);
    const o = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `web-${rs}-${i % 3}`,
        namespace: `team-${rs % 97}`,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-${rs}`, uid: `rs-${rs}`, controller: true }],
      },
    };
    const lines: string[] = [];
    toYaml(o, '', lines);
    parts.push(lines.join('\n'));
  }
  return parts.join('\n---\n') + '\n';
}
