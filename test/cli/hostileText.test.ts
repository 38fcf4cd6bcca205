// Output that cannot be forged (issue 13, defect 9): names, finalizers, labels, status messages and file names
// full of terminal escapes, NUL, BEL, CR, LF (with a fake `file:line:col` finding after it) and a bidi override.
// The built kubectl-gc must print none of those bytes raw and no line that the input wrote, in every text output;
// its DOT must be what graphviz reads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

/** Terminal title (OSC … BEL), colour (CSI … m), NUL, BEL, CR, then a new line holding a fake finding, then U+202E. */
const EVIL = 'e\u001b]0;pwned\u0007\u001b[31mred\u0000nul\u0007bel\rcr\nfile.yaml:1:1: error forged-name: fake\u202eexe';
const FIN = 'example.com/f\u001b[31m\nfile.yaml:2:1: error forged-finalizer: fake';
const T = '2026-11-20T09:00:00Z';

/** Anything a terminal acts on or that starts a line, but the plain newline between output lines. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** Lines the input wrote: a fake location or the rest of a forged finding at the start of a line. */
const forgedLines = (out: string) => out.split('\n').filter((l) => /^\s*file\.yaml:\d+:\d+/.test(l) || /^\s*forged/.test(l));

let dir: string;
let hostile: string;
let badFile: string;

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectSafe(out: string) {
  const raw = RAW.exec(out);
  expect(
    raw &&
      `raw U+${raw[0].codePointAt(0)!.toString(16).padStart(4, '0')} near ${JSON.stringify(out.slice(Math.max(0, raw.index - 40), raw.index + 40))}`,
  ).toBeNull();
  expect(forgedLines(out)).toEqual([]);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kgl-hostile-'));
  const docs = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: 'demo', uid: 'u-owner' } },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: EVIL,
        namespace: 'demo',
        uid: 'u-evil',
        labels: { app: EVIL },
        finalizers: [FIN],
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-owner', blockOwnerDeletion: true },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone\nfile.yaml:3:1: error forged-owner: fake', uid: 'u-gone\u001b[2J' },
        ],
      },
    },
    // A Namespace whose controller reported a status condition: what a cluster (or its dump) says, shown as is.
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'legacy', uid: 'ns-legacy', deletionTimestamp: T },
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Terminating',
        conditions: [{ type: 'NamespaceContentRemaining', status: 'True', reason: 'Some\u001b[31m', message: `msg ${EVIL}` }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held\u001b]0;x\u0007"\\', namespace: 'legacy', uid: 'u-held', deletionTimestamp: T, finalizers: [FIN] },
    },
  ];
  // JSON is YAML: its \u escapes become the raw characters. The last document repeats a key (a load warning quoting it).
  const dup = '  "k\\e]0;pwned\\a\\nfile.yaml:4:1: error forged-key": "1"\n';
  hostile = join(dir, 'hostile.yaml');
  writeFileSync(
    hostile,
    docs.map((d) => JSON.stringify(d)).join('\n---\n') +
      '\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\n  namespace: demo\ndata:\n' +
      dup +
      dup,
  );
  // A file name that is a terminal escape and a fake finding; its document is not loaded (a template).
  badFile = join(dir, 'bad\u001b]0;pwned\u0007\nfile.yaml:9:9: error forged-path.yaml');
  writeFileSync(badFile, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('text output cannot be forged by the input', () => {
  it('check: findings and load problems show escapes, one line each', () => {
    const r = cli(['check', '-f', dir]);
    expect(r.code).toBe(1);
    expectSafe(r.stdout);
    expectSafe(r.stderr);
    // Still there, visibly: the escaped name, the escaped finalizer, the escaped path and the escaped duplicate key.
    expect(r.stdout).toContain(
      'ConfigMap demo/e\\x1b]0;pwned\\x07\\x1b[31mred\\x00nul\\x07bel\\rcr\\nfile.yaml:1:1: error forged-name: fake\\u202eexe',
    );
    expect(r.stdout).toContain('example.com/f\\x1b[31m\\nfile.yaml:2:1: error forged-finalizer: fake');
    expect(r.stdout).toMatch(/^ {2}\S*bad\\x1b\]0;pwned\\x07\\nfile\.yaml:9:9: error forged-path\.yaml:4:9: error template: /m);
    expect(r.stdout).toContain('the key "k\\x1b]0;pwned\\x07\\nfile.yaml:4:1: error forged-key" more than once');
    // Every line is ours: a finding or a problem starts with a real location in the input folder.
    for (const line of r.stdout.split('\n').filter((l) => l.includes(': error ') || l.includes(': warning '))) {
      expect(line.trimStart().startsWith(dir)).toBe(true);
    }
  });

  it('simulate: the timeline, the fates, the why-chains and the status conditions', () => {
    const r = cli(['simulate', '-f', dir, 'cm/owner', '-n', 'demo', '--show-settling', '-o', 'wide']);
    expect(r.code).toBe(0);
    expectSafe(r.stdout);
    expectSafe(r.stderr);
    expect(r.stdout).toContain('status: NamespaceContentRemaining (Some\\x1b[31m): msg e\\x1b]0;pwned');
    expect(r.stdout).toContain('lost its reference to uid u-gone\\x1b[2J');
    expect(r.stderr).toMatch(
      /^1 document\(s\) were not loaded:\n {2}\S*bad\\x1b\]0;pwned\\x07\\nfile\.yaml:9:9: error forged-path\.yaml:4:9: This document/,
    );
  });

  it('stuck: names, finalizers and reasons', () => {
    const r = cli(['stuck', '-f', dir]);
    expect(r.code).toBe(0);
    expectSafe(r.stdout);
    expectSafe(r.stderr);
    expect(r.stdout).toContain('⧗ ConfigMap legacy/held\\x1b]0;x\\x07');
    expect(r.stdout).toContain('finalizers: example.com/f\\x1b[31m\\nfile.yaml:2:1');
  });

  it('errors and warnings on stderr: a usage error quoting an argument', () => {
    const r = cli(['simulate', '-f', dir, 'configmap/x\u001b]0;pwned\u0007\nfile.yaml:5:5: error forged-arg']);
    expect(r.code).toBe(2);
    expectSafe(r.stderr);
    expect(r.stderr).toContain('configmaps "x\\x1b]0;pwned\\x07\\nfile.yaml:5:5: error forged-arg" not found');
  });

  it('a 1 MB name is shown cut, not in full', () => {
    // Its own folder: graphviz refuses quoted strings over 16 KB, so this one stays out of the DOT test's input.
    const long = mkdtempSync(join(tmpdir(), 'kgl-long-'));
    onTestFinished(() => rmSync(long, { recursive: true, force: true }));
    const name = 'n'.repeat(1024 * 1024);
    writeFileSync(
      join(long, 'long.json'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name,
          namespace: 'demo',
          uid: 'u-long',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u-x' }],
        },
      }),
    );
    const r = cli(['check', '-f', long]);
    expect(r.stdout).toContain('dangling-owner');
    expect(r.stdout).toMatch(/n…\(\d+ more characters\)/);
    expect(r.stdout.length).toBeLessThan(20_000);
    // JSON keeps the whole value.
    const j = cli(['check', '-f', long, '-o', 'json']);
    expect(JSON.parse(j.stdout).findings[0].object.name).toBe(name);
  });
});

