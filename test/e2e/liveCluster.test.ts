// The packaged extension in a real VS Code (code-server) with a live cluster: the Kubernetes API test server
// (testkit/kubeApiServer) reached through a kubeconfig named in the user settings. As a user: connect from the command
// palette and read the cluster status bar item, see a workspace manifest checked against the live graph in the
// Problems panel, find the live stuck objects in the Stuck Objects view and open one (its read-only live
// document, with its lens), simulate deleting a live namespace, and find a live object among hundreds by typing (the
// server searches: Open Live Object…). Screenshots in test-output/e2e/live-*.png.
// The cluster gets nothing but GET requests.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, ns, pod, replicaSet, seedShop } from '../cluster/clusterFixtures';
import { step as story, Workbench } from './workbench';

const CHECKOUT = 'checkout-export.yaml';
/** The live Deployment storefront/checkout: a later incarnation than the one examples/ exported. */
const LIVE_CHECKOUT_UID = 'c0ffee00-1111-4222-8333-444455556666';
const SLOW = { timeout: 30_000, interval: 200 };
/** ConfigMaps in namespace bulk: the live pickers then show 200 of them and search the rest on the server. */
const BULK = 300;

let wb: Workbench;
let api: KubeApiServer;
let dir: string;

/** One user step (workbench.ts): on failure, the error carries a screenshot and the logs. */
const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

