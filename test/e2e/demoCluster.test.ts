// `npm run demo -- --cluster` as a newcomer runs it: scripts/demo.mjs starts the local control plane, writes examples/
// into it, prints kubectl gc's answers on it and the URL of code-server connected to it. This test runs that script
// (with the .vsix the e2e setup packaged), opens the printed URL in Chromium, sees the extension connect by itself,
// list the really stuck namespace legacy-mq and check the workspace's manifests against the cluster, pastes the
// printed kubectl command that un-sticks legacy-mq and sees it go, then presses Ctrl-C (SIGINT) and finds everything
// stopped and removed. Screenshots in test-output/e2e/demo-*.png.
// Skipped only where `go` is not on PATH (CI and the project's machines have it).

import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONTROL_PLANE_SKIP } from '../../testkit/cluster/controlPlane';
import { manifestsIn } from '../../testkit/cluster/seedCluster';
import { ROOT, step as story, Workbench } from './workbench';

const SLOW = { timeout: 30_000, interval: 200 };
if (CONTROL_PLANE_SKIP) console.warn(`test/e2e/demoCluster.test.ts ${CONTROL_PLANE_SKIP}`);

let demo: ChildProcess;
let exited: Promise<number | null>;
/** Everything the demo printed (stdout and stderr). */
let output = '';
let wb: Workbench;
/** The demo's temporary folder and the control plane's kubeconfig, as printed. */
let dir: string;
let kubeconfig: string;

const step = (title: string, name: string, body: () => Promise<void>): void => story(() => wb, title, name, body);

/** The first capture of `pattern` in what the demo printed. */
function printed(pattern: RegExp): string {
  const m = pattern.exec(output);
  if (!m) throw new Error(`the demo did not print ${pattern}:\n${output}`);
  return m[1];
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('npm run demo -- --cluster', () => {
  beforeAll(async () => {
    const missing = inject('e2eMissing');
    if (missing) throw new Error(missing);
    demo = spawn(process.execPath, [path.join(ROOT, 'scripts/demo.mjs'), '--cluster', '--vsix', inject('vsix')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((done) => demo.once('exit', (code) => done(code)));
    // The last line once code-server is up; a build of the control plane, if one is needed, comes before it.
    await new Promise<void>((resolve, reject) => {
      const read = (d: Buffer) => {
        output += d;
        if (output.includes('Ctrl-C stops code-server and the control plane.')) resolve();
      };
      demo.stdout!.on('data', read);
      demo.stderr!.on('data', read);
      void exited.then((code) => reject(new Error(`the demo exited (${code}) before code-server was up:\n${output}`)));
    });
    dir = printed(/Profile and logs: (\S+) \(removed on exit\)/);
    kubeconfig = printed(/kubeconfig (\S+)\n/);
    const codeServer = path.join(dir, 'code-server');
    wb = await Workbench.attach({
      folderUrl: printed(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m),
      logsDir: path.join(codeServer, 'user-data', 'logs'),
      logFile: path.join(codeServer, 'code-server.log'),
    });
  }, 900_000);

  afterAll(async () => {
    await wb?.close();
    if (demo && demo.exitCode === null && demo.signalCode === null) {
      demo.kill('SIGINT');
      await exited;
    }
  });

  it('writes every object of examples/ into the cluster, none refused, and kubectl gc finds legacy-mq stuck there', () => {
    const count = manifestsIn(path.join(ROOT, 'examples')).length;
    expect(output).toContain(`Created ${count} of the ${count} objects`);
    expect(output).toContain('\n0 refused.\n');
    expect(output).toContain(`$ kubectl-gc stuck --kubeconfig ${kubeconfig}\n`);
    expect(output).toMatch(/⧗ Namespace legacy-mq {2}terminating since/);
    // simulate ns/kafka on the live graph: the operator's Deployment goes, the namespace hangs on the Kafkas.
    expect(output).toMatch(
      /Deleted by the request \(\d+\)[^]*✗ Deployment kafka\/strimzi-cluster-operator[^]*Left stuck by the request \(\d+\)[^]*⧗ Namespace kafka\n/,
    );
  });

  step('the editor connects by itself and the Stuck Objects view lists the live namespace legacy-mq', 'demo-01-stuck', async () => {
    await wb.page.goto(printed(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m));
    await wb.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'namespace-stuck-terminating' })
      .waitFor({ timeout: 60_000 });
    await wb.openFile('checkout-export.yaml');
    await wb.page.locator('.statusbar-item', { hasText: /Cluster admin: \d+ objects · all namespaces · watching/ }).waitFor(SLOW);
    // (examples/ has legacy-mq too: the workspace's section is folded, so the row below is the live one)
    const view = await wb.showLiveStuckObjects('admin');
    const ns = view.locator('.monaco-list-row[aria-level="2"]', { hasText: 'Namespace legacy-mq' });
    await ns.waitFor(SLOW);
    expect(await ns.locator('.label-description').innerText()).toMatch(/^stuck terminating · \d+[smhd]/);
    await wb.screenshot('demo-01-stuck');
  });

  step("the exported checkout manifest is checked against the live cluster, whose uids are the server's", 'demo-02-problems', async () => {
    await wb.showProblems();
    await expect
      .poll(async () => (await wb.problemsOf('checkout-export.yaml')).map((p) => p.code), SLOW)
      .toEqual(expect.arrayContaining(['collected-on-apply', 'live-uid-conflict']));
    await wb.screenshot('demo-02-problems');
    await wb.runCommand('View: Hide Panel'); // room for the Stuck Objects view
  });

  step(
    'the printed kubectl command removes the finalizer: the real controllers finish legacy-mq and the view follows',
    'demo-03-unstuck',
    async () => {
      const command = printed(/^ {2}(npm run --silent control-plane -- kubectl .* patch rabbitmqcluster orders .*)$/m);
      execSync(command, { cwd: ROOT, stdio: 'pipe' });
      const view = wb.treeView('Stuck Objects');
      await view.locator('.monaco-list-row[aria-level="2"]', { hasText: 'Namespace legacy-mq' }).waitFor({ state: 'detached', ...SLOW });
      await wb.screenshot('demo-03-unstuck');
    },
  );

  it("Ctrl-C stops code-server and the control plane and removes the demo's folder and the control plane's", async () => {
    await wb.close();
    demo.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(path.dirname(kubeconfig))).toBe(false);
  });
});
