// Hovers (server/src/lsp/hover.ts) on a WorkspaceModel built from YAML: ownerReferences (owner resolved the GC's
// way, state, field meanings, simulated fate per policy), finalizers (who removes them, does that controller
// survive), metadata.name/uid (dependents by kind), and hostile text from manifests.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hover, MarkupContent, Position } from 'vscode-languageserver-protocol';
import { hoverAt } from '../../server/src/lsp/hover';
import { pluralKind } from '../../shared/src/kinds';
import { codeLink, codeSpan, escapeMarkdown, markdownLink } from '../../server/src/lsp/markdown';
import { docsLink } from '../../server/src/lsp/diagnostics';
import type { WorkspaceModel } from '../../server/src/workspace/workspaceModel';
import { DELETING, HOLD, busybox, ctl, deploy, manifests, obj, pod, ref, rs } from '../helpers/manifests';
import { BUILTIN, exampleDocs, lineOf, positionOf, workspace, type TestOptions } from './modelHelpers';

const EXAMPLES_DIR = path.join(__dirname, '../../examples');
const DEPLOY_URI = 'file:///ws/shop/deploy.yaml';
const RS_URI = 'file:///ws/shop/replicasets.yaml';

// kubectl get deployment web -n shop -o yaml (trimmed)
const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  uid: 6f1c2a8e-3b0d-4c55-9a61-0d2b7f4e9c11
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: web
  template:
    metadata:
      labels:
        app.kubernetes.io/name: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;

// kubectl get rs,pods -n shop -o yaml (trimmed): the second Pod also names a Deployment that is gone.
const REPLICASETS = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d9f8b6c5
  namespace: shop
  uid: 0b7e4d2a-1c3f-4e8a-b5d6-9f0a1b2c3d4e
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
    uid: 6f1c2a8e-3b0d-4c55-9a61-0d2b7f4e9c11
    controller: true
    blockOwnerDeletion: true
spec:
  replicas: 2
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7d9f8b6c5-x7k2p
  namespace: shop
  uid: 1a2b3c4d-0000-4000-8000-000000000001
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-7d9f8b6c5
    uid: 0b7e4d2a-1c3f-4e8a-b5d6-9f0a1b2c3d4e
    controller: true
    blockOwnerDeletion: false
spec:
  nodeName: node-1
  containers:
  - name: web
    image: nginx:1.27
status:
  phase: Running
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7d9f8b6c5-q9m4z
  namespace: shop
  uid: 1a2b3c4d-0000-4000-8000-000000000002
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-7d9f8b6c5
    uid: 0b7e4d2a-1c3f-4e8a-b5d6-9f0a1b2c3d4e
    controller: true
    blockOwnerDeletion: true
  - apiVersion: apps/v1
    kind: Deployment
    name: web-old
    uid: 99999999-0000-4000-8000-000000000009
spec:
  nodeName: node-1
  containers:
  - name: web
    image: nginx:1.27
status:
  phase: Running
`;

function shop(options: TestOptions = BUILTIN): WorkspaceModel {
  return workspace({ [DEPLOY_URI]: DEPLOY, [RS_URI]: REPLICASETS }, options);
}

function hover(model: WorkspaceModel, uri: string, position: Position, options: TestOptions = BUILTIN): Hover | null {
  return hoverAt(model, uri, position, options);
}

/** The Markdown of a hover that must exist. */
function text(h: Hover | null): string {
  expect(h).not.toBeNull();
  const contents = h!.contents as MarkupContent;
  expect(contents.kind).toBe('markdown');
  return contents.value;
}

describe('Markdown escaping of manifest text', () => {
  it('turns HTML into inert text', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&lt;img src\\=x onerror\\=alert\\(1\\)&gt;');
    expect(escapeMarkdown('a & b')).toBe('a &amp; b');
  });

  it('turns link and emphasis syntax into literal characters', () => {
    expect(escapeMarkdown('*[x](command:foo)*')).toBe('\\*\\[x\\]\\(command\\:foo\\)\\*');
    expect(escapeMarkdown('# _a_ `b` ~c~ |d| !e')).toBe('\\# \\_a\\_ \\`b\\` \\~c\\~ \\|d\\| \\!e');
  });

  it('keeps one line, drops bidirectional overrides, and cuts very long text', () => {
    expect(escapeMarkdown('a\nb\r\nc\u202Ed')).toBe('a b  c d');
    const long = escapeMarkdown('x'.repeat(5000));
    expect(long.length).toBe(300);
    expect(long.endsWith('…')).toBe(true);
  });

  it('fences code spans longer than any backtick run in the text', () => {
    expect(codeSpan('example.com/hold')).toBe('`example.com/hold`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x``')).toBe('``` `x`` ```');
  });

  it('links only to documents, with the target percent-encoded', () => {
    expect(markdownLink('my app.yaml:3', 'file:///ws/my%20app (1).yaml#L3')).toBe(
      '[my app\\.yaml\\:3](file:///ws/my%20app%20%281%29.yaml#L3)',
    );
    expect(markdownLink('x', 'command:workbench.action.terminal.new')).toBe('x');
    expect(markdownLink('x', 'javascript:alert(1)')).toBe('x');
  });

  it('pluralises kinds', () => {
    expect([
      pluralKind('Pod', 2),
      pluralKind('Ingress', 2),
      pluralKind('NetworkPolicy', 3),
      pluralKind('Endpoints', 2),
      pluralKind('Pod', 1),
    ]).toEqual(['Pods', 'Ingresses', 'NetworkPolicies', 'Endpoints', 'Pod']);
  });
});

