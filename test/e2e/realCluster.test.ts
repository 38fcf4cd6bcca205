// The packaged extension in a real VS Code (code-server) on a real cluster: the local control plane (test/controlplane:
// kube-apiserver and kube-controller-manager from Kubernetes' own modules), reached through its kubeconfig named in
// the user settings. One story, as a user: connect (picking the kubeconfig's context), read the status bar; the Stuck
// Objects view shows a namespace really stuck on a custom finalizer and why, with the conditions the real namespace
// controller wrote; open it (its read-only live document) and simulate its deletion from the lens. The expected values
// are what kubectl reads from the same server. Then its safest way out the editor can send: refused while writes are
// off, then, with kubeGcLens.cluster.allowWrites on in the user settings, confirmed and sent, and the namespace goes
// (the apiserver's audit log says what was sent).
// Then a namespace stuck on an operator's finalizer (issue 18's "done means"): namespace shop holds a Widget whose
// finalizer widgets.acme.io/finalizer only the operator removes, and the operator's Deployment is scaled to 0. The
// product finds the operator by its documented guess (the finalizer's words in the Deployment's name and image), with
// no setting. The view shows why and three ways out; the safest, scaling the operator up, is sent from the editor
// after its confirmation (the CLI prints the same kubectl command), and the namespace goes. The control plane has no
// kubelet, so the operator's Pod is created by the real deployment and replicaset controllers but never runs: the test
// plays the operator (test/helpers/standInOperator.ts), removing its finalizer once that Pod exists, as the operator
// would. Screenshots in test-output/e2e/real-*.png. Skipped only where `go` is not on PATH (CI and the project's
// machines have it).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { auditLog, productRequests, WAY_OUT_USER_AGENT } from '../helpers/auditLog';
import { runCli } from '../helpers/cliProcess';
import { readAll, readOne } from '../helpers/realCluster';
import { standInOperator, type StandInOperator } from '../helpers/standInOperator';
import { step as story, Workbench } from './workbench';

const SLOW = { timeout: 30_000, interval: 200 };
if (CONTROL_PLANE_SKIP) console.warn(`test/e2e/realCluster.test.ts ${CONTROL_PLANE_SKIP}`);

let wb: Workbench;
let plane: ControlPlane;
/** The preconditions a way out's patch starts with, as the cluster holds the object now: its uid and resourceVersion. */
const preconditionsOf = (ref: string, namespace: string) => {
  const [uid, rv] = plane.kubectl(['get', ref, '-n', namespace, '-o', 'jsonpath={.metadata.uid} {.metadata.resourceVersion}']).split(' ');
  return [
    { op: 'test', path: '/metadata/uid', value: uid },
    { op: 'test', path: '/metadata/resourceVersion', value: rv },
  ];
};
let auditDir: string;
let audit: ReturnType<typeof auditLog>;
let operator: StandInOperator;

// The control plane's default controllers, and the deployment and replicaset controllers: scaling the operator up
// makes its ReplicaSet create a Pod (that never runs: there is no kubelet nor scheduler).
const CONTROLLERS =
  'garbage-collector-controller,namespace-controller,persistentvolumeclaim-protection-controller,' +
  'persistentvolume-protection-controller,persistentvolume-binder-controller,deployment-controller,replicaset-controller';
const FINALIZER = 'widgets.acme.io/finalizer';
/** An operator and its kind, the operator scaled to 0 (as after `kubectl scale --replicas=0`), and namespace shop. */
const OPERATOR = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.acme.io}
spec:
  group: acme.io
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
---
apiVersion: v1
kind: Namespace
metadata: {name: widget-system}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: widget-operator, namespace: widget-system}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: widget-operator, namespace: widget-system, labels: {app.kubernetes.io/name: widget-operator}}
spec:
  replicas: 0
  selector: {matchLabels: {app.kubernetes.io/name: widget-operator}}
  template:
    metadata: {labels: {app.kubernetes.io/name: widget-operator}}
    spec:
      serviceAccountName: widget-operator
      containers: [{name: operator, image: ghcr.io/acme/widget-operator:1.4.0}]
