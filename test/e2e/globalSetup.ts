// The end-to-end project's setup: packages the extension once for every e2e file (`npm run package`, about
// 2 s), and says which prerequisites are missing instead of installing them (scripts/setupCodeServer.sh does
// that, with apt: .ci/run runs it before `npm ci && npm test`). The tests fail with that message in their
// beforeAll, so a machine without code-server still runs every other test.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { TestProject } from 'vitest/node';
import { codeServerInstallDir, CODE_SERVER_VERSION, defaultVsix, isCodeServerInstalled } from '../../scripts/codeServer.mjs';
import { CHROMIUM } from './workbench';

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
  if (!isCodeServerInstalled()) missing.push(`code-server ${CODE_SERVER_VERSION} (not installed in ${codeServerInstallDir()})`);
  if (!existsSync(CHROMIUM)) missing.push(`Chromium (${CHROMIUM} does not exist)`);
  project.provide('e2eMissing', missing.length === 0 ? '' : `The end-to-end tests drive the packaged extension in code-server through Chromium, and this machine lacks ${missing.join(' and ')}. `
    + 'Run scripts/setupCodeServer.sh (it installs code-server 4.99.4 into .cache/, or $KUBE_GC_LENS_CACHE, and its Debian packages, chromium included, with apt: root or sudo), then run the tests again.');
  if (missing.length === 0) execFileSync(process.execPath, [path.join(ROOT, 'scripts/package.mjs')], { cwd: ROOT, stdio: 'inherit' });
  project.provide('vsix', defaultVsix());
}
