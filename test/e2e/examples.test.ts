// The packaged extension in a real VS Code (code-server 4.99.4, VS Code 1.99) on a copy of examples/, used as a
// newcomer uses it: open the workspace and the Get Started walkthrough, open a manifest from it, read the Problems
// panel, hover an ownerReference, read a code lens, run Simulate Delete from the command palette, open the Stuck
// Objects view and a way out's simulated report, apply a quick fix, edit a uid, and find the walkthrough's steps
// done. The expected findings are
// those of examples/README.md (and test/lsp/server.test.ts).
// The steps run in order on one window and build on each other (the quick fix and the edit change the copy).
// Each saves screenshots in test-output/e2e/; a failing one also saves NAME.failed.png and appends the end of
// the extension host's and the "Kube GC Lens" output channel's logs to its error.

import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { step as story, Workbench } from './workbench';

const CHECKOUT = 'checkout-export.yaml';
const STALE_UID = 'a476c896-f15e-4804-80d1-e7649d8b63f5';
const DEPLOYMENT_UID = '64b1c1b1-59ad-4af3-a756-871bd6965119';
const MISSING_REPLICASET_UID = '5f69b1da-1532-4816-8d14-13565b101981';
/** Diagnostics and predictions need the server to load the workspace and simulate: generous, never slept. */
const SLOW = { timeout: 30_000, interval: 200 };

let wb: Workbench;

/** One user step (workbench.ts): on failure, the error carries a screenshot and the logs. */
const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