describe('Kube GC Lens in code-server, on a live cluster', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    api = await startKubeApiServer({ token: 'e2e-token' });
    dir = mkdtempSync(path.join(tmpdir(), 'kgl-e2e-live-'));
    const kubeconfig = api.writeKubeconfig(dir, { namespace: 'shop' });
    seedShop(api);
    api.add(
      pod('shop', 'held', 'p-held', {
        owner: replicaSet('shop', 'web-rs', 'rs-web'),
        deletionTimestamp: '2026-11-20T09:00:00Z',
        finalizers: ['storage.acme.io/protect'],
      }),
    );
    api.add(ns('storefront', 'ns-storefront'));
    api.add({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'checkout', namespace: 'storefront', uid: LIVE_CHECKOUT_UID, creationTimestamp: '2026-11-01T00:00:00Z' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'checkout' } },
        template: { metadata: { labels: { app: 'checkout' } }, spec: { containers: [{ name: 'checkout', image: 'example/checkout:2' }] } },
      },
    });
    // Enough objects that the live pickers search on the server (more than the 200 they show).
    for (let i = 0; i < BULK; i++) api.add(configMap('bulk', `cfg-${i}`, `cm-bulk-${i}`));
    wb = await Workbench.start(inject('vsix'), { name: 'code-server-live', settings: { 'kubeGcLens.cluster.kubeconfig': kubeconfig } });
  }, 120_000);

  afterAll(async () => {
    await wb?.close();
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  step(
    'connects from the command palette: the cluster status bar item shows the context, objects and sync state',
    'live-01-connect',
    async () => {
      await wb.page.goto(wb.server.folderUrl);
      await wb.page
        .locator('.explorer-folders-view .monaco-list-row', { hasText: 'deployment-export-from-another-cluster' })
        .waitFor({ timeout: 60_000 });
      await wb.openFile(CHECKOUT);
      await wb.page.locator('.statusbar-item', { hasText: 'Cluster: off' }).waitFor(SLOW);
      await wb.runCommand('Kubernetes GC: Connect to Cluster');
      // Secrets are readable here: every resource lists, so it watches.
      const item = wb.page.locator('.statusbar-item', {
        hasText: /Cluster kube-api-test: \d+ objects · all namespaces · (watching|degraded)/,
      });
      await item.waitFor(SLOW);
      await wb.screenshot('live-01-connect');
    },
  );

  step(
    'the Problems panel says applying the exported ReplicaSet gets it garbage-collected on this cluster',
    'live-02-problems',
    async () => {
      await wb.showProblems();
      await expect
        .poll(async () => (await wb.problemsOf(CHECKOUT)).map((p) => p.code), SLOW)
        .toEqual(expect.arrayContaining(['collected-on-apply', 'live-uid-conflict']));
      const collected = (await wb.problemsOf(CHECKOUT)).find((p) => p.code === 'collected-on-apply')!;
      expect(collected.message).toBe(
        "Applying this file gets it garbage-collected: owner uid a476c896… is not the live Deployment storefront/checkout's uid c0ffee00….",
      );
      expect(collected.severity).toBe('error');
      await wb.screenshot('live-02-problems');
    },
  );

  step(
    'the Stuck Objects view has a live section with the held Pod; clicking it opens its read-only live document',
    'live-03-stuck',
    async () => {
      await wb.runCommand('View: Hide Panel'); // room for the view
      const view = await wb.showLiveStuckObjects('kube-api-test');
      const held = view.locator('.monaco-list-row', { hasText: 'Pod shop/held' });
      await held.waitFor(SLOW);
      expect(await held.locator('.label-description').innerText()).toMatch(/^stuck terminating · \d+[dhm]/);
      await held.locator('.label-name').click();
      await wb.page.locator('.editor-group-container.active .tab.active', { hasText: 'held.yaml' }).waitFor(SLOW);
      await wb.viewLine('storage.acme.io/protect').waitFor(SLOW);
      // The impact lens sits above `apiVersion` (line 3: two comment lines first); it simulates on the live graph.
      await expect.poll(() => wb.codeLensAbove(3), SLOW).toMatch(/^Delete: /);
      await wb.screenshot('live-03-stuck');
    },
  );

  step("Simulate Delete on the live namespace shop: the report is the live cluster's", 'live-04-simulate', async () => {
    await wb.runCommand('Kubernetes GC: Simulate Delete');
    await wb.pick('Simulate Delete (1/3)', 'Live cluster', /Live cluster \(kube-api-test\)/);
    await wb.pick('Simulate Delete on kube-api-test (2/3)', 'Namespace shop', /^Namespace shop/);
    await wb.pick('Simulate Delete (3/3)', 'Background', 'Background');
    const tab = wb.editorTab(/Simulate Delete on kube-api-test/);
    await tab.waitFor({ timeout: 30_000 });
    const report = wb.webview();
    await expect.poll(() => report.locator('h1').innerText(), SLOW).toMatch(/^Simulate Delete on kube-api-test: Namespace shop/);
    const deleted = await report.locator('h2:has-text("Deleted by") ~ ul > li').allInnerTexts();
    expect(deleted.map((d) => d.replace(/: step \d+.*$/, ''))).toEqual(
      expect.arrayContaining(['Deployment shop/web', 'ConfigMap shop/settings']),
    );
    await wb.screenshot('live-04-simulate');
    const writes = api.countByVerb();
    expect((writes.create ?? 0) + (writes.update ?? 0) + (writes.patch ?? 0) + (writes.delete ?? 0)).toBe(0);
  });

  step(
    'Open Live Object… among hundreds of objects: the title says how many, the server finds words in any order',
    'live-05-open',
    async () => {
      await wb.runCommand('Kubernetes GC: Open Live Object');
      await wb.quickInput
        .locator('.quick-input-title', { hasText: /^Open Live Object \(kube-api-test\) · 200 of \d{3} objects: type to narrow$/ })
        .waitFor(SLOW);
      await wb.screenshot('live-05-open-first-page');
      // Not in the first 200 (namespace bulk sorts before shop), and VS Code's own filter would not match these words
      // in this order: only the server's answer (alwaysShow items) can show it.
      await wb.quickInputBox.fill('web-1 pod');
      await wb.focusedQuickInputRow(/^Pod shop\/web-1/).waitFor(SLOW);
      await wb.quickInput.locator('.quick-input-title', { hasText: /^Open Live Object \(kube-api-test\)$/ }).waitFor(SLOW);
      await wb.screenshot('live-05-open');
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.editor-group-container.active .tab.active', { hasText: 'web-1.yaml' }).waitFor(SLOW);
      await wb.viewLine('uid: p-web-1').waitFor(SLOW);
    },
  );
});
