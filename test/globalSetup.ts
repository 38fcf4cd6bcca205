// Tests that spawn the built binaries, and the webview tests that load the built bundle in Chromium, need a fresh
// build: bundle once before the run (about a second). The webview tests also need Debian's Chromium: on a fresh
// machine it is installed here, as the end-to-end setup would (scripts/setupCodeServer.sh: apt, then code-server
// into .cache/), so that `npm ci && npm test` stays the whole set-up. If that cannot be done here, the webview tests
// fail saying why (testkit/webview/harness.ts) and every other test still runs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureCodeServer } from '../scripts/codeServer.mjs';
import { CHROMIUM } from '../testkit/webview/harness';

export default function setup(): void {
  execFileSync(process.execPath, ['esbuild.mjs', 'cli', 'server', 'webview'], { stdio: 'inherit' });
  if (!existsSync(CHROMIUM)) {
    try {
      ensureCodeServer();
    } catch (e) {
      process.stderr.write(`Installing Chromium for the webview tests failed: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
}