describe('hover on an ownerReferences entry', () => {
  it('resolves an owner written in another file, with a link to where it is defined', () => {
    const model = shop();
    const at = positionOf(REPLICASETS, 'name: web\n', { offset: 6 });
    const h = hover(model, RS_URI, at);
    const md = text(h);
    expect(md).toContain('**Owner:** Deployment shop\\/web');
    expect(md).toContain('- **uid:** `6f1c2a8e-3b0d-4c55-9a61-0d2b7f4e9c11`\n');
    expect(md).toContain(`- **Defined in:** [deploy\\.yaml\\:${lineOf(DEPLOY, 'name: web') + 1}](${DEPLOY_URI}#L4)`);
    expect(md).toContain('- **State:** present\n');
    // The hover covers the field under the cursor.
    expect(h!.range).toEqual({ start: at, end: { line: at.line, character: at.character + 3 } });
  });

  it('explains controller and blockOwnerDeletion with their actual values', () => {
    const md = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'controller: true')));
    expect(md).toContain('**controller: true**: Deployment shop\\/web is the managing controller of this ReplicaSet:');
    expect(md).toContain(
      '**blockOwnerDeletion: true**: a Foreground deletion of Deployment shop\\/web waits for this ReplicaSet: the owner stays Terminating with foregroundDeletion until this ReplicaSet is gone.',
    );

    const pod = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'blockOwnerDeletion: false', { offset: 20 })));
    expect(pod).toContain(
      '**blockOwnerDeletion: false**: a Foreground deletion of ReplicaSet shop\\/web\\-7d9f8b6c5 does not wait for this Pod',
    );
    const unset = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'name: web-old')));
    expect(unset).toContain('**controller: not set (false)**: Deployment shop\\/web\\-old owns this Pod for garbage collection only');
    expect(unset).toContain('**blockOwnerDeletion: not set (false)**');
  });

  it('answers anywhere in the entry, with the same content', () => {
    const model = shop();
    const onName = text(hover(model, RS_URI, positionOf(REPLICASETS, 'name: web\n', { offset: 7 })));
    // On a key (not a value range), and on the first character of the entry.
    const onKey = hover(model, RS_URI, positionOf(REPLICASETS, 'kind: Deployment', { offset: 1 }));
    expect(text(onKey)).toBe(onName);
    expect(onKey!.range).toEqual({
      start: positionOf(REPLICASETS, 'apiVersion: apps/v1\n    kind: Deployment'),
      end: { line: lineOf(REPLICASETS, 'spec:'), character: 0 },
    });
  });

  it('simulates what each deletion policy of the owner does to this object', () => {
    const md = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'uid: 6f1c', { offset: 6 })));
    expect(md).toContain(
      '**If Deployment shop\\/web is deleted** (simulated, controllers: builtin):\n' +
        '- **Background:** this ReplicaSet is deleted, after the owner is removed\n' +
        '- **Foreground:** this ReplicaSet is deleted, before the owner is removed\n' +
        '- **Orphan:** this ReplicaSet stays: the GC removes this ownerReference and it has no owner left\n',
    );
  });

  it('says a blocking dependent goes before its owner in a Foreground deletion, and what Orphan leaves', () => {
    const md = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'name: web-7d9f8b6c5\n', { nth: 2, offset: 8 })));
    expect(md).toContain('**If ReplicaSet shop\\/web\\-7d9f8b6c5 is deleted**');
    expect(md).toContain('- **Foreground:** this Pod is deleted, before the owner is removed\n');
    // It has another (absent) owner: Orphan leaves it with that reference, which the GC removes anyway.
    expect(md).toContain('- **Orphan:** this Pod stays: the GC removes this ownerReference; its other owners keep it\n');
  });

  it('says what blocks this object when it cannot go, and whether a Foreground owner waits for it (R47, R50)', () => {
    const r = rs('web-7d9f8b6c5', 'shop', { uid: 'b2d8e1f0-5a4c-4b3e-9d2f-7c6b5a4e3d21' });
    const blocking = pod('web-7d9f8b6c5-hold', 'shop', { ...busybox('node-1'), finalizers: [HOLD], owners: [ctl(r)] });
    const yaml = manifests(r, blocking);
    const model = workspace({ 'file:///ws/held.yaml': yaml });
    const md = text(hover(model, 'file:///ws/held.yaml', positionOf(yaml, 'uid: b2d8e1f0', { nth: 1, offset: 6 })));
    expect(md).toContain(
      '- **Background:** this Pod stays Terminating: nobody removes example\\.com\\/hold\\: no workload in the input matches',
    );
    expect(md).toMatch(
      /- \*\*Foreground:\*\* this Pod stays Terminating: nobody removes example\\\.com\\\/hold[^\n]*; the owner stays Terminating \(foregroundDeletion\)\n/,
    );

    // The same Pod with blockOwnerDeletion: false: the owner does not wait and goes.
    const nonBlocking = pod('web-7d9f8b6c5-hold', 'shop', {
      ...busybox('node-1'),
      finalizers: [HOLD],
      owners: [ref(r, { controller: true, blockOwnerDeletion: false })],
    });
    const yaml2 = manifests(r, nonBlocking);
    const md2 = text(
      hover(
        workspace({ 'file:///ws/held.yaml': yaml2 }),
        'file:///ws/held.yaml',
        positionOf(yaml2, 'uid: b2d8e1f0', { nth: 1, offset: 6 }),
      ),
    );
    expect(md2).toMatch(/- \*\*Foreground:\*\* this Pod stays Terminating: nobody removes example\\\.com\\\/hold[^\n;]*\n/);
    expect(md2).not.toContain('the owner stays Terminating');
  });

  it('shows an owner that is being deleted with its finalizers', () => {
    const d = deploy('api', 'shop', { uid: 'c0ffee00-1111-4222-8333-444455556666', ...DELETING, finalizers: ['foregroundDeletion'] });
    const r = rs('api-6b5d9c7f8', 'shop', { owners: [ctl(d)] });
    const yaml = manifests(d, r);
    const model = workspace({ 'file:///ws/api.yaml': yaml });
    const md = text(hover(model, 'file:///ws/api.yaml', positionOf(yaml, 'name: api\n', { nth: 1, offset: 7 })));
    expect(md).toContain(
      '- **State:** being deleted since 2024\\-05\\-01T10\\:00\\:00Z, waiting for finalizers `foregroundDeletion`, deleting its blocking dependents first (foreground)\n',
    );
  });

  it('says a virtual owner is not found anywhere, and what the GC does instead', () => {
    const md = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'name: web-old', { offset: 7 })));
    expect(md).toContain('**Owner:** Deployment shop\\/web\\-old');
    expect(md).toContain('- **Defined in:** not found anywhere in the workspace\n');
    expect(md).toContain('- **State:** virtual (referenced but absent)');
    // Hovered on the name, away from the diagnostic (on the uid): the message is told here, the code linked to its docs.
    expect(md).toContain(
      `**What the GC does instead:**\n- ${codeLink('dangling-owner', docsLink('dangling-owner'))}: The owner Deployment web\\-old \\(uid 99999999\\-0000\\-4000\\-8000\\-000000000009\\) is not in the input in namespace shop\\. The GC removes this reference \\(another owner is present\\) but keeps the object\\.`,
    );
    expect(md).not.toContain('is deleted**');
  });

  it('points at the namesake with another uid in a manifest exported from another cluster', () => {
    const docs = exampleDocs('deployment-export-from-another-cluster');
    const uri = 'file:///examples/deployment-export-from-another-cluster/checkout-export.yaml';
    const yaml = docs[uri];
    const model = workspace(docs);
    const md = text(hover(model, uri, positionOf(yaml, 'uid: a476c896-f15e-4804-80d1-e7649d8b63f5', { offset: 6 })));
    expect(md).toContain('- **Defined in:** not found in namespace storefront, where the GC looks (see below)\n');
    expect(md).toContain(
      `Deployment storefront\\/checkout exists with another uid, \`64b1c1b1-59ad-4af3-a756-871bd6965119\` ([checkout\\-export\\.yaml\\:${lineOf(yaml, 'name: checkout\n') + 1}](${uri}#L${lineOf(yaml, 'name: checkout\n') + 1}))`,
    );
    // Hovered on the uid, where the editor shows the diagnostic itself: only the code, linked, and its title.
    expect(md).toContain(`- ${codeLink('owner-uid-mismatch', docsLink('owner-uid-mismatch'))}: The owner exists with another uid\n`);
    expect(md).not.toContain('exists with another uid;');

    // Its Pods' owner is present, but is garbage itself: no deletion policy applies to it.
    const podRef = text(hover(model, uri, positionOf(yaml, 'uid: 3b997c9c-0286-412c-a6fd-4b3db66f93e5', { nth: 1, offset: 6 })));
    expect(podRef).toContain('**ReplicaSet storefront\\/checkout\\-7d9f8b6c5d goes without any DELETE:** the GC collects it on its own');
    expect(podRef).toContain('Then this Pod is deleted, after the owner is removed.');
  });

  it('marks synthetic uids of hand-written manifests, and the finding on a reference without uid', () => {
    const yaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
data:
  nginx.conf: ""
`;
    const model = workspace({ 'file:///ws/handwritten.yaml': yaml });
    const md = text(hover(model, 'file:///ws/handwritten.yaml', positionOf(yaml, 'name: web\n', { nth: 1, offset: 7 })));
    expect(md).toContain(
      '- **uid:** `synthetic:apps/Deployment/shop/web` (synthetic: this reference has no uid in the manifest, which the apiserver rejects;',
    );
    expect(md).toContain(
      `**Findings on this reference:**\n- ${codeLink('invalid-owner-reference', docsLink('invalid-owner-reference'))}: An ownerReference the apiserver rejects\n`,
    );
    // The diagnostic (on the whole entry, which has no uid field) already says it: not again.
    expect(md).not.toContain('it has no uid');
  });

  it('looks a cluster-scoped owner up cluster-wide (a mirror Pod owned by its Node)', () => {
    const node = obj('v1', 'Node', undefined, 'node-1', { uid: 'f3e2d1c0-0000-4000-8000-000000000001' });
    const mirror = pod('kube-apiserver-node-1', 'kube-system', { ...busybox('node-1'), owners: [ref(node, { controller: true })] });
    const nodes = manifests(node);
    const pods = manifests(mirror);
    const model = workspace({ 'file:///ws/nodes.yaml': nodes, 'file:///ws/kube-system.yaml': pods });
    const md = text(hover(model, 'file:///ws/kube-system.yaml', positionOf(pods, 'name: node-1', { offset: 6 })));
    expect(md).toContain('**Owner:** Node node\\-1\n');
    expect(md).toContain(
      `- **Defined in:** [nodes\\.yaml\\:${lineOf(nodes, 'name: node-1') + 1}](file:///ws/nodes.yaml#L${lineOf(nodes, 'name: node-1') + 1})`,
    );
    expect(md).toContain('- **Background:** this Pod is deleted, after the owner is removed\n');
  });

  it('says when the owner kind cannot be looked up from a cluster-scoped dependent', () => {
    const d = deploy('operator', 'ops', { uid: 'a1a1a1a1-0000-4000-8000-000000000001' });
    const role = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'operator-role', { owners: [ref(d)] });
    const yaml = manifests(d, role);
    const model = workspace({ 'file:///ws/rbac.yaml': yaml });
    const md = text(hover(model, 'file:///ws/rbac.yaml', positionOf(yaml, 'kind: Deployment', { nth: 1 })));
    expect(md).toContain('**Owner:** Deployment operator');
    expect(md).toContain('- **State:** cannot be looked up: Deployment is namespaced and an ownerReference has no namespace');
    expect(md).toContain('`cluster-scoped-dependent-of-namespaced-owner`');
  });

  it('follows edits: the simulated fate is recomputed for the new inventory', () => {
    const model = shop();
    const at = positionOf(REPLICASETS, 'name: web-7d9f8b6c5\n', { nth: 1, offset: 8 });
    expect(text(hover(model, RS_URI, at))).toContain('- **Background:** this Pod is deleted, after the owner is removed\n');
    const held = REPLICASETS.replace('  name: web-7d9f8b6c5-x7k2p\n', `  name: web-7d9f8b6c5-x7k2p\n  finalizers:\n  - ${HOLD}\n`);
    model.update(RS_URI, model.parse(RS_URI, held));
    const after = text(hover(model, RS_URI, positionOf(held, 'name: web-7d9f8b6c5\n', { nth: 1, offset: 8 })));
    expect(after).toContain('- **Background:** this Pod stays Terminating: nobody removes example\\.com\\/hold');
    // The owner's file goes: the reference becomes dangling.
    model.update(DEPLOY_URI, undefined);
    expect(text(hover(model, RS_URI, positionOf(held, 'name: web\n', { offset: 7 })))).toContain(
      '- **Defined in:** not found anywhere in the workspace\n',
    );
  });

  it('escapes hostile names everywhere they appear', () => {
    const d = deploy('*[x](command:foo)*', 'shop', { uid: 'd00d0000-0000-4000-8000-000000000001' });
    const cm = obj('v1', 'ConfigMap', 'shop', '<img src=x onerror=alert(1)>', {
      uid: 'c0c0c0c0-0000-4000-8000-000000000001',
      owners: [ref(d)],
    });
    const yaml = manifests(d, cm);
    const uri = 'file:///ws/hostile.yaml';
    const model = workspace({ [uri]: yaml });
    const onRef = text(hover(model, uri, positionOf(yaml, 'uid: d00d0000', { nth: 1, offset: 6 })));
    expect(onRef).toContain('**Owner:** Deployment shop\\/\\*\\[x\\]\\(command\\:foo\\)\\*');
    const onName = text(hover(model, uri, positionOf(yaml, 'name: "*', { offset: 8 })));
    expect(onName).toContain('- ConfigMap shop\\/&lt;img src\\=x onerror\\=alert\\(1\\)&gt; (');
    for (const md of [onRef, onName]) {
      expect(md).not.toContain('<img');
      expect(md).not.toContain('](command:');
      expect(md).not.toMatch(/(^|[^\\])\[x\]/);
    }
  });
});

