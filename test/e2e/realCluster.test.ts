// The packaged extension in a real VS Code (code-server) on a real cluster: the local control plane (test/controlplane:
// kube-apiserver and kube-controller-manager from Kubernetes' own modules), reached through its kubeconfig named in
// the user settings. One story, as a user: connect (picking the kubeconfig's context), read the status bar; the Stuck
// Objects view shows a namespace really stuck on a custom finalizer and why, with the conditions the real namespace
// controller wrote; open it (its read-only live document) and simulate its deletion from the lens. The expected values
// are what kubectl reads from the same server. Then its safest way out the editor can send: refused while writes are
// off, then, with kubeGcLens.cluster.allowWrites on in the user settings, confirmed and sent, and the namespace goes
// (the apiserver's audit log says what was sent). Screenshots in test-output/e2e/real-*.png. Skipped only where `go`
// is not on PATH (CI and the project's machines have it).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { auditLog, productRequests, WAY_OUT_USER_AGENT } from '../helpers/auditLog';
import { readAll, readOne } from '../helpers/realCluster';
import { step as story, Workbench } from './workbench';

const SLOW = { timeout: 30_000, interval: 200 };
if (CONTROL_PLANE_SKIP) console.warn(`test/e2e/realCluster.test.ts ${CONTROL_PLANE_SKIP}`);

let wb: Workbench;
let plane: ControlPlane;
let auditDir: string;
let audit: ReturnType<typeof auditLog>;

/** One user step (workbench.ts): on failure, the error carries a screenshot and the logs. */
const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('Kube GC Lens in code-server, on a real control plane', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    auditDir = mkdtempSync(path.join(tmpdir(), 'kgl-e2e-audit-'));
    audit = auditLog(auditDir);
    plane = await startControlPlane({ apiserverArgs: audit.apiserverArgs });
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
    wb = await Workbench.start(inject('vsix'), {
      name: 'code-server-real',
      settings: { 'kubeGcLens.cluster.kubeconfig': plane.kubeconfig },
    });
  }, 900_000);

  afterAll(async () => {
    await wb?.close();
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
            description: `NamespaceContentRemaining: ${message('NamespaceContentRemaining')}. NamespaceFinalizersRemaining: ${message('NamespaceFinalizersRemaining')}`,
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
   * Remove Finalizer… on that way out until `shown` shows. The view refreshes on watch events and settings changes;
   * when one lands while its menu is open, the command says so and sends nothing, and the user chooses again.
   */
  const removeFinalizerUntil = async (shown: Locator): Promise<void> => {
    const stale = wb.notification('the Stuck Objects view was refreshed while its menu was open');
    for (let attempt = 1; ; attempt++) {
      await wb.contextMenu(wayOutRow(), 'Remove Finalizer…');
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
          '[{"op":"test","path":"/metadata/finalizers/0","value":"example.com/hold"},{"op":"remove","path":"/metadata/finalizers/0"}]',
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
      expect(lines.some((l) => l.includes(`sent PATCH ${held}?dryRun=All&fieldManager=kube-gc-lens [{"op":"test"`))).toBe(true);
      expect(lines.some((l) => l.includes(`sent PATCH ${held}?fieldManager=kube-gc-lens [{"op":"test"`))).toBe(true);
      await wb.runCommand('Output: Show Output Channels...');
      await wb.pick(undefined, 'Kube GC Lens', 'Kube GC Lens');
      await wb.page.locator('.part.panel .monaco-editor .view-line', { hasText: 'Way out done' }).first().waitFor(SLOW);
      await wb.screenshot('real-06-gone');
    },
  );
});
