// The ownership graph webview in a real VS Code (code-server 4.99.4) on a copy of examples/: Show Ownership Graph
// from the palette draws the workspace's graph; clicking a node reveals its source; Simulate delete from the
// details panel plays the deletion out on the graph; the "Show in Graph" lens focuses an object's component; the
// panel comes back, zoom and selection kept, after the window reloads (the panel serializer).
// Screenshots in test-output/e2e/graph-*.png; a failing step adds graph-*.failed.png and the logs to its error.

import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { step as story, Workbench } from './workbench';

const CHECKOUT = 'checkout-export.yaml';
const DEPLOYMENT_UID = '64b1c1b1-59ad-4af3-a756-871bd6965119';
const SLOW = { timeout: 30_000, interval: 200 };

let wb: Workbench;

/** One user step (workbench.ts): on failure, the error carries a screenshot and the logs. */
const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

/** The graph webview's page (the last webview opened). */
const graph = () => wb.webview();
const node = (uid: string) => graph().locator(`.graph-svg g.node[data-id="${uid}"]`);

describe('the ownership graph in code-server, on examples/', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    wb = await Workbench.start(inject('vsix'), { name: 'code-server-graph' });
  }, 120_000);

  afterAll(async () => {
    await wb?.close();
  });

  step('opens the examples workspace and a manifest', 'graph-01-workbench', async () => {
    await wb.page.goto(wb.server.folderUrl);
    await wb.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'deployment-export-from-another-cluster' })
      .waitFor({ timeout: 60_000 });
    await wb.openFile(CHECKOUT);
  });

  step('Show Ownership Graph draws the workspace: every object, owners above dependents', 'graph-02-show', async () => {
    await wb.runCommand('Kubernetes GC: Show Ownership Graph');
    await wb.editorTab('Ownership Graph').waitFor(SLOW);
    // The 29 objects of examples/ plus the two virtual owners their stale references name (the old Deployment uid,
    // the ReplicaSet that was not exported).
    await expect.poll(() => graph().locator('.graph-svg g.node').count(), SLOW).toBe(31);
    expect(await graph().locator('.toolbar .source').innerText()).toBe('Workspace');
    expect(await graph().locator('.toolbar .counts').innerText()).toBe('31 of 31 objects');
    expect(await graph().locator('.graph-svg g.node.st-virtual').count()).toBe(2);
    expect(await graph().locator('.graph-svg g.node.st-stuck').count()).toBe(2); // legacy-mq and its RabbitmqCluster
    await wb.screenshot('graph-02-workspace');
  });

  step('a click on the Deployment reveals it in its manifest', 'graph-03-reveal', async () => {
    // Find it as a user would: search, Enter selects and centres the match.
    await graph().locator('input.search').fill('deployment checkout');
    await graph().locator('input.search').press('Enter');
    await expect.poll(() => graph().locator('.details h2').innerText()).toBe('Deployment checkout');
    await graph().locator('input.search').fill('');
    await graph().locator('input.search').press('Escape');
    await node(DEPLOYMENT_UID).click();
    // The manifest is shown beside the graph with the Deployment's name selected (the graph keeps the focus: the
    // editor's tab is the active one of its group, and its cursor is on the name once it is focused).
    await wb.page.locator('.editor-group-container .tab.active', { hasText: CHECKOUT }).waitFor(SLOW);
    await wb.editorTab(CHECKOUT).click();
    await wb.page.locator('.statusbar-item', { hasText: /Ln 17, Col \d+ \(8 selected\)/ }).waitFor(SLOW);
    await wb.screenshot('graph-03-revealed');
  });

  step('Simulate delete (Foreground) from the details panel plays the deletion out on the graph', 'graph-04-simulate', async () => {
    const details = graph().locator('.details');
    await details.locator('select').selectOption('Foreground');
    await details.locator('button', { hasText: 'Simulate delete' }).click();
    const timeline = graph().locator('footer.timeline');
    await timeline.waitFor(SLOW);
    // It opens with the Report's one-line summary, then the policy.
    expect(await timeline.locator('.timeline-title').innerText()).toMatch(/^Deleting Deployment storefront\/checkout: /);
    expect(await timeline.locator('.timeline-policy').innerText()).toBe('Simulated with the Foreground policy');
    // It plays on its own; jump to the end.
    await timeline.locator('button[aria-label="Last step"]').click();
    await expect.poll(() => node(DEPLOYMENT_UID).getAttribute('class')).toContain('ov-removed');
    // examples/README.md: the ReplicaSet and its four Pods go too (the GC settling the export), in removal order.
    expect(await graph().locator('.graph-svg g.node.ov-removed').count()).toBe(6);
    expect(await timeline.locator('.caption').innerText()).toMatch(/^Step (\d+)\/\1 · /);
    await wb.screenshot('graph-04-simulation-end');
    await timeline.locator('button[aria-label="First step"]').click();
    await expect.poll(() => graph().locator('.graph-svg g.node.ov-removed').count()).toBe(0);
    await timeline.locator('button', { hasText: 'Close' }).click();
  });

  step('the "Show in Graph" lens focuses the object\'s connected component', 'graph-05-lens', async () => {
    await wb.editorTab(CHECKOUT).click();
    await expect.poll(() => wb.codeLensAbove(7), SLOW).toMatch(/\| Show in Graph$/);
    const editor = wb.page.locator('.editor-group-container.active .monaco-editor');
    await editor.locator('.codelens-decoration a', { hasText: 'Show in Graph' }).first().click();
    await expect
      .poll(() => graph().locator('.focus-bar').innerText(), SLOW)
      .toContain('Showing the connected component of Deployment storefront/checkout');
    expect(await graph().locator('.graph-svg g.node').count()).toBe(1); // its ReplicaSet names the old uid: alone
    await wb.screenshot('graph-05-lens-focus');
    await graph().locator('.focus-bar button', { hasText: 'Show all' }).click();
    await expect.poll(() => graph().locator('.graph-svg g.node').count()).toBe(31);
  });

  step('after a window reload the panel comes back with its selection (panel serializer)', 'graph-06-reload', async () => {
    await node(DEPLOYMENT_UID).click();
    await expect.poll(() => node(DEPLOYMENT_UID).getAttribute('class')).toContain('selected');
    await wb.runCommand('Developer: Reload Window');
    await wb.editorTab('Ownership Graph').waitFor({ timeout: 60_000 });
    await wb.editorTab('Ownership Graph').click();
    await expect.poll(() => graph().locator('.graph-svg g.node').count(), { timeout: 60_000, interval: 500 }).toBe(31);
    await expect.poll(() => node(DEPLOYMENT_UID).getAttribute('class'), SLOW).toContain('selected');
    expect(await graph().locator('.details h2').innerText()).toBe('Deployment checkout');
    await wb.screenshot('graph-06-after-reload');
  });
});