describe('Kube GC Lens in code-server, on examples/', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    wb = await Workbench.start(inject('vsix'));
  }, 120_000);

  afterAll(async () => {
    await wb?.close();
  });

  step('a. opens the examples workspace: the workbench renders', '01-workbench', async () => {
    await wb.page.goto(wb.server.folderUrl);
    const explorer = wb.page.locator('.explorer-folders-view');
    await explorer.locator('.monaco-list-row', { hasText: 'deployment-export-from-another-cluster' }).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => explorer.locator('.monaco-list-row').allInnerTexts())
      .toEqual(
        expect.arrayContaining([
          'deployment-export-from-another-cluster',
          'jobs-and-cronjobs',
          'namespace-stuck-terminating',
          'operator-finalizers-kafka',
          'statefulset-with-volumes',
          'README.md',
        ]),
      );
    await wb.screenshot('01-workbench');
  });

  // The walkthrough service of VS Code starts when a walkthrough is first shown, and an `onContext` completion
  // event that already holds then never completes its step: a newcomer opens it before any manifest.
  step(
    'the Get Started walkthrough opens; its "Open a Manifest" button opens checkout-export.yaml and checks the step',
    '02-walkthrough',
    async () => {
      await wb.openWalkthrough();
      const steps = wb.page.locator('.gettingStartedContainer .getting-started-step');
      await expect
        .poll(() => steps.locator('.step-title').allInnerTexts())
        .toEqual(['Open a Kubernetes manifest', 'See what the garbage collector sees', 'Simulate a deletion', 'Find what is stuck']);
      // The first step's media: walkthrough/open-a-manifest.md from the .vsix, rendered.
      await expect.poll(() => wb.webview().locator('h1').innerText(), SLOW).toBe('Open a Kubernetes manifest');
      await wb.screenshot('02-walkthrough');
      const first = steps.filter({ hasText: 'Open a Kubernetes manifest' });
      expect(await first.locator('.codicon-getting-started-step-checked').count()).toBe(0);
      // Its button: Quick Open on the YAML files.
      await first.locator('a', { hasText: 'Open a Manifest' }).click();
      await expect.poll(() => wb.quickInputBox.inputValue()).toBe('.yaml');
      await wb.pick(undefined, CHECKOUT, CHECKOUT);
      await wb.page.locator('.editor-group-container.active .tab.active', { hasText: CHECKOUT }).waitFor();
      await wb.editorTab('Walkthrough: Kube GC Lens').click();
      await expect.poll(() => first.locator('.codicon-getting-started-step-checked').count()).toBe(1);
      await expect.poll(() => wb.webview().locator('h1').innerText(), SLOW).toBe('Open a Kubernetes manifest');
      await wb.screenshot('02-walkthrough-step-done');
      await wb.closeEditor('Walkthrough: Kube GC Lens');
    },
  );

  step('b. the Problems panel shows the owner-uid-mismatch and dangling-owner errors of checkout-export.yaml', '03-problems', async () => {
    await wb.openFile(CHECKOUT);
    await wb.showProblems();
    // The language server starts with the first Kubernetes document, loads the workspace, publishes.
    await expect.poll(() => wb.problemCodesByFile(), SLOW).toMatchObject({ [CHECKOUT]: ['owner-uid-mismatch', 'dangling-owner'] });
    expect(await wb.problemsOf(CHECKOUT)).toMatchObject([
      {
        severity: 'error',
        message: expect.stringContaining(
          `Deployment storefront/checkout exists with another uid (uid ${DEPLOYMENT_UID}); this reference names uid ${STALE_UID}`,
        ),
        source: 'kube-gc-lens',
        code: 'owner-uid-mismatch',
        line: '[Ln 111, Col 12]',
      },
      {
        severity: 'error',
        message: expect.stringContaining(`The owner ReplicaSet checkout-5b8c9d7f4 (uid ${MISSING_REPLICASET_UID}) is not in the input`),
        source: 'kube-gc-lens',
        code: 'dangling-owner',
        line: '[Ln 584, Col 12]',
      },
    ]);
    for (const code of ['owner-uid-mismatch', 'dangling-owner']) {
      expect(await wb.problemsPanel.locator('.marker-code', { hasText: code }).isVisible(), code).toBe(true);
    }
    await wb.screenshot('03-problems');
  });

  step('c. hovering the ownerReference uid on line 111 shows its owner, Deployment checkout, and its real uid', '04-hover', async () => {
    await wb.goTo(111, 12);
    const uid = wb
      .viewLine(STALE_UID)
      .locator('span span', { hasText: STALE_UID.slice(0, 8) })
      .first();
    const hover = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: 'Deployment storefront/checkout' });
    await wb.hoverUntilVisible(uid, hover);
    const text = await hover.innerText();
    expect(text).toContain('Owner: Deployment storefront/checkout');
    expect(text).toContain(`Deployment storefront/checkout exists with another uid, ${DEPLOYMENT_UID}`);
    await wb.screenshot('04-hover');
    await wb.page.mouse.move(0, 0);
    await wb.page.keyboard.press('Escape');
  });

  step('d. the code lens above the Deployment shows its deletion impact', '05-code-lens', async () => {
    await wb.page.keyboard.press('Control+Home'); // the Deployment starts on line 7, `- apiVersion: apps/v1`
    await expect(wb.viewLine('kind: Deployment').count()).resolves.toBe(1); // line 8
    await expect.poll(() => wb.codeLensAbove(7), SLOW).toMatch(/^Delete: /);
    // Nothing refers to this Deployment's uid (the ReplicaSet names the old one): deleting it deletes only it.
    // (The last lens, Show in Graph, opens the ownership graph on it: test/e2e/graph.test.ts.)
    expect(await wb.codeLensAbove(7)).toBe('Delete: only this Deployment | Show in Graph');
    await wb.screenshot('05-code-lens');
  });

  step('e. Simulate Delete from the command palette, Foreground: the report lists what is deleted', '06-simulate-delete', async () => {
    await wb.goTo(8, 9); // on `kind: Deployment`
    await wb.runCommand('Kubernetes GC: Simulate Delete');
    await wb.quickInput.locator('.quick-input-title', { hasText: 'Simulate Delete (1/2)' }).waitFor({ timeout: 15_000 });
    // The object at the cursor is offered first; pick it by name as a user types it.
    await expect
      .poll(() => wb.quickInputBox.getAttribute('placeholder'))
      .toBe('Delete Deployment storefront/checkout, or pick another object');
    await wb.pick('Simulate Delete (1/2)', 'Deployment storefront/checkout', /Deployment storefront\/checkout.*at cursor/);
    await wb.pick('Simulate Delete (2/2)', 'Foreground', 'Foreground');
    const title = 'Simulate Delete: Deployment storefront/checkout (Foreground)';
    await wb.editorTab(title).waitFor({ timeout: 30_000 });
    const report = wb.webview();
    await expect.poll(() => report.locator('h1').innerText(), SLOW).toBe(title);
    // The report leads with what this DELETE causes: the foreground DELETE removes the Deployment.
    await expect.poll(() => report.locator('h2', { hasText: /^Deleted by/ }).innerText()).toBe('Deleted by this DELETE (1)');
    const deleted = await report.locator('h2:has-text("Deleted by") + p + ul > li').allInnerTexts();
    expect(deleted.map((d) => d.replace(/: step \d+.*$/, ''))).toEqual(['Deployment storefront/checkout']);
    await expect.poll(() => report.locator('h2', { hasText: /^Orphaned/ }).innerText()).toBe('Orphaned by this DELETE (0)');
    // examples/README.md: the GC first settles the input anyway (the export's ReplicaSet and its Pods go; legacy-mq and
    // its RabbitmqCluster stay stuck), in a collapsed section.
    const anyway = report.locator('details > summary', { hasText: 'What the garbage collector does anyway' });
    await expect.poll(() => anyway.innerText()).toContain(': 5 deleted, 2 stuck, 0 orphaned');
    const settled = await report.locator('details:has(> summary:has-text("What the garbage collector does anyway")) li').allTextContents();
    expect(settled.filter((d) => /^(ReplicaSet|Pod) /.test(d)).map((d) => d.replace(/: step \d+.*$/, ''))).toEqual([
      'ReplicaSet storefront/checkout-7d9f8b6c5d',
      'Pod storefront/checkout-5b8c9d7f4-w9pzn',
      'Pod storefront/checkout-7d9f8b6c5d-x7k2p',
      'Pod storefront/checkout-7d9f8b6c5d-q4nzw',
      'Pod storefront/checkout-7d9f8b6c5d-m8vtr',
    ]);
    await wb.screenshot('06-simulate-delete');
    await wb.closeEditor(title); // done reading
  });

  step('f. the Stuck Objects view lists the stuck namespace legacy-mq with its reason', '07-stuck-objects', async () => {
    await wb.runCommand('Kubernetes GC: Show Stuck Objects');
    const view = wb.treeView('Stuck Objects');
    const namespace = view.locator('.monaco-list-row[aria-level="1"]', { hasText: 'Namespace legacy-mq' });
    await namespace.waitFor(SLOW);
    // examples/README.md, namespace-stuck-terminating: the Namespace and the RabbitmqCluster that holds it are stuck;
    // the kafka story's two Kafkas are predicted deadlocks.
    await expect
      .poll(() => wb.treeRows(view))
      .toEqual([
        { level: 1, label: 'Namespace legacy-mq', description: expect.stringMatching(/^stuck terminating · 7d$/) },
        { level: 1, label: 'RabbitmqCluster legacy-mq/orders', description: expect.stringMatching(/^stuck terminating · 7d$/) },
        { level: 1, label: 'Kafka kafka/my-cluster', description: 'predicted finalizer deadlock' },
        { level: 1, label: 'Kafka kafka/audit-cluster', description: 'predicted finalizer deadlock' },
      ]);
    // Expand it: the why-chain's first link is the reason.
    await namespace.locator('.monaco-tl-twistie').click();
    await expect
      .poll(async () => (await wb.treeRows(view))[1])
      .toEqual({
        level: 2,
        label: 'namespace content',
        description: expect.stringContaining(
          'NamespaceContentRemaining: Some resources are remaining: rabbitmqclusters.rabbitmq.com has 1 resource instances',
        ),
      });
    // Widen the side bar to read the descriptions, then give the editor its room back.
    const width = (await wb.page.locator('.part.sidebar').boundingBox())?.width ?? 300;
    await wb.resizeSideBar(760);
    await wb.screenshot('07-stuck-objects');
    await wb.resizeSideBar(Math.round(width));
  });

  step(
    "a way out's click opens its whole simulated report: removing the RabbitmqCluster's finalizer releases it",
    '07-way-out-report',
    async () => {
      const view = wb.treeView('Stuck Objects');
      const finalizer = 'deletion.finalizers.rabbitmqclusters.rabbitmq.com';
      const row = view.locator('.monaco-list-row[aria-level="2"]', {
        hasText: `Way out (dangerous): Remove the finalizer ${finalizer} from RabbitmqCluster legacy-mq/orders`,
      });
      await row.waitFor(SLOW);
      await row.locator('.label-name').click();
      const title = `Simulate: Removing finalizer ${finalizer} from RabbitmqCluster legacy-mq/orders`;
      await wb.editorTab(title).waitFor({ timeout: 30_000 });
      const report = wb.webview();
      await expect.poll(() => report.locator('h1').innerText(), SLOW).toBe(title);
      // The change, said as one (not a DELETE), and what it releases: the RabbitmqCluster, then its namespace.
      await expect
        .poll(async () => (await report.locator('li', { hasText: 'Request: PATCH' }).first().innerText()).trim())
        .toBe(`Request: PATCH RabbitmqCluster legacy-mq/orders: remove finalizer ${finalizer}; it is deleted`);
      await expect.poll(() => report.locator('h2', { hasText: /^Deleted by/ }).innerText()).toBe('Deleted by this change (2)');
      const deleted = await report.locator('h2:has-text("Deleted by") ~ ul > li').allInnerTexts();
      expect(deleted.map((d) => d.replace(/: step \d+.*$/, ''))).toEqual(
        expect.arrayContaining(['RabbitmqCluster legacy-mq/orders', 'Namespace legacy-mq']),
      );
      // What the finalizer was protecting, as a warning.
      await expect.poll(() => report.locator('h2:has-text("Notes") + ul').innerText()).toContain(`Removing ${finalizer}:`);
      await wb.screenshot('07-way-out-report');
      await wb.closeEditor(title);
    },
  );

  step('g. the quick fix "Remove the ownerReference…" removes the dangling reference; its diagnostic goes', '08-quick-fix', async () => {
    await wb.editorTab(CHECKOUT).click();
    await wb.goTo(584, 12);
    await expect(wb.viewLine(MISSING_REPLICASET_UID).count()).resolves.toBe(1);
    await wb.page.keyboard.press('Control+.');
    // The menu: arrow down to the fix (as a user does: the menu blocks the mouse elsewhere), Enter.
    const actions = wb.page.locator('.action-widget .monaco-list-row.action');
    const fixTitle = 'Remove the ownerReference to ReplicaSet checkout-5b8c9d7f4';
    await actions.filter({ hasText: fixTitle }).waitFor();
    for (
      let i = await actions.count();
      i > 0 && !(await actions.filter({ hasText: fixTitle }).getAttribute('class'))?.includes('focused');
      i--
    ) {
      await wb.page.keyboard.press('ArrowDown');
    }
    await actions.and(wb.page.locator('.focused')).filter({ hasText: fixTitle }).waitFor();
    await wb.screenshot('08-quick-fix-menu');
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => wb.viewLine(MISSING_REPLICASET_UID).count()).toBe(0);
    await expect.poll(() => wb.problemCodesByFile(), SLOW).toMatchObject({ [CHECKOUT]: ['owner-uid-mismatch'] });
    await wb.screenshot('08-quick-fix-applied');
  });

  step('h. typing the real Deployment uid over the stale one on line 111 clears owner-uid-mismatch', '09-edit-uid', async () => {
    await wb.goTo(111, 12);
    await wb.page.keyboard.press('Shift+End');
    await wb.page.keyboard.type(DEPLOYMENT_UID);
    await wb.page.keyboard.press('Escape'); // word suggestions, if any
    await expect.poll(() => wb.viewLine(STALE_UID).count()).toBe(0);
    await expect.poll(() => wb.viewLine(`uid: ${DEPLOYMENT_UID}`).count()).toBe(1);
    // checkout-export.yaml has no problem left; the other stories' findings are still there.
    await expect
      .poll(() => wb.problemCodesByFile(), SLOW)
      .toEqual({
        'legacy-mq-namespace.yaml': ['stuck-terminating'],
        'orders-rabbitmqcluster.yaml': ['stuck-terminating'],
        'kafka-clusters-export.yaml': ['finalizer-deadlock', 'finalizer-deadlock'],
      });
    await wb.screenshot('09-edit-uid');
    // The ReplicaSet is the Deployment's again: the lens above the Deployment counts it and its three Pods.
    await wb.page.keyboard.press('Control+Home');
    await expect.poll(() => wb.codeLensAbove(7), SLOW).toBe('Delete: also 1 ReplicaSet, 3 Pods | Show in Graph');
    await wb.screenshot('09-edit-uid-code-lens');
  });

  step('the walkthrough checks the steps done above: Problems, Simulate Delete, Stuck Objects', '10-walkthrough-done', async () => {
    await wb.openWalkthrough();
    const checked = wb.page.locator('.gettingStartedContainer .getting-started-step', {
      has: wb.page.locator('.codicon-getting-started-step-checked'),
    });
    await expect
      .poll(() => checked.locator('.step-title').allInnerTexts())
      .toEqual(['Open a Kubernetes manifest', 'See what the garbage collector sees', 'Simulate a deletion', 'Find what is stuck']);
    await expect.poll(() => wb.webview().locator('h1').innerText(), SLOW).toBe('Open a Kubernetes manifest');
    await wb.screenshot('10-walkthrough-done');
  });
});
