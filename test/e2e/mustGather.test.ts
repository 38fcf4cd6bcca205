// A real cluster's dump in a real VS Code (code-server 4.99.4): the OpenShift 4.8 must-gather of ../shared/corpus
// (1,875 files, 42 MB, 2,951 objects: too large for test/fixtures, so it is copied from the corpus at test time, and
// the story is skipped where the corpus is not next to the repository). One story, as a user: open it and read the
// status bar and the Problems panel (the ingress canary's lower-case `kind: daemonset` owner); Show Ownership Graph
// opens at the overview (one box per namespace with its counts); a click on openshift-machine-api's box zooms in
// to its objects; Simulate delete on its Namespace plays the deletion out, opening with the report's one line (a
// finalizer deadlock) and zoomed to the objects it affects.
// Screenshots in test-output/e2e/must-gather-*.png; a failing step adds must-gather-*.failed.png and the logs.

import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { ROOT, step as story, Workbench } from './workbench';

const DUMP = path.join(ROOT, '..', 'shared', 'corpus', 'cluster-dumps', 'openshift-must-gather-aws', 'must-gather-aws');
/** The archive's one folder (named after the must-gather image), which holds namespaces/ and the rest. */
const GATHERED = existsSync(DUMP) ? readdirSync(DUMP).map((f) => path.join(DUMP, f))[0] : undefined;
const NAMESPACE = 'openshift-machine-api';
const LOAD = { timeout: 90_000, interval: 500 };
const SLOW = { timeout: 30_000, interval: 200 };

let wb: Workbench;

/** One user step (workbench.ts): on failure, the error carries a screenshot and the logs. */
const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

/** The graph webview's page (the last webview opened). */
const graph = () => wb.webview();
const graphArea = () => graph().locator('.graph');

/**
 * Moves the mouse over the graph on a grid until its tooltip (what is under the mouse: a namespace's box at the
 * overview, an object when zoomed in) matches `text`; resolves at that point, undefined when nothing matched.
 */
async function pointAt(text: RegExp, gridStep = 30): Promise<{ x: number; y: number; title: string } | undefined> {
  const box = await graphArea().boundingBox();
  if (!box) throw new Error('the graph has no box');
  for (let y = box.y + gridStep / 2; y < box.y + box.height; y += gridStep) {
    for (let x = box.x + gridStep / 2; x < box.x + box.width; x += gridStep) {
      await wb.page.mouse.move(x, y);
      const title = (await graphArea().getAttribute('title')) ?? '';
      if (text.test(title)) return { x, y, title };
    }
  }
  return undefined;
}