describe('hover on a finalizer', () => {
  it('names the built-in controller and the Pods that still use a claim', () => {
    const docs = exampleDocs('statefulset-with-volumes');
    const uri = 'file:///examples/statefulset-with-volumes/postgres-volumes.yaml';
    const model = workspace(docs);
    const h = hover(model, uri, positionOf(docs[uri], '- kubernetes.io/pvc-protection', { offset: 4 }));
    const md = text(h);
    expect(md).toContain('**Finalizer** `kubernetes.io/pvc-protection` on PersistentVolumeClaim db\\/data\\-postgres\\-0');
    expect(md).toContain(
      '**Removed by:** `pvc-protection-controller`, a Kubernetes control-plane controller (built-in knowledge): it removes it once no Pod uses the claim.',
    );
    expect(md).toContain('**Controller:** part of the control plane: it keeps running whatever is deleted.');
    const pods = docs['file:///examples/statefulset-with-volumes/postgres-statefulset-and-pods.yaml'];
    const podLine = lineOf(pods, '    name: postgres-0\n') + 1;
    expect(md).toContain(
      `Pods using this claim now: Pod db\\/postgres\\-0 ([postgres\\-statefulset\\-and\\-pods\\.yaml\\:${podLine}](file:///examples/statefulset-with-volumes/postgres-statefulset-and-pods.yaml#L${podLine})).`,
    );
    expect(md).toContain(
      'PersistentVolumeClaim db\\/data\\-postgres\\-0 is not being deleted: a finalizer only holds an object once it is deleted.',
    );
  });

  it('says the built-in controller does not run in strict mode', () => {
    const docs = exampleDocs('statefulset-with-volumes');
    const uri = 'file:///examples/statefulset-with-volumes/postgres-volumes.yaml';
    const strict: TestOptions = { controllers: 'gc', finalizerOwners: [] };
    const md = text(hover(workspace(docs, strict), uri, positionOf(docs[uri], '- kubernetes.io/pvc-protection', { offset: 4 }), strict));
    expect(md).toContain(
      'With `kubeGcLens.simulation.controllers` set to `gc` only the apiserver and the garbage collector act, so the simulation never removes it.',
    );
  });

  it('gives the documented guess for an operator finalizer, and warns that the operator dies with the namespace', () => {
    const docs = exampleDocs('operator-finalizers-kafka');
    const uri = 'file:///examples/operator-finalizers-kafka/kafka-clusters-export.yaml';
    const model = workspace(docs);
    const md = text(hover(model, uri, positionOf(docs[uri], '- kafka.strimzi.io/finalizer', { offset: 4 })));
    const opUri = 'file:///examples/operator-finalizers-kafka/strimzi-cluster-operator.yaml';
    const opLine = lineOf(docs[opUri], '\n  name: strimzi-cluster-operator\n') + 2;
    expect(md).toContain(
      `**Removed by:** the controller running in Deployment kafka\\/strimzi\\-cluster\\-operator ([strimzi\\-cluster\\-operator\\.yaml\\:${opLine}](${opUri}#L${opLine})): a guess (the documented default), guessed from the words \\"strimzi\\"\\, \\"kafka\\" shared by`,
    );
    expect(md).toContain('Set `kubeGcLens.finalizerOwners` if another workload owns it.');
    expect(md).toContain(
      '**Controller:** running (present and not being deleted). It runs in the same namespace: deleting Namespace kafka deletes it too',
    );
  });

  it('uses the configured owner, and sees that it is being deleted', () => {
    const docs = exampleDocs('operator-finalizers-kafka');
    const uri = 'file:///examples/operator-finalizers-kafka/kafka-clusters-export.yaml';
    const opUri = 'file:///examples/operator-finalizers-kafka/strimzi-cluster-operator.yaml';
    docs[opUri] = docs[opUri].replace(
      /\n {2}name: strimzi-cluster-operator\n/,
      '\n  name: strimzi-cluster-operator\n  deletionTimestamp: "2026-11-02T08:00:00Z"\n  finalizers:\n  - example.com/drain\n',
    );
    expect(docs[opUri]).toContain('deletionTimestamp');
    const options: TestOptions = {
      controllers: 'builtin',
      finalizerOwners: [
        { finalizer: 'kafka.strimzi.io/*', workload: { kind: 'Deployment', namespace: 'kafka', name: 'strimzi-cluster-operator' } },
      ],
    };
    const md = text(hover(workspace(docs, options), uri, positionOf(docs[uri], '- kafka.strimzi.io/finalizer', { offset: 4 }), options));
    expect(md).toContain('): configured in `kubeGcLens.finalizerOwners` (configured for kafka\\.strimzi\\.io\\/\\*).');
    expect(md).toContain('**Controller:** being deleted: once it is gone nobody removes this finalizer.');
  });

  it('says nobody is known to remove a finalizer no workload matches, on an object already terminating', () => {
    const docs = exampleDocs('namespace-stuck-terminating');
    const uri = 'file:///examples/namespace-stuck-terminating/orders-rabbitmqcluster.yaml';
    const model = workspace(docs);
    model.refreshPredictions(); // as the server does once the editor is idle
    const md = text(hover(model, uri, positionOf(docs[uri], '- deletion.finalizers.rabbitmqclusters.rabbitmq.com', { offset: 4 })));
    expect(md).toContain(
      '**Removed by:** nobody known (the documented default guess found no controller: no workload in the input matches',
    );
    expect(md).toContain(
      'RabbitmqCluster legacy\\-mq\\/orders is being deleted (since 2026\\-11\\-14T09\\:12\\:46Z): it goes once every finalizer is removed (`deletion.finalizers.rabbitmqclusters.rabbitmq.com`).',
    );
    expect(md).toContain(`**Findings on this finalizer:**\n- ${codeLink('stuck-terminating', docsLink('stuck-terminating'))}:`);
    // The answer before who removes it.
    expect(md.indexOf('**Findings on this finalizer:**')).toBeLessThan(md.indexOf('**Removed by:**'));
  });

  it("explains the garbage collector's own finalizers", () => {
    const d = deploy('api', 'shop', { ...DELETING, finalizers: ['foregroundDeletion'] });
    const r = rs('api-6b5d9c7f8', 'shop', { owners: [ctl(d)], finalizers: ['orphan'] });
    const yaml = manifests(d, r);
    const model = workspace({ 'file:///ws/gc.yaml': yaml });
    const fg = text(hover(model, 'file:///ws/gc.yaml', positionOf(yaml, '- foregroundDeletion', { offset: 4 })));
    expect(fg).toContain(
      '**Removed by:** the garbage collector (kube-controller-manager), which always runs. `foregroundDeletion` is its own finalizer, added by a Foreground deletion.',
    );
    expect(fg).toContain('the GC removes the finalizer once no dependent with blockOwnerDeletion: true is left (1 now).');
    expect(fg).not.toContain('This object is not being deleted');
    const orphan = text(hover(model, 'file:///ws/gc.yaml', positionOf(yaml, '- orphan', { offset: 4 })));
    expect(orphan).toContain('`orphan` is its own finalizer');
    expect(orphan).toContain(
      'This object is not being deleted: the finalizer makes a later DELETE that names no policy orphan its dependents.',
    );
  });

  it('fences a finalizer with backticks in it', () => {
    const cm = obj('v1', 'ConfigMap', 'shop', 'settings', { finalizers: ['a`b'] });
    const yaml = manifests(cm);
    const md = text(hover(workspace({ 'file:///ws/cm.yaml': yaml }), 'file:///ws/cm.yaml', positionOf(yaml, 'a`b')));
    expect(md).toContain('**Finalizer** ``a`b`` on ConfigMap shop\\/settings');
  });
});

