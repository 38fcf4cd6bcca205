// The packaged extension in code-server with workspace trust on: a copy of examples/ opened in Restricted Mode, whose
// own .vscode/settings.json names a kubeconfig it ships (its "cluster": a second Kubernetes API test server) and
// asks to connect on open. As a user: the manifests are checked as in a trusted folder; nothing connects by itself
// and the repository's cluster gets no request; Connect to Cluster reads the user's cluster (the kubeconfig of the
// user settings); trusting the folder, without a reload, moves the connection to the workspace's kubeconfig.
// The workspace writes its kubeconfig setting in the nested form ("kubeGcLens.cluster": {…}), with which VS Code 1.99
// serves both it and the flat autoConnect beside it even in Restricted Mode: the extension itself must ignore them
// (without that, it connects to the repository's cluster on open). Screenshots in test-output/e2e/restricted-*.png.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { seedShop } from '../cluster/clusterFixtures';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { step as story, Workbench } from './workbench';

const CHECKOUT = 'checkout-export.yaml';
const SLOW = { timeout: 30_000, interval: 200 };

let wb: Workbench;
/** The user's cluster (kubeconfig in the user settings) and the one the repository's settings name. */
let mine: KubeApiServer;
let repo: KubeApiServer;
let dir: string;

const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

/** Requests that would change something (the extension never sends one). */
function writes(api: KubeApiServer): number {
  const verbs = api.countByVerb();
  return ['create', 'update', 'patch', 'delete', 'deletecollection'].reduce((n, verb) => n + (verbs[verb] ?? 0), 0);
}

describe('Kube GC Lens in code-server, in Restricted Mode', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    mine = await startKubeApiServer({ token: 'mine-token' });
    repo = await startKubeApiServer({ token: 'repo-token' });
    seedShop(mine);
    seedShop(repo);
    dir = mkdtempSync(path.join(tmpdir(), 'kgl-e2e-restricted-'));
    const workspaceSettings = {
      // Nested first: a flat key after it adds to the object (the other way round, the object would replace it).
      'kubeGcLens.cluster': { kubeconfig: 'cluster/kubeconfig' },
      'kubeGcLens.cluster.autoConnect': true,
    };
    wb = await Workbench.start(inject('vsix'), {
      name: 'code-server-restricted',
      workspaceTrust: true,
      settings: { 'kubeGcLens.cluster.kubeconfig': mine.writeKubeconfig(dir, { context: 'mine' }) },
      files: {
        '.vscode/settings.json': JSON.stringify(workspaceSettings, null, 2),
        // No .yaml extension: not a manifest of the workspace.
        'cluster/kubeconfig': repo.kubeconfig({ context: 'repo-cluster' }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await wb?.close();
    await mine?.close();
    await repo?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  step('opens in Restricted Mode and checks the manifests as usual; nothing connects by itself', 'restricted-01-problems', async () => {
    await wb.page.goto(wb.server.folderUrl);
    await wb.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'deployment-export-from-another-cluster' })
      .waitFor({ timeout: 60_000 });
    await wb.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor(SLOW);
    await wb.openFile(CHECKOUT);
    await wb.showProblems();
    await expect.poll(() => wb.problemCodesByFile(), SLOW).toMatchObject({ [CHECKOUT]: ['owner-uid-mismatch', 'dangling-owner'] });
    // The server runs (it published): an automatic connect would have begun by now.
    const off = wb.page.locator('.statusbar-item', { hasText: 'Cluster: off' });
    await off.waitFor(SLOW);
    expect(repo.requests).toHaveLength(0);
    expect(mine.requests).toHaveLength(0);
    await wb.screenshot('restricted-01-problems');
    // Its tooltip says what Restricted Mode changes.
    await wb.hoverUntilVisible(
      off,
      wb.page.locator('.workbench-hover', { hasText: "Restricted Mode: this workspace's own kubeGcLens.cluster settings" }),
    );
    await wb.screenshot('restricted-01-tooltip');
    await wb.page.mouse.move(700, 300);
  });

  step("Connect to Cluster reads the user's kubeconfig, not the workspace's", 'restricted-02-connect', async () => {
    await wb.runCommand('Kubernetes GC: Connect to Cluster');
    await wb.page.locator('.statusbar-item', { hasText: /Cluster mine: \d+ objects · all namespaces · (watching|degraded)/ }).waitFor(SLOW);
    expect(repo.requests).toHaveLength(0);
    expect(mine.requests.length).toBeGreaterThan(0);
    await wb.screenshot('restricted-02-connect');
  });

  step(
    "trusting the folder applies its settings at once: the connection moves to the workspace's kubeconfig",
    'restricted-03-trust',
    async () => {
      await wb.runCommand('Workspaces: Manage Workspace Trust');
      const editor = wb.page.locator('.workspace-trust-editor');
      await editor
        .locator('.monaco-button', { hasText: /^Trust$/ })
        .first()
        .click();
      await wb.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'detached', ...SLOW });
      await wb.page
        .locator('.statusbar-item', { hasText: /Cluster repo-cluster: \d+ objects · all namespaces · (watching|degraded)/ })
        .waitFor(SLOW);
      expect(repo.requests.length).toBeGreaterThan(0);
      expect(writes(repo) + writes(mine)).toBe(0);
      await wb.screenshot('restricted-03-trust');
    },
  );
});
