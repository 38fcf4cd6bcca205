// The end-to-end project's setup: installs code-server and its Debian packages when they are missing
// (scripts/setupCodeServer.sh: about 4.5 minutes on a fresh machine, instant once cached in .cache/), so the README's
// `npm ci && npm test` does all the set-up on a fresh machine; then packages the extension once for every e2e
// file (`npm run package`, about 2 s). If the installation cannot be done here (no root for apt, no network to the
// npm registry), the e2e tests fail with the reason in their beforeAll and every other test still runs.

import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  codeServerInstallDir,
  CODE_SERVER_VERSION,
  defaultVsix,
  ensureCodeServer,
  isCodeServerInstalled,
} from '../../scripts/codeServer.mjs';
import { CHROMIUM, OUTPUT_DIR } from './workbench';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packaged extension. */
    vsix: string;
    /** Why the end-to-end tests cannot run here ('' when they can). */
    e2eMissing: string;
  }
}

const ROOT = path.resolve(__dirname, '../..');

export default function setup(project: TestProject): void {
  const missing: string[] = [];
  let setupError = '';
  if (!isCodeServerInstalled() || !existsSync(CHROMIUM)) {
    try {
      ensureCodeServer();
    } catch (e) {
      setupError = ` (scripts/setupCodeServer.sh was run and failed: ${e instanceof Error ? e.message : String(e)})`;
    }
  }
  if (!isCodeServerInstalled()) missing.push(`code-server ${CODE_SERVER_VERSION} (not installed in ${codeServerInstallDir()})`);
  if (!existsSync(CHROMIUM)) missing.push(`Chromium (${CHROMIUM} does not exist)`);
  project.provide(
    'e2eMissing',
    missing.length === 0
      ? ''
      : `The end-to-end tests drive the packaged extension in code-server through Chromium, and this machine lacks ${missing.join(' and ')}. ` +
          `Run scripts/setupCodeServer.sh (it installs code-server 4.99.4 into .cache/, or $KUBE_GC_LENS_CACHE, and its Debian packages, chromium included, with apt: root or sudo), then run the tests again${setupError}.`,
  );
  if (missing.length === 0) execFileSync(process.execPath, [path.join(ROOT, 'scripts/package.mjs')], { cwd: ROOT, stdio: 'inherit' });
  // Screenshots of this run only (every e2e file writes there).
  rmSync(OUTPUT_DIR, { recursive: true, force: true });
  project.provide('vsix', defaultVsix());
}
