// The ownership graph of a large live cluster in a real VS Code (code-server), one scope at a time: the Kubernetes
// API test server with more objects than the graph shows at once (GRAPH_LIMIT), connected as a user connects; Show
// Ownership Graph asks which namespace (counts, the largest first), the panel's title and toolbar say the scope and
// that it was cut; the webview's Scope… button asks again; a watch event reaches the scoped graph.
// Screenshots in test-output/e2e/live-graph-*.png. The cluster gets nothing but GET requests.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { GRAPH_LIMIT } from '../../shared/src/protocol';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, ns, pod, replicaSet, seedShop } from '../cluster/clusterFixtures';
import { step as story, Workbench } from './workbench';

const SLOW = { timeout: 30_000, interval: 200 };
/** ConfigMaps in namespace bulk: more than the graph shows at once. */
const BULK = GRAPH_LIMIT + 200;

let wb: Workbench;
let api: KubeApiServer;
let dir: string;

const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);
const graph = () => wb.webview();

describe('the ownership graph of a large live cluster in code-server', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    api = await startKubeApiServer({ token: 'e2e-graph-token' });
    dir = mkdtempSync(path.join(tmpdir(), 'kgl-e2e-live-graph-'));
    const kubeconfig = api.writeKubeconfig(dir, { namespace: 'shop' });
    seedShop(api);
    api.add(ns('bulk', 'ns-bulk'));
    api.addMany(Array.from({ length: BULK }, (_, i) => configMap('bulk', `cfg-${i}`, `cm-bulk-${i}`)));
    wb = await Workbench.start(inject('vsix'), {
      name: 'code-server-live-graph',
      settings: { 'kubeGcLens.cluster.kubeconfig': kubeconfig },
    });
  }, 120_000);

  afterAll(async () => {
    await wb?.close();
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  step('connects to the cluster', 'live-graph-01-connect', async () => {
    await wb.page.goto(wb.server.folderUrl);
    await wb.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'deployment-export-from-another-cluster' })
      .waitFor({ timeout: 60_000 });
    await wb.runCommand('Kubernetes GC: Connect to Cluster');
    await wb.page.locator('.statusbar-item', { hasText: /Cluster kube-api-test: [\d,]+ objects/ }).waitFor(SLOW);
  });

  step('Show Ownership Graph asks which namespace, the largest first, and shows it cut, saying so', 'live-graph-02-namespace', async () => {
    await wb.runCommand('Kubernetes GC: Show Ownership Graph');
    await wb.pick('Show Ownership Graph', 'Live cluster', 'Live cluster (kube-api-test)');
    await wb.quickInput.locator('.quick-input-title', { hasText: 'Show Ownership Graph: kube-api-test' }).waitFor(SLOW);
    // Nothing typed: the first row, the largest namespace, is the one Enter takes.
    await wb.focusedQuickInputRow(/bulk/).waitFor(SLOW);
    expect(await wb.focusedQuickInputRow(/bulk/).innerText()).toContain(`${BULK.toLocaleString('en-US')} objects · the first 5,000 shown`);
    await wb.screenshot('live-graph-02-pick');
    await wb.page.keyboard.press('Enter');
    await wb.editorTab('Ownership Graph: kube-api-test · bulk').waitFor(SLOW);
    await expect.poll(() => graph().locator('.toolbar .source').innerText(), SLOW).toBe('Live cluster kube-api-test · namespace bulk');
    expect(await graph().locator('.scope-bar').innerText()).toContain(
      `Showing 5,000 of the ${(BULK + 1).toLocaleString('en-US')} objects in this scope (namespace bulk)`,
    );
    expect(await graph().locator('.graph').getAttribute('data-renderer')).toBe('canvas');
    await wb.screenshot('live-graph-02-bulk');
  });

  step("the webview's Scope… button asks again: namespace shop, whole", 'live-graph-03-scope', async () => {
    await graph().locator('.toolbar button', { hasText: 'Scope…' }).click();
    await wb.pick('Show Ownership Graph: kube-api-test', 'shop', /shop/);
    await wb.editorTab('Ownership Graph: kube-api-test · shop').waitFor(SLOW);
    await expect.poll(() => graph().locator('.toolbar .source').innerText(), SLOW).toBe('Live cluster kube-api-test · namespace shop');
    await expect.poll(() => graph().locator('.graph-svg g.node[data-id="d-web"]').count(), SLOW).toBe(1);
    expect(await graph().locator('.scope-bar').isHidden()).toBe(true);
    await wb.screenshot('live-graph-03-shop');
  });

  step('a watch event reaches the scoped graph (read again with the same scope)', 'live-graph-04-watch', async () => {
    api.add(pod('shop', 'web-2', 'p-web-2', { owner: replicaSet('shop', 'web-rs', 'rs-web') }));
    await expect.poll(() => graph().locator('.graph-svg g.node[data-id="p-web-2"]').count(), SLOW).toBe(1);
    expect(await graph().locator('.toolbar .source').innerText()).toBe('Live cluster kube-api-test · namespace shop');
    expect(api.writes()).toBe(0);
    await wb.screenshot('live-graph-04-watch');
  });
});
