// Tests that spawn the built binaries, and the webview tests that load the built bundle in Chromium, need a fresh
// build: bundle once before the run (about a second).
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['esbuild.mjs', 'cli', 'server', 'webview'], { stdio: 'inherit' });
}