describe('hover on metadata.name and metadata.uid', () => {
  it('counts the dependents by kind and lists them', () => {
    const md = text(hover(shop(), DEPLOY_URI, positionOf(DEPLOY, 'name: web', { offset: 6 })));
    expect(md).toBe(
      `**1 dependent:** 1 ReplicaSet\n\n- ReplicaSet shop\\/web\\-7d9f8b6c5 ([replicasets\\.yaml\\:4](${RS_URI}#L4)): controller, blockOwnerDeletion`,
    );
    const onUid = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'uid: 0b7e4d2a', { offset: 8 })));
    expect(onUid).toMatch(
      /^\*\*2 dependents:\*\* 2 Pods\n\n- Pod shop\\\/web\\-7d9f8b6c5\\-x7k2p \(\[replicasets\\\.yaml\\:20\]\([^)]*#L20\)\): controller\n- Pod shop\\\/web\\-7d9f8b6c5\\-q9m4z /,
    );
  });

  it('counts several kinds, and says how many are not listed', () => {
    const owner = obj('rabbitmq.com/v1beta1', 'RabbitmqCluster', 'mq', 'orders', { uid: 'e5f6a7b8-0000-4000-8000-000000000001' });
    const children = [
      obj('apps/v1', 'StatefulSet', 'mq', 'orders-server', { owners: [ctl(owner)] }),
      obj('v1', 'Service', 'mq', 'orders', { owners: [ctl(owner)] }),
      obj('v1', 'Service', 'mq', 'orders-nodes', { owners: [ctl(owner)] }),
      obj('v1', 'ConfigMap', 'mq', 'orders-plugins-conf', { owners: [ctl(owner)] }),
      ...Array.from({ length: 9 }, (_, i) => obj('v1', 'Secret', 'mq', `orders-secret-${i}`, { owners: [ctl(owner)] })),
    ];
    const yaml = manifests(owner, ...children);
    const md = text(
      hover(workspace({ 'file:///ws/mq.yaml': yaml }), 'file:///ws/mq.yaml', positionOf(yaml, 'name: orders', { offset: 6 })),
    );
    expect(md).toContain('**13 dependents:** 1 ConfigMap, 9 Secrets, 2 Services, 1 StatefulSet\n');
    expect(md.split('\n').filter((l) => l.startsWith('- ')).length).toBe(11);
    expect(md).toContain('\n- … and 3 more');
  });

  it('has nothing to say about objects without dependents, or away from the fields it knows', () => {
    const model = shop();
    expect(hover(model, RS_URI, positionOf(REPLICASETS, 'name: web-7d9f8b6c5-x7k2p', { offset: 7 }))).toBeNull();
    expect(hover(model, RS_URI, positionOf(REPLICASETS, 'replicas: 2'))).toBeNull();
    expect(hover(model, RS_URI, positionOf(REPLICASETS, 'image: nginx'))).toBeNull();
    expect(hover(model, 'file:///ws/unknown.yaml', { line: 0, character: 0 })).toBeNull();
  });
});

