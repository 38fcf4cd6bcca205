// A reader that stops early (`kubectl gc check … | head`) closes the pipe: the CLI stops quietly, without a stack
// trace, as any Unix tool does.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'kgl-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('stops quietly when its output pipe is closed', async () => {
  const items = Array.from({ length: 20_000 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `cm-${i}`,
      namespace: 'n',
      uid: `u-${i}`,
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'gone' }],
    },
  }));
  writeFileSync(join(dir, 'many.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'check', '-f', join(dir, 'many.json')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Read one chunk, then close the pipe, as `head -c` does; 20,000 findings, written line by line, are far more than a pipe holds.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(1); // check's own exit code: findings at --fail-on
});
