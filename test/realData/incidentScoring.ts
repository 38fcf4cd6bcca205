// How the incident corpus (test/fixtures/incidents) is read and scored: each incident's incident.yaml says what its
// public thread established; these functions check a stuck answer against it. docs/findings.md says how to add one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { BlockReason, StuckItem, WayOut, WayOutRisk } from '../../shared/src/protocol';

/** The checks an incident makes; a known gap names one of them. */
export const CHECKS = ['stuck-list', 'cause', 'first-way-out', 'harmful', 'warning'] as const;
export type Check = (typeof CHECKS)[number];

/**
 * Matches a way out: by its requests (every field given must equal one request's) and by its title or command
 * (regular expressions, case-insensitive). A fix in a why-chain (`blockedBy[].fixes`) has no requests: only
 * `title` and `command` can match it.
 */
export interface WayOutMatcher {
  verb?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  finalizer?: string;
  webhook?: string;
  title?: string;
  command?: string;
  /** The way out makes this one request and nothing else (not a plan that fixes something first). */
  only?: boolean;
}

export interface HarmfulFix {
  match: WayOutMatcher;
  /** The risks it must not be ranked with: "safe", and "caution" too when the thread shows it harmful. */
  notRisk: WayOutRisk[];
  why: string;
}

export interface WarningExpected {
  match: WayOutMatcher;
  /** Phrases (case-insensitive) the warning of every way out matching `match` must contain. */
  mentions: string[];
  why: string;
}

export interface Incident {
  id: string;
  dir: string;
  url: string;
  title: string;
  cause: string;
  fixThatWorked: string;
  harmfulOrFutile?: string;
  filledIn: string[];
  expect: {
    /** Every object the answer must list as stuck, and no other: `Kind/name` or `Kind/namespace/name`. */
    stuck: string[];
    /** The object the thread is about: its why-chain must name the cause and its ways out are ranked. */
    on: string;
    /** Phrases (case-insensitive) the reason or the why-chain of `on` must contain. */
    causeNamed: string[];
    /** The first way out of `on` must match one of these. */
    firstWayOut: WayOutMatcher[];
    harmful: HarmfulFix[];
    /** What the warnings of some ways out must say, as the thread showed it (optional). */
    warnings: WarningExpected[];
  };
  /** Checks that fail today, each with the pattern it needs: the test expects them to fail. */
  knownGaps: { check: Check; pattern: string }[];
}

export const INCIDENTS_DIR = join(__dirname, '..', 'fixtures', 'incidents');

const OBJECT_ID = /^[A-Za-z]+\/([^/\s]+\/)?[^/\s]+$/;

/** Every incident, read and checked for shape: a malformed incident.yaml fails with its path and field. */
export function readIncidents(dir = INCIDENTS_DIR): Incident[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => readIncident(join(dir, e.name), e.name))
    .sort((a, b) => a.id.localeCompare(b.id));
}

function readIncident(dir: string, id: string): Incident {
  const path = join(dir, 'incident.yaml');
  const fail = (field: string): never => {
    throw new Error(`${path}: ${field}`);
  };
  let raw: Partial<Incident> & { expect?: Partial<Incident['expect']> } = {};
  try {
    raw = parse(readFileSync(path, 'utf8')) as typeof raw;
  } catch (e) {
    fail((e as Error).message);
  }
  if (typeof raw.url !== 'string' || !/^https:\/\/(github\.com|stackoverflow\.com|serverfault\.com)\//.test(raw.url))
    fail('url must be the public thread (https://github.com/… or a Stack Exchange question)');
  for (const f of ['title', 'cause', 'fixThatWorked'] as const) if (typeof raw[f] !== 'string' || !raw[f]) fail(`${f} is required`);
  if (!Array.isArray(raw.filledIn)) fail('filledIn must list what was filled in (an empty list when nothing was)');
  const x = raw.expect ?? fail('expect is required');
  if (!Array.isArray(x.stuck) || !x.stuck.every((s) => OBJECT_ID.test(s))) fail('expect.stuck: a list of Kind/name or Kind/namespace/name');
  if (typeof x.on !== 'string' || !x.stuck!.includes(x.on)) fail('expect.on must be one of expect.stuck');
  if (!Array.isArray(x.causeNamed) || !x.causeNamed.length) fail('expect.causeNamed: at least one phrase');
  if (!Array.isArray(x.firstWayOut) || !x.firstWayOut.length) fail('expect.firstWayOut: at least one matcher');
  const harmful = x.harmful ?? [];
  if (!harmful.every((h) => h.match && Array.isArray(h.notRisk) && h.why)) fail('expect.harmful: each needs match, notRisk and why');
  const warnings = x.warnings ?? [];
  if (!warnings.every((w) => w.match && Array.isArray(w.mentions) && w.mentions.length && w.why))
    fail('expect.warnings: each needs match, mentions and why');
  const knownGaps = raw.knownGaps ?? [];
  if (!knownGaps.every((g) => CHECKS.includes(g.check) && typeof g.pattern === 'string' && g.pattern))
    fail(`knownGaps: each needs check (${CHECKS.join(', ')}) and pattern`);
  return { ...(raw as Incident), id, dir, expect: { ...(x as Incident['expect']), harmful, warnings }, knownGaps };
}

/** `Kind/name` or `Kind/namespace/name`, as incident.yaml spells an object. */
export const idOf = (o: { kind: string; namespace?: string; name: string }) =>
  o.namespace ? `${o.kind}/${o.namespace}/${o.name}` : `${o.kind}/${o.name}`;

/** The reason and the whole why-chain, as one lower-case text. */
export function whyText(item: StuckItem): string {
  const parts: string[] = [item.reason];
  const walk = (list: BlockReason[]) => {
    for (const r of list) {
      parts.push(r.message, r.finalizer ?? '', r.object ? idOf(r.object) : '', ...(r.conditions ?? []).map((c) => c.message ?? ''));
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  walk(item.blockedBy);
  return parts.join('\n').toLowerCase();
}

const re = (s: string) => new RegExp(s, 'i');

export function matches(way: { title: string; command?: string; requests?: WayOut['requests'] }, m: WayOutMatcher): boolean {
  if (m.title && !re(m.title).test(way.title)) return false;
  if (m.command && !re(m.command).test(way.command ?? '')) return false;
  if (m.only && (way.requests ?? []).length !== 1) return false;
  const fields = (['verb', 'kind', 'namespace', 'name', 'finalizer', 'webhook'] as const).filter((f) => m[f] !== undefined);
  if (!fields.length) return Boolean(m.title || m.command);
  return (way.requests ?? []).some((r) => fields.every((f) => (r as Record<string, unknown>)[f] === m[f]));
}

export type RankedFix = { title: string; command?: string; risk: WayOutRisk; warning?: string; requests?: WayOut['requests'] };

/** Every fix the answer ranks: each item's ways out, and the fixes its why-chains carry. */
export function everyRankedFix(items: StuckItem[]): RankedFix[] {
  const out: RankedFix[] = [];
  const walk = (list: BlockReason[]) => {
    for (const r of list) {
      out.push(...(r.fixes ?? []));
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  for (const i of items) {
    out.push(...(i.waysOut ?? []));
    walk(i.blockedBy);
  }
  return out;
}

/** What a failed check says: the answer's own words, so a reader sees what the product printed. */
export function describeWays(item: StuckItem | undefined): string {
  if (!item) return '(not listed)';
  return (item.waysOut ?? []).map((w, i) => `${i + 1}. [${w.risk}] ${w.title}`).join('\n') || '(no ways out)';
}
