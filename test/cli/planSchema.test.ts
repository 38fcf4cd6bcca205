// `simulate --plan` refuses what kube-apiserver would refuse, and every plan the text alone makes unreadable, with
// exit 2 and the file's line and column (issue 23, defect 5: it took grace periods of -5… 1e300, no request or 10,000
// of them, a duplicate `verb` that turned a DELETE into a scale, and failed with "internal error" on an alias bomb
// and a stack overflow on deep nesting). The table is the editor's too (test/lsp/planSchema.test.ts). The built CLI.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliProcess';
import { BAD_PLANS, GOOD_PLANS } from '../helpers/planCases';

const KAFKA = join(__dirname, '..', '..', 'examples', 'operator-finalizers-kafka');
const dir = mkdtempSync(join(tmpdir(), 'kgl-plan-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const planFile = (name: string, text: string) => {
  const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.plan`);
  writeFileSync(file, text);
  return file;
};

describe('simulate --plan refuses a bad plan: exit 2, located', () => {
  it.each(BAD_PLANS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const file = planFile(c.name, c.text);
    const r = await runCli(['simulate', '-f', KAFKA, '--plan', file]);
    expect(r.stderr).toBe(`error: ${file}:${c.at}: ${c.message}\nSee 'kubectl-gc --help' for usage.\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('simulate --plan runs a good one', () => {
  it.each(GOOD_PLANS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await runCli(['simulate', '-f', KAFKA, '--plan', planFile(c.name, c.text), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { targets: unknown[] };
    expect(report.targets).toHaveLength((JSON.parse(c.text) as { requests: unknown[] }).requests.length);
  });

  it('a negative grace period is taken, as kube-apiserver takes it (the engine reads it as 1 second, R1)', async () => {
    const r = await runCli(['simulate', '-f', KAFKA, '--plan', planFile('negative', GOOD_PLANS[0].text)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Deleting Kafka kafka/my-cluster: 1 object deleted (1 Kafka), 0 stuck, 0 orphaned');
  });
});

describe('simulate --plan reads the file bounded', () => {
  it('refuses a plan larger than 4 MB before parsing it, and a folder', async () => {
    const big = planFile('big', `# ${'x'.repeat(4 * 1024 * 1024)}\nrequests: []\n`);
    const r = await runCli(['simulate', '-f', KAFKA, '--plan', big]);
    expect(r.stderr).toBe(`error: cannot read plan ${big}: it is larger than the 4 MB limit of a plan\n`);
    expect(r.code).toBe(2);
    const folder = await runCli(['simulate', '-f', KAFKA, '--plan', dir]);
    expect(folder.stderr).toBe(`error: cannot read plan ${dir}: it is a folder\n`);
    expect(folder.code).toBe(2);
  });
});