---
apiVersion: v1
kind: Namespace
metadata: {name: shop}
`;
/** A Widget in shop carrying the operator's finalizer (the operator adds it to each Widget it manages). */
const WIDGET = `apiVersion: acme.io/v1\nkind: Widget\nmetadata: {name: storefront, namespace: shop, finalizers: [${FINALIZER}]}\n`;

/** One user step (workbench.ts): on failure, the error carries a screenshot and the logs. */
const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('Kube GC Lens in code-server, on a real control plane', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    auditDir = mkdtempSync(path.join(tmpdir(), 'kgl-e2e-audit-'));
    audit = auditLog(auditDir);
    plane = await startControlPlane({ apiserverArgs: audit.apiserverArgs, controllers: CONTROLLERS });
    // Namespace team-a is deleted while a ConfigMap in it carries a finalizer nobody removes.
    plane.kubectl(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: team-a, finalizers: [example.com/hold]}\n',
    );
    plane.kubectl(['delete', 'namespace', 'team-a', '--wait=false']);
    await until('the namespace controller reports what remains', () =>
      (readOne(plane, 'namespace/team-a').status?.conditions ?? []).some(
        (c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True',
      ),
    );
    // The operator's story, set up now; namespace shop is deleted later in the story.
    plane.kubectl(['apply', '-f', '-'], OPERATOR);
    await until('the Widget kind served', () => plane.kubectlResult(['get', 'widgets.acme.io', '-n', 'shop']).status === 0);
    plane.kubectl(['apply', '-f', '-'], WIDGET);
    await until("the deployment controller made the operator's ReplicaSet", () =>
      Boolean(plane.kubectl(['get', 'replicasets', '-n', 'widget-system', '-o', 'name']).trim()),
    );
    operator = standInOperator(plane, {
      namespace: 'widget-system',
      selector: 'app.kubernetes.io/name=widget-operator',
      resource: 'widgets.acme.io',
      finalizer: FINALIZER,
    });
    wb = await Workbench.start(inject('vsix'), {
      name: 'code-server-real',
      settings: { 'kubeGcLens.cluster.kubeconfig': plane.kubeconfig },
    });
  }, 900_000);

  afterAll(async () => {
    await wb?.close();
    await operator?.stop();
    await plane?.stop();
    if (auditDir) rmSync(auditDir, { recursive: true, force: true });
  });

  step("connects, picking the kubeconfig's context: the status bar counts what kubectl lists", 'real-01-connect', async () => {
    await wb.page.goto(wb.server.folderUrl);
    await wb.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'deployment-export-from-another-cluster' })
      .waitFor({ timeout: 60_000 });
    await wb.openFile('checkout-export.yaml');
    await wb.page.locator('.statusbar-item', { hasText: 'Cluster: off' }).waitFor(SLOW);
    await wb.runCommand('Kubernetes GC: Connect to Cluster');
    // The kubeconfig has two contexts (admin, restricted) and none was chosen: a quick pick asks.
    await wb.pick(undefined, 'admin', /admin/);
    const objects = readAll(plane).items.length;
    await wb.page.locator('.statusbar-item', { hasText: `Cluster admin: ${objects} objects · all namespaces · watching` }).waitFor(SLOW);
    await wb.screenshot('real-01-connect');
  });

  step(
    "the Stuck Objects view: namespace team-a is stuck, held by example.com/hold, with the real controller's conditions",
    'real-02-stuck',
    async () => {
      await wb.runCommand('Kubernetes GC: Show Stuck Objects');
      // Room for the view: the explorer's folder pane folded, a wider side bar.
      await wb.page.locator('.pane-header', { hasText: 'examples' }).first().click();
      await wb.resizeSideBar(700);
      const view = wb.treeView('Stuck Objects');
      await view.locator('.monaco-list-row', { hasText: 'Live cluster (admin)' }).waitFor(SLOW);
      await view.locator('.monaco-list-row[aria-level="1"]', { hasText: 'Workspace manifests' }).locator('.monaco-tl-twistie').click();
      const ns = view.locator('.monaco-list-row[aria-level="2"]', { hasText: 'Namespace team-a' });
      await ns.waitFor(SLOW);
      expect(await ns.locator('.label-description').innerText()).toMatch(/^stuck terminating · \d+[smhd]/);
      await ns.locator('.monaco-tl-twistie').click();
      // Its children: why (what is left inside, worded as the real controller words it), then the conditions kubectl shows.
      const conditions = (readOne(plane, 'namespace/team-a').status?.conditions ?? []).filter((c) => c.status === 'True');
      const message = (type: string) => conditions.find((c) => c.type === type)?.message;
      expect(message('NamespaceFinalizersRemaining')).toBe(
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      );
      await expect
        .poll(async () => (await wb.treeRows(view)).filter((r) => r.level === 3), SLOW)
        .toEqual([
          {
            level: 3,
            label: 'namespace content',
            // The controller's words, but for its stray dot after a core resource ("configmaps. has").
            description: `NamespaceContentRemaining: ${message('NamespaceContentRemaining')?.replace('configmaps. has', 'configmaps has')}. NamespaceFinalizersRemaining: ${message('NamespaceFinalizersRemaining')}`,
          },
          ...conditions.map((c) => ({ level: 3, label: c.type, description: c.message })),
          // Then its ways out, safest first, each with its simulated outcome (issue 18).
          {
            level: 3,
            label: 'Way out (safe): Reinstall the operator that removes example.com/hold',
            description: expect.stringMatching(/: 2 objects deleted \(1 ConfigMap, 1 Namespace\), 0 stuck, 0 orphaned$/),
          },
          {
            level: 3,
            label: 'Way out (dangerous): Remove the finalizer example.com/hold from ConfigMap team-a/held',
            description: expect.stringMatching(/: 2 objects deleted \(1 ConfigMap, 1 Namespace\), 0 stuck, 0 orphaned$/),
          },
          {
            level: 3,
            label: 'Way out (dangerous): Finalize namespace team-a without waiting for its content (remove spec.finalizers kubernetes)',
            description: expect.stringMatching(/: 1 object deleted \(1 Namespace\), 0 stuck, 0 orphaned$/),
          },
        ]);
      // Down the chain: the ConfigMap still inside, and the finalizer that holds it.
      await view.locator('.monaco-list-row[aria-level="3"]', { hasText: 'namespace content' }).locator('.monaco-tl-twistie').click();
      await expect
        .poll(async () => (await wb.treeRows(view)).filter((r) => r.level === 4).map((r) => `${r.label}: ${r.description}`), SLOW)
        .toEqual(['ConfigMap team-a/held: is still in the namespace (Terminating)']);
      // The ConfigMap that holds it is stuck too, a root of its own.
      expect(
        (await wb.treeRows(view))
          .filter((r) => r.level === 2)
          .map((r) => r.label)
          .sort(),
      ).toEqual(['ConfigMap team-a/held', 'Namespace team-a']);
      await wb.screenshot('real-02-stuck');
    },
  );

  step("opens the namespace's read-only live document and simulates its deletion from the lens", 'real-03-simulate', async () => {
    const view = wb.treeView('Stuck Objects');
    await view.locator('.monaco-list-row[aria-level="2"]', { hasText: 'Namespace team-a' }).locator('.label-name').click();
    await wb.page.locator('.editor-group-container.active .tab.active', { hasText: 'team-a.yaml' }).waitFor(SLOW);
    const ns = readOne(plane, 'namespace/team-a');
    await wb.viewLine(`uid: ${ns.metadata.uid}`).waitFor(SLOW);
    await wb.viewLine(`deletionTimestamp: ${ns.metadata.deletionTimestamp}`).waitFor(SLOW);
    await wb.viewLine('type: NamespaceFinalizersRemaining').waitFor(SLOW);
    // The impact lens above `apiVersion` (line 3): already terminating, it stays so.
    await expect.poll(() => wb.codeLensAbove(3), SLOW).toMatch(/^Delete: stays Terminating/);
    await wb.page
      .locator('.editor-group-container.active .codelens-decoration a', { hasText: /^Delete: / })
      .first()
      .click();
    await wb.editorTab(/Simulate Delete on admin/).waitFor({ timeout: 30_000 });
    const report = wb.webview();
    await expect.poll(() => report.locator('h1').innerText(), SLOW).toMatch(/^Simulate Delete on admin: Namespace team-a/);
    const stuck = await report.locator('h2:has-text("stuck") ~ ul > li').allTextContents();
    expect(stuck.join('\n')).toContain('ConfigMap team-a/held');
    expect(stuck.join('\n')).toContain('example.com/hold');
    await wb.screenshot('real-03-simulate');
  });
  const REMOVE_HOLD = 'Way out (dangerous): Remove the finalizer example.com/hold from ConfigMap team-a/held';
  const wayOutRow = () => wb.treeView('Stuck Objects').locator('.monaco-list-row[aria-level="3"]', { hasText: REMOVE_HOLD });
  /**
   * `item` of the context menu of the way out `row` until `shown` shows. The view refreshes on watch events and
   * settings changes; when one lands while its menu is open, the command says so and sends nothing, and the user
   * chooses again.
   */
  const chooseUntil = async (row: () => Locator, item: string, shown: Locator): Promise<void> => {
    const stale = wb.notification('the Stuck Objects view was refreshed while its menu was open');
    for (let attempt = 1; ; attempt++) {
      await wb.contextMenu(row(), item);
      await shown.or(stale).first().waitFor(SLOW);
      if (await shown.isVisible()) return;
      if (attempt === 5) throw new Error('the view was refreshed under the menu five times in a row');
      console.warn(`test/e2e/realCluster.test.ts: the Stuck Objects view was refreshed under the menu (attempt ${attempt}); again`);
      // (the toast may already have gone by itself)
      await stale
        .hover({ timeout: 2000 })
        .then(() => stale.locator('.codicon-notifications-clear').click({ timeout: 2000 }))
        .catch(() => undefined);
      await stale.waitFor({ state: 'hidden', timeout: 30_000 });
    }
  };
  const removeFinalizerUntil = (shown: Locator) => chooseUntil(wayOutRow, 'Remove Finalizer…', shown);
  /** What the cluster recorded of writes: every request that is not a read, from anyone but the control plane itself. */
  const writes = () =>
    [...productRequests(audit.log), ...productRequests(audit.log, WAY_OUT_USER_AGENT)].filter(
      (e) => !['get', 'list', 'watch'].includes(e.verb),
    );

  step('Remove Finalizer… while writes are off: it says how to turn them on and sends nothing', 'real-04-writes-off', async () => {
    const off = wb.notification(/^Writes to the cluster are off: set "kubeGcLens\.cluster\.allowWrites" to true in your user settings/);
    await removeFinalizerUntil(off);
    expect(await wb.dialog.count()).toBe(0);
    await wb.screenshot('real-04-writes-off');
    await wb.closeNotification(off);
    expect(readOne(plane, 'configmap/held', 'team-a').metadata.finalizers).toEqual(['example.com/hold']);
    expect(writes()).toEqual([]);
    expect(wb.outputLog('Kube GC Lens')).not.toMatch(/Way out on /);
  });

  step(
    'with writes allowed in the user settings: the confirmation shows the simulated outcome and the exact PATCH; confirmed, the namespace goes',
    'real-05-way-out',
    async () => {
      await wb.setUserBoolean('kubeGcLens.cluster.allowWrites', true);
      await removeFinalizerUntil(wb.dialog);
      expect(await wb.dialog.locator('.dialog-message-text').innerText()).toBe(
        'Remove the finalizer example.com/hold from ConfigMap team-a/held?',
      );
      const detail = (await wb.dialog.locator('.dialog-message-detail').innerText()).split('\n');
      expect(detail[0]).toBe('On the live cluster admin, risk: dangerous.');
      expect(detail[1]).toMatch(/^Simulated: .*: 2 objects deleted \(1 ConfigMap, 1 Namespace\), 0 stuck, 0 orphaned$/);
      expect(
        detail
          .find((l) => l.startsWith('Deleted: '))
          ?.split(': ')[1]
          .split(', ')
          .sort(),
      ).toEqual(['ConfigMap team-a/held', 'Namespace team-a']);
      expect(detail).toContain(
        'Warning: what the controller of example.com/hold was to clean up for ConfigMap team-a/held (often outside Kubernetes: cloud resources, data, DNS records) is left behind',
      );
      expect(detail).toContain(
        'Sends a server-side dry run first (nothing changes if the cluster refuses it), then: PATCH ConfigMap team-a/held (application/json-patch+json): ' +
          JSON.stringify([
            ...preconditionsOf('configmap/held', 'team-a'),
            { op: 'test', path: '/metadata/finalizers/0', value: 'example.com/hold' },
            { op: 'remove', path: '/metadata/finalizers/0' },
          ]),
      );
      await wb.screenshot('real-05-confirm');
      // Nothing is sent while the dialog waits.
      expect(writes()).toEqual([]);
      await wb.dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Remove Finalizer$/ }).click();
      await wb.dialog.waitFor({ state: 'detached' });

      // The cluster: the ConfigMap, then namespace team-a, are gone.
      await until('ConfigMap team-a/held is gone', () => plane.kubectlResult(['get', 'configmap/held', '-n', 'team-a']).status !== 0);
      await until('namespace team-a is gone', () => /NotFound/.test(plane.kubectlResult(['get', 'namespace/team-a']).stderr));
      // What was sent: a dry run, then the same patch, and nothing else.
      const held = '/api/v1/namespaces/team-a/configmaps/held';
      expect(writes().map((e) => [e.verb, e.requestURI])).toEqual([
        ['patch', `${held}?dryRun=All&fieldManager=kube-gc-lens`],
        ['patch', `${held}?fieldManager=kube-gc-lens`],
      ]);
      await wb.notification(/^Kube GC Lens: /).waitFor(SLOW);

      // The Stuck Objects view follows the watch: nothing is stuck any more.
      const view = wb.treeView('Stuck Objects');
      await expect
        .poll(async () => (await wb.treeRows(view)).filter((r) => r.level <= 2 && !r.label.startsWith('Workspace')), SLOW)
        .toEqual([
          { level: 1, label: 'Live cluster (admin)', description: 'nothing stuck' },
          { level: 2, label: expect.stringMatching(/^Nothing is stuck: /), description: '' },
        ]);

      // The Output channel logged the dry run and the patch, and the cluster's answer.
      await expect.poll(() => wb.outputLog('Kube GC Lens'), SLOW).toMatch(/Way out done/);
      const lines = wb.outputLog('Kube GC Lens').split('\n');
      expect(
        lines.some((l) =>
          l.includes(
            `Way out on admin: Remove the finalizer example.com/hold from ConfigMap team-a/held. Sending a dry run, then PATCH ConfigMap team-a/held`,
          ),
        ),
      ).toBe(true);
      expect(lines.some((l) => l.includes(`sent PATCH ${held}?dryRun=All&fieldManager=kube-gc-lens for uid `))).toBe(true);
      expect(lines.some((l) => l.includes(`sent PATCH ${held}?fieldManager=kube-gc-lens for uid `))).toBe(true);
      await wb.runCommand('Output: Show Output Channels...');
      await wb.pick(undefined, 'Kube GC Lens', 'Kube GC Lens');
      await wb.page.locator('.part.panel .monaco-editor .view-line', { hasText: 'Way out done' }).first().waitFor(SLOW);
      await wb.screenshot('real-06-gone');
    },
  );

  /** Expands the tree row `row`, clicking its twistie until it says it is expanded (a re-render can eat a click). */
  const expand = async (row: Locator): Promise<void> => {
    await expect
      .poll(async () => {
        if ((await row.getAttribute('aria-expanded', { timeout: 5000 }).catch(() => null)) !== 'true')
          await row
            .locator('.monaco-tl-twistie')
            .click({ timeout: 5000 })
            .catch(() => undefined);
        return row.getAttribute('aria-expanded', { timeout: 5000 }).catch(() => null);
      }, SLOW)
      .toBe('true');
  };
  /** The rendered rows below the root `label` (level 2), down to the next root or section. */
  const rowsUnder = async (view: Locator, label: string) => {
    const rows = await wb.treeRows(view);
    const at = rows.findIndex((r) => r.level === 2 && r.label === label);
    if (at < 0) return [];
    const end = rows.findIndex((r, i) => i > at && r.level <= 2);
    return rows.slice(at + 1, end < 0 ? undefined : end);
  };

  // An operator's finalizer: namespace shop is deleted (as a user does with kubectl) while the operator that removes
  // widgets.acme.io/finalizer is scaled to 0.
  const SCALE_UP = `Scale Deployment widget-system/widget-operator up to 1 replica: it runs the controller that removes ${FINALIZER}`;
  const SCALE_PATH = '/apis/apps/v1/namespaces/widget-system/deployments/widget-operator/scale';
  // The scale subresource's preconditions are the Deployment's uid and resourceVersion, read when its row is shown.
  let SCALE_OPS = '';
  let SCALE_COMMAND = '';
  const readScaleWayOut = () => {
    SCALE_OPS = JSON.stringify([
      ...preconditionsOf('deployment/widget-operator', 'widget-system'),
      { op: 'test', path: '/spec', value: {} },
      { op: 'add', path: '/spec/replicas', value: 1 },
    ]);
    SCALE_COMMAND = `kubectl patch deployment.apps/widget-operator -n widget-system --subresource=scale --type=json -p '${SCALE_OPS}'`;
  };
  const SCALED =
    'Scaling Deployment widget-system/widget-operator to 1 replica: 2 objects deleted (1 Widget, 1 Namespace), 0 stuck, 0 orphaned';
  const scaleUpRow = () =>
    wb.treeView('Stuck Objects').locator('.monaco-list-row[aria-level="3"]', { hasText: `Way out (safe): ${SCALE_UP}` });

  step(
    "an operator's finalizer: namespace shop is stuck on Widget shop/storefront, its operator scaled to 0; three ways out, safest first",
    'real-07-operator',
    async () => {
      plane.kubectl(['delete', 'namespace', 'shop', '--wait=false']);
      await until('the namespace controller reports what remains in shop', () =>
        (readOne(plane, 'namespace/shop').status?.conditions ?? []).some(
          (c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True',
        ),
      );
      // Room for the view: the other story's editors, panel and toasts put away, a wider side bar.
      await wb.runCommand('View: Close All Editors');
      await wb.runCommand('View: Hide Panel');
      await wb.runCommand('Notifications: Clear All Notifications');
      await wb.resizeSideBar(1100);
      const view = wb.treeView('Stuck Objects');
      // Both stuck, each a root: the namespace, and the Widget that holds it. (Once both are listed the rows keep
      // their places, so a click lands where it was aimed.)
      await expect
        .poll(
          async () =>
            (await wb.treeRows(view))
              .filter((r) => r.level === 2)
              .map((r) => r.label)
              .sort(),
          SLOW,
        )
        .toEqual(['Namespace shop', 'Widget shop/storefront']);
      const ns = view.locator('.monaco-list-row[aria-level="2"]', { hasText: 'Namespace shop' });
      expect(await ns.locator('.label-description').innerText()).toMatch(/^stuck terminating · \d+[smhd]/);
      await expand(ns);
      const conditions = (readOne(plane, 'namespace/shop').status?.conditions ?? []).filter((c) => c.status === 'True');
      const message = (type: string) => conditions.find((c) => c.type === type)?.message;
      expect(message('NamespaceFinalizersRemaining')).toBe(
        `Some content in the namespace has finalizers remaining: ${FINALIZER} in 1 resource instances`,
      );
      // Why (what is left inside, as the namespace controller says), its conditions, then three ways out, safest first.
      await expect
        .poll(async () => (await rowsUnder(view, 'Namespace shop')).filter((r) => r.level === 3), SLOW)
        .toEqual([
          {
            level: 3,
            label: 'namespace content',
            // The controller's words, but for its stray dot after a core resource ("configmaps. has").
            description: `NamespaceContentRemaining: ${message('NamespaceContentRemaining')?.replace('configmaps. has', 'configmaps has')}. NamespaceFinalizersRemaining: ${message('NamespaceFinalizersRemaining')}`,
          },
          ...conditions.map((c) => ({ level: 3, label: c.type, description: c.message })),
          {
            level: 3,
            label: `Way out (safe): ${SCALE_UP}`,
            description: SCALED,
          },
          {
            level: 3,
            label: `Way out (dangerous): Remove the finalizer ${FINALIZER} from Widget shop/storefront`,
            description: `Removing finalizer ${FINALIZER} from Widget shop/storefront: 2 objects deleted (1 Widget, 1 Namespace), 0 stuck, 0 orphaned`,
          },
          {
            level: 3,
            label: 'Way out (dangerous): Finalize namespace shop without waiting for its content (remove spec.finalizers kubernetes)',
            description: 'Removing finalizer kubernetes from Namespace shop: 1 object deleted (1 Namespace), 0 stuck, 0 orphaned',
          },
        ]);
      // Down the chain: the Widget still inside, then why its finalizer stays: the operator is scaled to 0 (found by
      // the guess, which says so).
      await expand(view.locator('.monaco-list-row[aria-level="3"]', { hasText: 'namespace content' }));
      await expand(view.locator('.monaco-list-row[aria-level="4"]', { hasText: 'Widget shop/storefront' }));
      await expect
        .poll(
          async () =>
            (await rowsUnder(view, 'Namespace shop')).filter((r) => r.level >= 4).map((r) => `${r.level} ${r.label}: ${r.description}`),
          SLOW,
        )
        .toEqual([
          '4 Widget shop/storefront: is still in the namespace (Terminating)',
          `5 finalizer ${FINALIZER}: its controller Deployment widget-system/widget-operator is scaled to 0 replicas, so nobody removes ${FINALIZER} (guessed from the words "widget", "acme" shared by "${FINALIZER}" and Deployment widget-system/widget-operator)`,
        ]);
      // The safest way out's tooltip: what the simulation says it deletes, and the kubectl command it is.
      readScaleWayOut();
      const tooltip = wb.page.locator('.workbench-hover', { hasText: 'Command: kubectl patch deployment.apps/widget-operator' });
      await wb.hoverUntilVisible(scaleUpRow().locator('.label-name'), tooltip);
      expect((await tooltip.innerText()).split('\n').filter(Boolean)).toEqual([
        `${SCALE_UP} (safe)`,
        `Simulated: ${SCALED}`,
        'Deleted: Widget shop/storefront, Namespace shop',
        `Command: ${SCALE_COMMAND}`,
      ]);
      await wb.screenshot('real-07-operator');
    },
  );

  step("the CLI on the same cluster prints the safest way out's kubectl command", 'real-08-cli', async () => {
    const r = await runCli(['stuck', '--kubeconfig', plane.kubeconfig, '--context', 'admin']);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n').map((l) => l.trim());
    const ns = lines.indexOf(lines.find((l) => l.startsWith('⧗ Namespace shop'))!);
    const ways = lines.indexOf('Ways out (safest first, each simulated; nothing is sent: run the command yourself)', ns);
    expect(ns).toBeGreaterThanOrEqual(0);
    expect(lines.slice(ways + 1, ways + 4)).toEqual([`1. [safe] ${SCALE_UP}`, `$ ${SCALE_COMMAND}`, `→ ${SCALED}`]);
    // Reading is all it does.
    expect(writes().filter((e) => !e.requestURI.includes('/configmaps/held'))).toEqual([]);
  });

  step(
    'Apply Fix… on the safest way out: the confirmation shows the simulated outcome and the PATCH of the scale subresource',
    'real-09-confirm',
    async () => {
      const before = writes().length;
      await chooseUntil(scaleUpRow, 'Apply Fix…', wb.dialog);
      expect(await wb.dialog.locator('.dialog-message-text').innerText()).toBe(`${SCALE_UP}?`);
      expect((await wb.dialog.locator('.dialog-message-detail').innerText()).split('\n').filter(Boolean)).toEqual([
        'On the live cluster admin, risk: safe.',
        `Simulated: ${SCALED}`,
        'Deleted: Widget shop/storefront, Namespace shop',
        'Sends a server-side dry run first (nothing changes if the cluster refuses it), then: ' +
          `PATCH Deployment widget-system/widget-operator/scale (application/json-patch+json): ${SCALE_OPS}`,
        `Its test ops make it fail if the object is not the one shown (uid ${JSON.parse(SCALE_OPS)[0].value}) or changed since it was read.`,
      ]);
      await wb.screenshot('real-09-confirm');
      // Nothing is sent while the dialog waits, and the operator has not run.
      expect(writes().length).toBe(before);
      expect(operator.pod).toBeUndefined();
      await wb.dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Apply Fix$/ }).click();
      await wb.dialog.waitFor({ state: 'detached' });
      // What was sent: a dry run, then the same patch, to the scale subresource (the whole story's writes are
      // checked again at its end: nothing else).
      await expect
        .poll(
          () =>
            writes()
              .slice(before)
              .map((e) => [e.verb, e.requestURI]),
          SLOW,
        )
        .toEqual([
          ['patch', `${SCALE_PATH}?dryRun=All&fieldManager=kube-gc-lens`],
          ['patch', `${SCALE_PATH}?fieldManager=kube-gc-lens`],
        ]);
      expect(readOne(plane, 'deployment/widget-operator', 'widget-system')).toMatchObject({ spec: { replicas: 1 } });
    },
  );

  step(
    "the operator's Pod is created, it removes its finalizer, and namespace shop goes; the view says nothing is stuck",
    'real-10-gone',
    async () => {
      // The real replicaset controller creates the Pod; the stand-in operator then removes its finalizer.
      await until("the ReplicaSet controller created the operator's Pod", () => operator.pod !== undefined);
      await until('the operator released Widget shop/storefront', () => operator.released.includes('shop/storefront'));
      await until('namespace shop is gone', () => /NotFound/.test(plane.kubectlResult(['get', 'namespace/shop']).stderr), 600);
      expect(operator.released).toEqual(['shop/storefront']);
      const view = wb.treeView('Stuck Objects');
      await expect
        .poll(async () => (await wb.treeRows(view)).filter((r) => r.level <= 2 && !r.label.startsWith('Workspace')), SLOW)
        .toEqual([
          { level: 1, label: 'Live cluster (admin)', description: 'nothing stuck' },
          { level: 2, label: expect.stringMatching(/^Nothing is stuck: /), description: '' },
        ]);
      await wb.notification(`Kube GC Lens: Done: ${SCALE_UP}.`).waitFor(SLOW);
      // The Output channel logged the dry run and the patch, and the cluster's answer.
      await expect.poll(() => wb.outputLog('Kube GC Lens'), SLOW).toContain(`Done: ${SCALE_UP}.`);
      const lines = wb.outputLog('Kube GC Lens').split('\n');
      expect(
        lines.some((l) =>
          l.includes(
            `Way out on admin: ${SCALE_UP}. Sending a dry run, then PATCH Deployment widget-system/widget-operator/scale (application/json-patch+json): ${SCALE_OPS}`,
          ),
        ),
      ).toBe(true);
      expect(
        lines.some((l) =>
          l.includes(
            `sent PATCH ${SCALE_PATH}?dryRun=All&fieldManager=kube-gc-lens for uid ${JSON.parse(SCALE_OPS)[0].value} ${SCALE_OPS}`,
          ),
        ),
      ).toBe(true);
      expect(
        lines.some((l) =>
          l.includes(`sent PATCH ${SCALE_PATH}?fieldManager=kube-gc-lens for uid ${JSON.parse(SCALE_OPS)[0].value} ${SCALE_OPS}`),
        ),
      ).toBe(true);
      // No other write from the extension in the whole story: team-a's two, then these two.
      expect(writes().map((e) => e.requestURI.split('?')[0])).toEqual([
        '/api/v1/namespaces/team-a/configmaps/held',
        '/api/v1/namespaces/team-a/configmaps/held',
        SCALE_PATH,
        SCALE_PATH,
      ]);
      await wb.screenshot('real-10-gone');
    },
  );
});