describe.skipIf(GATHERED === undefined)('the OpenShift must-gather (../shared/corpus) in code-server', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    wb = await Workbench.start(inject('vsix'), { name: 'code-server-must-gather', folder: GATHERED, workspaceName: 'must-gather' });
  }, 120_000);

  afterAll(async () => {
    await wb?.close();
  });

  step('opens the must-gather: the status bar counts its 2,951 objects once they are read', 'must-gather-01-open', async () => {
    await wb.page.goto(wb.server.folderUrl);
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'cluster-scoped-resources' }).waitFor({ timeout: 60_000 });
    // Ctrl+P: many folders have a core/services.yaml; the path picks the canary's.
    await wb.page.keyboard.press('Control+P');
    await wb.quickInputBox.fill('openshift-ingress-canary/core/services.yaml');
    await wb.focusedQuickInputRow('openshift-ingress-canary').waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.editor-group-container.active .tab.active', { hasText: 'services.yaml' }).waitFor();
    // 3,023 objects with a uid, 72 of them listed twice (test/realData); 6 finalizer deadlocks, 2 canary references.
    await wb.page.locator('.statusbar-item', { hasText: 'Kube GC: 2951 objects · 8 findings · 0 stuck' }).waitFor(LOAD);
    await wb.screenshot('must-gather-01-opened');
  });

  step(
    "the Problems panel has the must-gather's findings: the canary's lower-case daemonset owner",
    'must-gather-02-problems',
    async () => {
      await wb.showProblems();
      // Only the canary's problems (the panel's filter), so every row is rendered.
      await wb.page.keyboard.press('Control+F');
      await wb.page.keyboard.type('openshift-ingress-canary');
      await expect.poll(async () => (await wb.problemCodesByFile())['services.yaml'], SLOW).toEqual(['unresolvable-owner-kind']);
      expect((await wb.problemCodesByFile())['routes.yaml']).toEqual(['unresolvable-owner-kind']);
      const [problem] = await wb.problemsOf('services.yaml');
      expect(problem.message).toMatch(/kind daemonset, not DaemonSet \(kinds are case-sensitive\)\. Did you mean DaemonSet\?$/);
      await wb.screenshot('must-gather-02-problems');
      await wb.page.keyboard.press('Control+A');
      await wb.page.keyboard.press('Delete');
      // The panel, the side bar and the manifest close: the graph gets the whole window, as one reads a big graph.
      await wb.page.keyboard.press('Control+J');
      await wb.problemsPanel.waitFor({ state: 'hidden' });
      await wb.page.keyboard.press('Control+B');
      await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
      await wb.closeEditor('services.yaml');
    },
  );

  step('Show Ownership Graph opens at the overview: one box per namespace, with its counts', 'must-gather-03-overview', async () => {
    await wb.runCommand('Kubernetes GC: Show Ownership Graph');
    await wb.editorTab('Ownership Graph').waitFor(SLOW);
    await expect.poll(() => graph().locator('.toolbar .counts').innerText(), LOAD).toBe('2951 of 2951 objects');
    await expect.poll(() => graphArea().getAttribute('data-level'), SLOW).toBe('overview');
    const boxes = await graph().locator('ul.overview-list li').allTextContents();
    expect(boxes).toContain('openshift-monitoring: 228 objects');
    expect(boxes).toContainEqual(expect.stringMatching(new RegExp(`^${NAMESPACE}: \\d+ objects$`)));
    await wb.screenshot('must-gather-03-overview');
  });

  step(`a click on ${NAMESPACE}'s box zooms in to its objects`, 'must-gather-04-zoom', async () => {
    const target = await pointAt(new RegExp(`^${NAMESPACE}: \\d+ objects.*\\(click to zoom in\\)$`));
    expect(target, `no point of the overview shows ${NAMESPACE}'s box`).toBeDefined();
    await wb.page.mouse.click(target!.x, target!.y);
    await expect.poll(() => graphArea().getAttribute('data-level'), SLOW).toBe('objects');
    expect(await graph().locator('ul.overview-list li').count()).toBe(0);
    // What is under the mouse now is an object of that namespace (the canvas's tooltip: kind, namespace/name, state).
    const object = await pointAt(new RegExp(`${NAMESPACE}/`), 40);
    expect(object, `no object of ${NAMESPACE} under the mouse`).toBeDefined();
    await wb.screenshot('must-gather-04-namespace');
  });

  step(`Simulate delete on Namespace ${NAMESPACE} plays it out, zoomed to what it affects`, 'must-gather-05-simulate', async () => {
    const search = graph().locator('input.search');
    await search.fill(`namespace ${NAMESPACE}`);
    await search.press('Enter');
    await expect.poll(() => graph().locator('.details h2').innerText(), SLOW).toBe(`Namespace ${NAMESPACE}`);
    await search.fill('');
    await search.press('Escape');
    // Zoomed out to the overview first (0: Fit), so that the playback has to find the objects it affects.
    await graphArea().press('0');
    await expect.poll(() => graphArea().getAttribute('data-level'), SLOW).toBe('overview');
    await graph().locator('.details button', { hasText: 'Simulate delete' }).click();
    const timeline = graph().locator('footer.timeline');
    await timeline.waitFor(SLOW);
    // The report's one line: the Machines' finalizer outlives the controller that removes it.
    expect(await timeline.locator('.timeline-title').innerText()).toMatch(
      new RegExp(
        `^Deleting Namespace ${NAMESPACE}: it stays Terminating \\(finalizer deadlock: Deployment ${NAMESPACE}/machine-api-controllers, .*\\), \\d+ objects deleted .*, 7 stuck, 0 orphaned$`,
      ),
    );
    // Zoomed to the objects it affects: names are drawn again, and they are the namespace's.
    await expect.poll(() => graphArea().getAttribute('data-level'), SLOW).toBe('objects');
    await timeline.locator('button[aria-label="Last step"]').click();
    await expect.poll(() => timeline.locator('.caption').innerText(), SLOW).toMatch(/^Step (\d+)\/\1 · .* · end: 7 stuck$/);
    const object = await pointAt(new RegExp(`${NAMESPACE}/`), 40);
    expect(object, `no object of ${NAMESPACE} in view after the playback zoomed`).toBeDefined();
    await wb.screenshot('must-gather-05-simulation-end');
  });
});
