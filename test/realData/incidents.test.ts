// The project's incident corpus (test/fixtures/incidents): stuck deletions from public threads that established
// the cause and the fix that worked. `kubectl gc stuck` (the built CLI) and the editor's Stuck Objects answer (the
// language server's kubeGcLens/stuck, in process) must list exactly the stuck objects, name the cause, rank the fix
// that worked (or an equally safe one) first, and never rank a fix the thread shows harmful as safe. A check an
// incident lists in knownGaps is expected to fail (it.fails): when a pattern is fixed, the test says so, and the gap
// goes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StuckItem } from '../../shared/src/protocol';
import { StuckRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { describeWays, everyRankedFix, idOf, matches, readIncidents, whyText, type Check, type Incident } from './incidentScoring';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

const incidents = readIncidents();

function cliAnswer(incident: Incident): StuckItem[] {
  const r = spawnSync(process.execPath, [CLI, 'stuck', '-f', join(incident.dir, 'objects.yaml'), '-o', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`kubectl gc stuck exited ${r.status} on ${incident.id}: ${r.stderr}`);
  return listed((JSON.parse(r.stdout) as { stuck: StuckItem[] }).stuck);
}

/** The Stuck Objects view's answer: the language server (in process) on the incident's folder. */
async function editorAnswer(incident: Incident): Promise<StuckItem[]> {
  const session = new LspSession({ folder: incident.dir, transport: 'in-process' });
  try {
    await session.initialize();
    return listed(await session.connection.sendRequest(StuckRequest));
  } finally {
    await session.dispose();
  }
}

/** What the answer lists as not finishing: every item but those only slow and the predicted deadlocks. */
const listed = (items: StuckItem[]) => items.filter((i) => i.state !== 'slow' && i.since !== null);

// Where an object is written is each front end's own (a URI for the editor, a path for the CLI), and so is the hint
// naming how to declare a finalizer's owner (a setting in the editor, a flag on the command line).
const OWNER_HINT = /\((set kubeGcLens\.finalizerOwners|pass --finalizer-owner FINALIZER=Kind\/namespace\/name) to name it\)/g;
const placeless = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, v) =>
      key === 'location' || key === 'locations' || key === 'source'
        ? undefined
        : typeof v === 'string'
          ? v.replace(OWNER_HINT, '(OWNER HINT)')
          : v,
    ),
  );

const cliAnswers = new Map<string, StuckItem[]>();
function cliAnswerOf(incident: Incident): StuckItem[] {
  let a = cliAnswers.get(incident.id);
  if (!a) cliAnswers.set(incident.id, (a = cliAnswer(incident)));
  return a;
}

const checks: Record<Check, (incident: Incident, items: StuckItem[]) => void> = {
  'stuck-list': (incident, items) => {
    expect(items.map(idOf).sort()).toEqual([...incident.expect.stuck].sort());
  },
  cause: (incident, items) => {
    const on = items.find((i) => idOf(i) === incident.expect.on);
    expect(on, `${incident.expect.on} is not listed`).toBeDefined();
    const text = whyText(on!);
    for (const phrase of incident.expect.causeNamed) expect(text, `the why-chain names "${phrase}"`).toContain(phrase.toLowerCase());
  },
  'first-way-out': (incident, items) => {
    const on = items.find((i) => idOf(i) === incident.expect.on);
    const first = on?.waysOut?.[0];
    expect(
      first !== undefined && incident.expect.firstWayOut.some((m) => matches(first, m)),
      `the first way out of ${incident.expect.on} is the fix that worked (${incident.fixThatWorked.trim()}); the answer:\n${describeWays(on)}`,
    ).toBe(true);
  },
  harmful: (incident, items) => {
    const ranked = everyRankedFix(items);
    for (const h of incident.expect.harmful) {
      const wrong = ranked.filter((f) => matches(f, h.match) && h.notRisk.includes(f.risk));
      expect(
        wrong.map((f) => `[${f.risk}] ${f.title}`),
        `ranked ${h.notRisk.join(' or ')} though the thread shows it harmful or futile: ${h.why}`,
      ).toEqual([]);
    }
  },
  warning: (incident, items) => {
    const ranked = everyRankedFix(items);
    for (const w of incident.expect.warnings) {
      const ways = ranked.filter((f) => matches(f, w.match));
      expect(ways.length, `a way out matches ${JSON.stringify(w.match)}`).toBeGreaterThan(0);
      for (const f of ways)
        for (const phrase of w.mentions)
          expect((f.warning ?? '').toLowerCase(), `the warning of "${f.title}" says "${phrase}": ${w.why}`).toContain(phrase.toLowerCase());
    }
  },
};

describe('the incident corpus', () => {
  it('holds at least 30 incidents, each from a distinct public thread', () => {
    expect(incidents.length).toBeGreaterThanOrEqual(30);
    expect(new Set(incidents.map((i) => i.url)).size).toBe(incidents.length);
  });

  it('a malformed incident.yaml fails with its path and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgl-incidents-'));
    try {
      mkdirSync(join(dir, 'bad'));
      const yaml = (on: string) =>
        `url: https://github.com/o/r/issues/1\ntitle: t\ncause: c\nfixThatWorked: f\nfilledIn: []\nexpect:\n  stuck: [Namespace/a]\n  on: ${on}\n  causeNamed: [x]\n  firstWayOut: [{verb: delete}]\n`;
      writeFileSync(join(dir, 'bad', 'incident.yaml'), yaml('Namespace/b'));
      expect(() => readIncidents(dir)).toThrow(`${join(dir, 'bad', 'incident.yaml')}: expect.on must be one of expect.stuck`);
      writeFileSync(join(dir, 'bad', 'incident.yaml'), yaml('Namespace/a') + 'knownGaps: [{check: speed, pattern: p}]\n');
      expect(() => readIncidents(dir)).toThrow('knownGaps: each needs check (stuck-list, cause, first-way-out, harmful, warning)');
      writeFileSync(join(dir, 'bad', 'incident.yaml'), 'url: [');
      expect(() => readIncidents(dir)).toThrow(`${join(dir, 'bad', 'incident.yaml')}: `);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const incident of incidents) {
    describe(`${incident.id} (${incident.url})`, () => {
      it('the CLI and the editor give the same stuck answer', async () => {
        expect(placeless(await editorAnswer(incident))).toEqual(placeless(cliAnswerOf(incident)));
      });
      for (const check of Object.keys(checks) as Check[]) {
        const gap = incident.knownGaps.find((g) => g.check === check);
        if (check === 'harmful' && !incident.expect.harmful.length) continue;
        if (check === 'warning' && !incident.expect.warnings.length) continue;
        const run = () => checks[check](incident, cliAnswerOf(incident));
        if (gap) it.fails(`${check} (known gap: ${gap.pattern})`, run);
        else it(check, run);
      }
    });
  }
});