describe('hover: the answer first, nothing twice', () => {
  it('puts the outcome under each policy before the facts and the explanations of controller and blockOwnerDeletion', () => {
    const md = text(hover(shop(), RS_URI, positionOf(REPLICASETS, 'uid: 6f1c', { offset: 6 })));
    const order = ['**Owner:**', '**If Deployment shop\\/web is deleted**', '- **Background:**', '- **uid:**', '**controller: true**'].map(
      (s) => md.indexOf(s),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("never repeats a diagnostic's message where the editor shows that diagnostic (every finding of the examples)", () => {
    let checked = 0;
    for (const folder of readdirSync(EXAMPLES_DIR).filter((f) => statSync(path.join(EXAMPLES_DIR, f)).isDirectory())) {
      const model = workspace(exampleDocs(folder));
      model.refreshPredictions();
      for (const f of model.allFindings()) {
        if (!f.file || !f.range || f.location.kind === 'object') continue;
        const h = hover(model, f.file, f.range.start);
        if (!h) continue;
        const md = text(h);
        checked++;
        expect(md, `${folder}: ${f.code}`).not.toContain(escapeMarkdown(f.message, 2000));
        expect(md, `${folder}: ${f.code}`).toContain(codeLink(f.code, docsLink(f.code)));
        expect(md, `${folder}: ${f.code}`).not.toMatch(/\bR\d+\b/);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});

describe('hover on a reference whose uid an object of the workspace holds under other coordinates', () => {
  // OpenShift 4.8's ingress canary writes `kind: daemonset` (a must-gather's openshift-ingress-canary namespace).
  const CANARY = path.join(__dirname, '../fixtures/loader/must-gather/namespaces/openshift-ingress-canary');
  const SERVICES_URI = 'file:///must-gather/openshift-ingress-canary/core/services.yaml';
  const DAEMONSETS_URI = 'file:///must-gather/openshift-ingress-canary/apps/daemonsets.yaml';
  const services = readFileSync(path.join(CANARY, 'core/services.yaml'), 'utf8');
  const daemonsets = readFileSync(path.join(CANARY, 'apps/daemonsets.yaml'), 'utf8');

  it('names the DaemonSet that holds the uid, links to it, and says how the reference differs', () => {
    const model = workspace({ [SERVICES_URI]: services, [DAEMONSETS_URI]: daemonsets });
    const md = text(hover(model, SERVICES_URI, positionOf(services, 'name: ingress-canary\n', { nth: 1, offset: 8 })));
    const line = lineOf(daemonsets, '    name: ingress-canary') + 1;
    const link = `[daemonsets\\.yaml\\:${line}](${DAEMONSETS_URI}#L${line})`;
    expect(md).not.toContain('not found anywhere in the workspace');
    expect(md).toContain(
      `- **Defined in:** not where the GC looks; its uid is DaemonSet openshift\\-ingress\\-canary\\/ingress\\-canary's (${link}) (see below)\n`,
    );
    expect(md).toContain(
      `- **State:** unresolvable: nothing in the workspace or in Kubernetes serves \`apps/v1\` \`daemonset\`; uid \`c4d58cda-5c8a-4bcf-a679-c28e66f4f551\` belongs to DaemonSet openshift\\-ingress\\-canary\\/ingress\\-canary (${link}), which this reference names differently: kind daemonset\\, not DaemonSet \\(kinds are case\\-sensitive\\)\n`,
    );
    // Away from the diagnostic (on the name, the diagnostic is on the kind): the message, which asks.
    expect(md).toContain('Did you mean DaemonSet\\?');
    // On the kind, where the editor shows the diagnostic: its title only.
    const onKind = text(hover(model, SERVICES_URI, positionOf(services, 'kind: daemonset', { offset: 6 })));
    expect(onKind).toContain(
      `- ${codeLink('unresolvable-owner-kind', docsLink('unresolvable-owner-kind'))}: ${escapeMarkdown("Nothing serves the owner's apiVersion and kind")}\n`,
    );
    expect(onKind).not.toContain('Did you mean');
    // Never collected: not "collected afterwards".
    expect(onKind).toContain(
      '**blockOwnerDeletion: not set (false)**: a Foreground deletion of daemonset ingress\\-canary \\(apps\\/v1\\) does not wait for this Service: the owner can disappear first, and this Service is never collected: the GC cannot look this reference up.',
    );
  });
});

describe('hover on the finalizer of a stuck object', () => {
  it('lists its ways out, safest first, each with its simulated outcome', () => {
    const docs = exampleDocs('namespace-stuck-terminating');
    const uri = 'file:///examples/namespace-stuck-terminating/orders-rabbitmqcluster.yaml';
    const md = text(
      hover(workspace(docs), uri, positionOf(docs[uri], '- deletion.finalizers.rabbitmqclusters.rabbitmq.com', { offset: 4 })),
    );
    expect(md).toContain('**Ways out** (safest first, each simulated; the Stuck Objects view has their commands):');
    const ways = md.slice(md.indexOf('**Ways out**')).split('\n').slice(1, 3);
    expect(ways[0]).toMatch(/^- \*\*safe\*\*: Reinstall the operator that removes deletion\\\.finalizers/);
    expect(ways[0]).toContain(escapeMarkdown('2 objects deleted (1 RabbitmqCluster, 1 Namespace)'));
    expect(ways[1]).toMatch(/^- \*\*dangerous\*\*: Remove the finalizer deletion\\\.finalizers/);
  });

  it('lists none on an object that is not being deleted', () => {
    const docs = exampleDocs('statefulset-with-volumes');
    const uri = 'file:///examples/statefulset-with-volumes/postgres-volumes.yaml';
    const md = text(hover(workspace(docs), uri, positionOf(docs[uri], '- kubernetes.io/pvc-protection', { offset: 4 })));
    expect(md).not.toContain('Ways out');
  });
});
