// Large and deep inputs (issue 13, defect 3): each one loads in a child node process limited to a 1 GB heap, so
// an out-of-memory crash is a failure here and not a dead test runner. Work is bounded by the result (one
// located error; the good documents around it still load), never by a measured duration: the machine is noisy.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEEP_INPUTS } from './deepInputs';

interface ChildResult {
  lines: number;
  middle?: { first: number; last: number };
  objects: string[];
  problems: { code: string; severity: string; line: number; column: number; reason: string }[];
  ms: number;
  heapMB: number;
}

let dir = '';
let child = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kube-gc-lens-deep-'));
  child = join(dir, 'deepChild.js');
  await build({
    entryPoints: [join(__dirname, 'deepChild.ts')],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function load(name: string): ChildResult {
  const r = spawnSync(process.execPath, ['--max-old-space-size=1024', child, name], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const how = r.signal ? `killed by ${r.signal}${r.error ? ` (${r.error.message})` : ''}` : `exit code ${r.status}`;
  if (r.status !== 0) throw new Error(`the load of "${name}" did not finish: ${how}\n${r.stderr.split('\n').slice(-12).join('\n')}`);
  return JSON.parse(r.stdout) as ChildResult;
}

describe('large and deep inputs (child process, 1 GB heap)', () => {
  it.each(DEEP_INPUTS.map((i) => [i.name, i] as const))(
    '%s',
    (_name, input) => {
      const r = load(input.name);
      for (const p of r.problems) {
        expect(p.line, `${p.code} at ${p.line}:${p.column}`).toBeGreaterThanOrEqual(1);
        expect(p.line).toBeLessThanOrEqual(r.lines);
        expect(p.column).toBeGreaterThanOrEqual(1);
      }
      const errors = r.problems.filter((p) => p.severity === 'error');
      if (input.expect === 'deep') {
        expect(errors, JSON.stringify(r.problems.slice(0, 5))).toHaveLength(1);
        expect(errors[0].code).toBe('too-deep');
        // Bounded: not one problem per level.
        expect(r.problems.length).toBeLessThanOrEqual(3);
        // Located in the deep document, not in a good one around it.
        if (r.middle) {
          expect(errors[0].line).toBeGreaterThanOrEqual(r.middle.first);
          expect(errors[0].line).toBeLessThanOrEqual(r.middle.last);
        }
      } else {
        expect(errors).toEqual([]);
        expect(r.objects).toContain('ConfigMap/long');
      }
      if (input.around) expect(r.objects).toEqual(expect.arrayContaining(['ConfigMap/first', 'ConfigMap/third']));
    },
    150_000,
  );
});
