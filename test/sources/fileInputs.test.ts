// Issue 13, defects 4 and 5: only regular files are read, never past the size limit, and an entry of a folder that
// cannot be read is reported while the rest loads.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBounded, readBoundedSync } from '../../server/src/sources/boundedRead';
import { loadPaths } from '../../server/src/sources/files';
import { readWorkspaceFile, readWorkspaceFileSync } from '../../server/src/sources/workspaceFiles';

const root = mkdtempSync(join(tmpdir(), 'kgl-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: n\n`;
const fifo = (p: string) => spawnSync('mkfifo', [p]).status === 0;

/** Runs the CLI; a FIFO that blocked it would leave it running, so the test's own timeout ends it. */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('only regular files are read (defect 4)', () => {
  it('refuses a FIFO without blocking, named or found in a folder', async () => {
    const dir = join(root, 'fifo');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.yaml'), cm('a'));
    expect(fifo(join(dir, 'pipe.yaml'))).toBe(true);
    const r = await loadPaths([dir]);
    expect(r.objects.map((o) => o.name)).toEqual(['a']);
    expect(r.problems.map((p) => [p.code, p.file, p.reason])).toEqual([
      ['unreadable', join(dir, 'pipe.yaml'), expect.stringContaining('a FIFO (named pipe), and only regular files are read')],
    ]);
    const named = await cli(['check', '-f', join(dir, 'pipe.yaml')]);
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('it is a FIFO (named pipe)');
  });

  it('refuses a character device (/dev/zero, which never ends) at once', async () => {
    const r = await loadPaths(['/dev/zero']);
    expect(r.problems.map((p) => [p.code, p.reason])).toEqual([
      ['unreadable', 'Cannot read /dev/zero: it is a character device, and only regular files are read (give - to read standard input).'],
    ]);
    const named = await cli(['check', '-f', '/dev/zero']);
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('/dev/zero: Cannot read /dev/zero: it is a character device');
    expect(readWorkspaceFileSync('/dev/zero')).toBeUndefined();
    expect(await readWorkspaceFile('/dev/zero')).toEqual({ error: 'zero is not a regular file; it is not loaded.' });
  });

  it('stops reading at the limit, whatever size the file reported (/proc files report 0)', async () => {
    expect(await readBounded('/proc/self/status', 64)).toEqual({ refused: 'too-large', size: undefined });
    expect(readBoundedSync('/proc/self/status', 64)).toEqual({ refused: 'too-large', size: undefined });
    const whole = await readBounded('/proc/self/status', 1 << 20);
    expect('bytes' in whole && whole.bytes.toString()).toContain('Name:');
    writeFileSync(join(root, 'k.yaml'), 'x'.repeat(100));
    expect(await readBounded(join(root, 'k.yaml'), 99)).toEqual({ refused: 'too-large', size: 100 });
    expect(await readBounded(join(root, 'k.yaml'), 100)).toEqual({ bytes: Buffer.from('x'.repeat(100)) });
  });
});

describe('an unreadable entry of a folder is reported, and the rest loads (defect 5)', () => {
  it('a dangling symlink and a symlink loop', async () => {
    const dir = join(root, 'links');
    mkdirSync(dir);
    for (const n of ['a', 'b', 'c']) writeFileSync(join(dir, `${n}.yaml`), cm(n));
    symlinkSync('nowhere.yaml', join(dir, 'dangling.yaml'));
    symlinkSync('loop.yaml', join(dir, 'loop.yaml'));
    symlinkSync('nowhere', join(dir, 'dangling-folder'));
    const r = await loadPaths([dir]);
    expect(r.objects.map((o) => o.name)).toEqual(['a', 'b', 'c']);
    expect(r.problems.map((p) => [p.code, p.reason])).toEqual([
      ['unreadable', `Cannot read ${join(dir, 'dangling.yaml')}: no such file or folder.`],
      ['unreadable', `Cannot read ${join(dir, 'loop.yaml')}: too many levels of symbolic links.`],
    ]);
    const run = await cli(['check', '-f', dir, '-o', 'json']);
    expect(run.status).not.toBe(2); // not "unreadable input": the three files are answered
    expect(run.stderr).toBe('');
    const json = JSON.parse(run.stdout) as { objects: number; skipped: { file: string; code: string }[] };
    expect(json.objects).toBe(3);
    expect(json.skipped.map((p) => [p.code, p.file])).toEqual([
      ['unreadable', join(dir, 'dangling.yaml')],
      ['unreadable', join(dir, 'loop.yaml')],
    ]);
  });

  it('a path named on the command line that cannot be read is still bad usage (exit 2)', async () => {
    const run = await cli(['check', '-f', join(root, 'missing.yaml')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no such file or folder');
  });
});