describe('machine outputs', () => {
  const hasDot = spawnSync('dot', ['-V']).status === 0;

  function expectDot(text: string) {
    expect(text.replace(/\n/g, '')).not.toMatch(RAW);
    if (hasDot) {
      const r = spawnSync('dot', ['-Tsvg'], { input: text, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
  }

  it('simulate -o dot escapes as graph -o dot does, and graphviz reads both', () => {
    const sim = cli(['simulate', '-f', dir, 'cm/owner', '-n', 'demo', '-o', 'dot']);
    expect(sim.code).toBe(0);
    expectDot(sim.stdout);
    expect(sim.stdout).toContain(
      'label="ConfigMap\\ndemo/e\\x1b]0;pwned\\a\\x1b[31mred\\x00nul\\abel\\rcr\\nfile.yaml:1:1: error forged-name: fake\\u202eexe\\n',
    );
    const graph = cli(['graph', '-f', dir]);
    expect(graph.code).toBe(0);
    expectDot(graph.stdout);
    expectSafe(graph.stderr);
  });

  it('JSON and SARIF: the exact values, and no raw control character on the terminal', () => {
    const j = cli(['check', '-f', dir, '-o', 'json']);
    expect(j.stdout).not.toMatch(RAW);
    const names = JSON.parse(j.stdout).findings.map((f: { object: { name: string } }) => f.object.name);
    expect(names).toContain(EVIL);
    const s = cli(['check', '-f', dir, '-o', 'sarif']);
    expect(s.stdout).not.toMatch(RAW);
    expect(JSON.parse(s.stdout).runs[0].results.some((x: { message: { text: string } }) => x.message.text.includes(EVIL))).toBe(true);
    const sim = cli(['simulate', '-f', dir, 'cm/owner', '-n', 'demo', '-o', 'json']);
    expect(sim.stdout).not.toMatch(RAW);
    expect(JSON.parse(sim.stdout).stuck.map((x: { name: string }) => x.name)).toContain(EVIL);
  });
});
