// The built language server under stress, driven over stdio like an editor (see lspSession.ts): a 50 MB
// `kubectl get -A -o json` dump on disk and in an unsaved editor, work-done progress while loading, cancelled
// requests, bad files (binary, deeply nested, alias bomb, duplicate keys, Helm templates, wrong types, empty,
// vanished), closing an edited unsaved file, and workspace folders added and removed. Each case checks that the
// process survives and keeps answering, that nothing unexpected is logged, and that only the broken document
// gets a diagnostic, where it is broken. Positions are found by searching the texts, never hand-counted.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CancellationTokenSource,
  CodeLensRequest,
  CodeLensResolveRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  HoverRequest,
  LSPErrorCodes,
  type CodeLens,
  type Diagnostic,
  type Hover,
  type MarkupContent,
} from 'vscode-languageserver-protocol';
import { type ObjectSummary } from '../../shared/src/protocol';
import { GraphRequest, ObjectAtRequest, ObjectsRequest, SimulateRequest, StuckRequest } from '../../server/src/lsp/methods';
import { clusterJson, generateCluster, Rng, type GeneratedCluster } from '../../bench/generateCluster';
import { LspSession, uriOf, type SessionOptions, type TimelineEntry } from '../../testkit/lsp/lspSession';
import { DEPLOYMENT, replicaSet } from './fixtures';

const sessions: LspSession[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(options: SessionOptions = {}, readyTimeoutMs?: number): Promise<LspSession> {
  // Over stdio: what matters here is what the process writes on stderr.
  const s = new LspSession({ transport: 'stdio', ...options });
  sessions.push(s);
  await s.initialize(readyTimeoutMs);
  return s;
}

function workspace(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kube-gc-robust-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** 0-based line of the first occurrence of `needle` (after the first occurrence of `after`, if given). */
function lineOf(text: string, needle: string, after?: string): number {
  const from = after === undefined ? 0 : text.indexOf(after);
  const at = text.indexOf(needle, Math.max(0, from));
  if (from < 0 || at < 0) throw new Error(`"${needle}" not found`);
  return text.slice(0, at).split('\n').length - 1;
}

/** `code@line` (0-based) of each diagnostic, in the server's order. */
const where = (d: Diagnostic[] | undefined) => (d ?? []).map((x) => `${x.code}@${x.range.start.line}`);

/** Diagnostics as JSON with the workspace folder's URI replaced, to compare workspaces in different folders. */
const portable = (d: Diagnostic[] | undefined, dir: string) =>
  JSON.stringify(d ?? [])
    .split(uriOf(dir))
    .join('<folder>');

/** URIs that currently have diagnostics. */
const withDiagnostics = (s: LspSession) =>
  [...s.diagnostics]
    .filter(([, d]) => d.length > 0)
    .map(([u]) => u)
    .sort();

const names = (objects: ObjectSummary[]) => objects.map((o) => o.name).sort();

/**
 * Alive and serving: the process runs, a request is answered, nothing went to window/logMessage as an
 * unexpected error or unhandled rejection, and nothing of the kind on stderr.
 */
async function expectHealthy(s: LspSession): Promise<void> {
  await s.connection.sendRequest(ObjectsRequest, {});
  expect(s.exitCode).toBeNull();
  expect(s.logs.filter((l) => /Unexpected error|Unhandled rejection|Request .* failed/i.test(l))).toEqual([]);
  expect(s.stderr.join('')).not.toMatch(/Error|rejection/);
}

/**
 * Waits for the predictions (stuck/deadlock findings, published after the editor is idle) to be in: the stuck
 * request runs them first, and the server sends what they publish before its answer.
 */
async function settlePredictions(s: LspSession): Promise<void> {
  await s.connection.sendRequest(StuckRequest);
}

const GOOD_UID = '11111111-1111-1111-1111-111111111111';
const WRONG_UID = '99999999-9999-9999-9999-999999999999';

const configMap = (name: string, namespace = 'shop') => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${namespace}
data:
  key: value
`;

// ------------------------------------------------------------------------------------------------ 50 MB

describe('a 50 MB cluster dump', () => {
  let cluster: GeneratedCluster;
  let dumpText: string;
  /** The Deployment of the big namespace, owner of the ReplicaSet written in the small file. */
  let owner: { name: string; namespace: string; uid: string };

  beforeAll(() => {
    cluster = generateCluster({ objects: 10_000, bigNamespaceObjects: 2_250 });
    dumpText = clusterJson(cluster);
    const d = cluster.list.items.find((i) => i.kind === 'Deployment' && i.metadata.name === cluster.bigDeployment.name)!;
    owner = { name: d.metadata.name, namespace: d.metadata.namespace!, uid: d.metadata.uid };
  });

  afterAll(() => {
    dumpText = '';
  });

  /** A ReplicaSet outside the dump whose owner, the big Deployment, is in the dump. */
  const extraReplicaSet = (uid: string) => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: ${owner.name}-extra
  namespace: ${owner.namespace}
  uid: 33333333-3333-4333-8333-333333333333
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: ${owner.name}
    uid: ${uid}
    controller: true
    blockOwnerDeletion: true
`;

  /** A broken document (bad indentation in metadata) before a valid one. */
  const SMALL = `apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
 namespace: storefront
data:
  a: b
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: storefront
`;

  it("loads next to a small file with a broken document; only that document is reported and each edit's diagnostics follow (their latency: npm run bench)", async () => {
    expect(Buffer.byteLength(dumpText)).toBeGreaterThanOrEqual(45 * 2 ** 20);
    const dir = workspace({ 'cluster-dump.json': dumpText, 'small.yaml': SMALL, 'app.yaml': extraReplicaSet(owner.uid) });
    const dumpUri = uriOf(path.join(dir, 'cluster-dump.json'));
    const smallUri = uriOf(path.join(dir, 'small.yaml'));
    const appUri = uriOf(path.join(dir, 'app.yaml'));

    const s = await start({ folder: dir }, 60_000);
    expect(s.status).toMatchObject({ state: 'ready', files: 3, objects: 10_000 + 2, problems: 1 });
    await settlePredictions(s);
    // Only the broken document is reported, where the indentation goes wrong; the dump and app.yaml are clean.
    expect(withDiagnostics(s)).toEqual([smallUri]);
    expect(where(s.diagnostics.get(smallUri))).toEqual([`yaml-syntax@${lineOf(SMALL, ' namespace: storefront')}`]);
    expect(s.diagnostics.get(smallUri)![0].message).toMatch(/YAML syntax error/);
    // The valid document of the same file is in the workspace, and so is every object of the dump.
    expect(names(await s.connection.sendRequest(ObjectsRequest, { uri: smallUri }))).toEqual(['settings']);
    expect(await s.connection.sendRequest(ObjectsRequest, { uri: dumpUri })).toHaveLength(10_000);
    // The ReplicaSet outside the dump is linked to its owner inside it.
    const graph = await s.connection.sendRequest(GraphRequest, { uid: '33333333-3333-4333-8333-333333333333' });
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: '33333333-3333-4333-8333-333333333333', to: owner.uid }));

    // Edits to an open small document afterwards: diagnostics come promptly, pointing into the dump (at the
    // owner's metadata.name, the last "name" line before its uid).
    const dumpLines = dumpText.split('\n');
    const ownerUidLine = dumpLines.findIndex((l) => l.includes(`"uid": "${owner.uid}"`));
    let ownerNameLine = ownerUidLine;
    while (ownerNameLine > 0 && !dumpLines[ownerNameLine].includes(`"name": "${owner.name}"`)) ownerNameLine--;
    const appText = extraReplicaSet(owner.uid);
    await s.open(appUri, appText);
    const uidLine = lineOf(appText, `uid: ${owner.uid}`);
    const uidRange = { start: { line: uidLine, character: 9 }, end: { line: uidLine, character: 9 + owner.uid.length } };
    for (let i = 0; i < 6; i++) {
      const broken = i % 2 === 0;
      await s.edit(appUri, uidRange, broken ? WRONG_UID : owner.uid);
      const d = await s.diagnosticsFor(appUri, (x) => x.some((y) => y.code === 'owner-uid-mismatch') === broken);
      if (broken) {
        expect(where(d)).toEqual([`owner-uid-mismatch@${uidLine}`]);
        const related = d[0].relatedInformation?.[0].location;
        expect(related?.uri).toBe(dumpUri);
        expect(related?.range.start.line).toBe(ownerNameLine);
      }
      // Let the idle-time predictions over the 10,000 objects run between some edits.
      if (i % 3 === 1) await settlePredictions(s);
    }
    // Fixing the broken document of the small file (in an editor) brings its object in and clears its diagnostic.
    await s.open(smallUri, SMALL);
    await s.replace(smallUri, SMALL.replace(' namespace: storefront', '  namespace: storefront'));
    expect(await s.diagnosticsFor(smallUri, (d) => d.length === 0)).toEqual([]);
    expect(names(await s.connection.sendRequest(ObjectsRequest, { uri: smallUri }))).toEqual(['broken', 'settings']);
    expect(s.status?.objects).toBe(10_000 + 3);
    await expectHealthy(s);
  }, 120_000);

  it('takes the same dump as an unsaved editor document (untitled:dump.json)', async () => {
    // On disk only a ReplicaSet whose owner is in the dump: dangling until the dump is opened.
    const dir = workspace({ 'app.yaml': extraReplicaSet(owner.uid) });
    const appUri = uriOf(path.join(dir, 'app.yaml'));
    const s = await start({ folder: dir });
    expect(where(await s.diagnosticsFor(appUri))).toEqual([`dangling-owner@${lineOf(extraReplicaSet(owner.uid), `uid: ${owner.uid}`)}`]);

    await s.open('untitled:dump.json', dumpText, 'json');
    await s.until(() => s.status?.objects === 10_001, "the dump's objects counted", 60_000);
    expect(await s.diagnosticsFor(appUri, (d) => d.length === 0)).toEqual([]);
    const objects = await s.connection.sendRequest(ObjectsRequest, { uri: 'untitled:dump.json' });
    expect(objects).toHaveLength(10_000);
    expect(objects.find((o) => o.uid === owner.uid)?.location?.uri).toBe('untitled:dump.json');
    await settlePredictions(s);
    expect(withDiagnostics(s)).toEqual([]);
    // Hover on the ReplicaSet's reference resolves the owner in the unsaved dump.
    const hover = await s.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: appUri },
      position: { line: lineOf(extraReplicaSet(owner.uid), `name: ${owner.name}`, 'ownerReferences'), character: 12 },
    });
    expect((hover?.contents as MarkupContent).value).toContain(owner.uid);
    expect((hover?.contents as MarkupContent).value).toMatch(/Defined in:\*\* \[untitled/);

    // Closing the unsaved dump takes its objects away again.
    await s.close('untitled:dump.json');
    await s.until(() => s.status?.objects === 1, "the dump's objects gone");
    expect(where(s.diagnostics.get(appUri))).toEqual([`dangling-owner@${lineOf(extraReplicaSet(owner.uid), `uid: ${owner.uid}`)}`]);
    await expectHealthy(s);
  }, 120_000);
});

// ------------------------------------------------------------------------------------------------ $/progress

describe('work-done progress while loading', () => {
  const progressOf = (timeline: TimelineEntry[], token: unknown) =>
    timeline.flatMap((e, i) => (e.type === 'progress' && e.token === token ? [{ at: i, value: e.value }] : []));
  const firstReadyAfter = (timeline: TimelineEntry[], from: number) =>
    timeline.findIndex((e, i) => i > from && e.type === 'status' && e.status.state === 'ready');

  it('reports begin, reports and end on the token it created, before the status "ready"', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`cm-${String(i).padStart(3, '0')}.yaml`] = configMap(`cm-${i}`);
    const s = await start({ folder: workspace(files) });
    expect(s.status).toMatchObject({ files: 120, objects: 120 });

    const check = (from: number) => {
      const created = s.timeline.findIndex((e, i) => i >= from && e.type === 'progress-create');
      expect(created).toBeGreaterThanOrEqual(0);
      const token = (s.timeline[created] as Extract<TimelineEntry, { type: 'progress-create' }>).token;
      const events = progressOf(s.timeline, token);
      const kinds = events.map((e) => e.value.kind);
      // One begin, then reports (every 50 files: 50 and 100 of 120), then one end.
      expect(kinds[0]).toBe('begin');
      expect(kinds.at(-1)).toBe('end');
      expect(kinds.filter((k) => k === 'begin')).toHaveLength(1);
      expect(kinds.filter((k) => k === 'end')).toHaveLength(1);
      const percentages = events.flatMap((e) =>
        e.value.kind === 'report' && e.value.percentage !== undefined ? [e.value.percentage] : [],
      );
      expect(percentages.length).toBeGreaterThanOrEqual(2);
      expect([...percentages].sort((a, b) => a - b)).toEqual(percentages);
      expect(percentages.every((p) => p >= 0 && p <= 100)).toBe(true);
      const begin = events[0];
      expect(begin.value).toMatchObject({ kind: 'begin', title: expect.any(String) });
      // Begin and end both come before the "ready" that ends this load.
      const ready = firstReadyAfter(s.timeline, begin.at);
      expect(ready).toBeGreaterThan(events.at(-1)!.at);
      return token;
    };
    const first = check(0);

    // A change of which files are read reloads the workspace: a new token, the same sequence.
    const mark = s.mark();
    s.settings.files = { exclude: { '**/not-there/**': true } };
    await s.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await s.untilReloaded(mark);
    const second = check(mark);
    expect(second).not.toEqual(first);
    await expectHealthy(s);
  });

  it('sends no $/progress to a client that did not declare window.workDoneProgress', async () => {
    const s = await start({ folder: workspace({ 'cm.yaml': configMap('a') }), workDoneProgress: false });
    expect(s.status).toMatchObject({ state: 'ready', objects: 1 });
    expect(s.timeline.filter((e) => e.type !== 'status')).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ cancellation

describe('cancelled requests', () => {
  /** Resolves with the result, or with "cancelled" on the LSP RequestCancelled error; fails on anything else or a hang. */
  async function settle<T>(p: Promise<T>, what: string): Promise<{ result: T } | 'cancelled'> {
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer (hangs)`)), 10_000);
    });
    try {
      return { result: await Promise.race([p, hang]) };
    } catch (e) {
      if ((e as { code?: number }).code === LSPErrorCodes.RequestCancelled) return 'cancelled';
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends a request and `$/cancelRequest` for it right after. */
  function sendAndCancel<T>(send: (token: CancellationTokenSource['token']) => Promise<T>): Promise<T> {
    const source = new CancellationTokenSource();
    const p = send(source.token);
    source.cancel();
    return p;
  }

  it('answers hover and code lens requests cancelled right after sending, or reports them cancelled; never hangs', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT, 'replicaset.yaml': replicaSet(GOOD_UID) });
    const s = await start({ folder: dir });
    const rsUri = uriOf(path.join(dir, 'replicaset.yaml'));
    const rsText = replicaSet(GOOD_UID);
    await s.open(rsUri, rsText);
    const onOwnerName = { line: lineOf(rsText, 'name: web', 'ownerReferences'), character: 11 };
    const lensesNow = await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: rsUri } });
    const impactLens = lensesNow!.find((l) => !l.command)!;

    const outcomes: string[] = [];
    for (let round = 0; round < 8; round++) {
      // An edit pending when the requests arrive (they apply it first), alternating a break and a fix.
      await s.replace(rsUri, round % 2 === 0 ? replicaSet(WRONG_UID) : rsText);
      const hover = sendAndCancel((t) =>
        s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: rsUri }, position: onOwnerName }, t),
      );
      const lenses = sendAndCancel((t) => s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: rsUri } }, t));
      const resolved = sendAndCancel((t) => s.connection.sendRequest(CodeLensResolveRequest.type, impactLens, t));
      const simulated = sendAndCancel((t) => s.connection.sendRequest(SimulateRequest, { uid: GOOD_UID, policy: 'Foreground' }, t));
      const h = await settle<Hover | null>(hover, 'hover');
      if (h !== 'cancelled') expect((h.result?.contents as MarkupContent).value).toContain('Deployment');
      const l = await settle<CodeLens[] | null>(lenses, 'codeLens');
      if (l !== 'cancelled') expect(l.result?.length).toBe(2);
      const r = await settle<CodeLens>(resolved, 'codeLens/resolve');
      if (r !== 'cancelled') expect(r.result.command?.title).toMatch(/^Delete/);
      const sim = await settle(simulated, 'simulate');
      if (sim !== 'cancelled') expect(sim.result?.target.name).toBe('web');
      outcomes.push(...[h, l, r, sim].map((x) => (x === 'cancelled' ? 'cancelled' : 'answered')));
    }
    expect(outcomes).toHaveLength(32);

    // Cancelled after the answer came (the usual race in an editor): the answer stands, nothing breaks.
    for (let round = 0; round < 4; round++) {
      const source = new CancellationTokenSource();
      const late = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: rsUri }, position: onOwnerName }, source.token);
      source.cancel();
      expect((late?.contents as MarkupContent).value).toContain('Deployment');
    }

    // Still serving, on the latest text: the last edit restored the right uid.
    const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: rsUri }, position: onOwnerName });
    expect((hover?.contents as MarkupContent).value).toContain('Deployment');
    await s.replace(rsUri, replicaSet(WRONG_UID));
    expect(where(await s.diagnosticsFor(rsUri, (d) => d.length > 0))).toEqual([`owner-uid-mismatch@${lineOf(rsText, `uid: ${GOOD_UID}`)}`]);
    await expectHealthy(s);
  });
});

// ------------------------------------------------------------------------------------------------ bad input

/** Random bytes (seeded) with NULs: not text at all. */
function randomBytes(n: number, seed: number): Buffer {
  const rng = new Rng(seed);
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rng.u32() & 255;
  for (let i = 0; i < n; i += 97) b[i] = 0;
  return b;
}

const DEPTH = 10_000;

const ALIAS_BOMB = `apiVersion: v1
kind: ConfigMap
metadata:
  name: lol
  namespace: shop
data:
  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`;

interface BadCase {
  file: string;
  text: string | Buffer;
  /** `code@line` of every diagnostic expected on this file. */
  expected: string[];
  /** Names of the objects this file contributes. */
  objects: string[];
}

const badCases = (): BadCase[] => {
  const corrupt = Buffer.concat([Buffer.from(configMap('corrupt')), randomBytes(2048, 7)]);
  const deepYaml = `${configMap('deep-flow').replace('  key: value', `  key: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`)}---\n${configMap('after-deep')}`;
  const deepJsonHeader =
    '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {\n    "name": "deep-json",\n    "namespace": "shop"\n  },\n';
  const deepJsonData = `${deepJsonHeader}  "data": {"key": ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}\n}\n`;
  const deepJsonOwners = `${deepJsonHeader.replace('deep-json', 'deep-json-owners').replace('  },\n', `,\n    "ownerReferences": ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n  },\n`)}  "data": {}\n}\n`;
  const strayBracket = `${configMap('stray-owner').replace('  namespace: shop\n', '  namespace: shop\n  uid: stray-owner-uid\n')}---\n]\n---\n${configMap('stray-dependent').replace('  namespace: shop\n', '  namespace: shop\n  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: stray-owner, uid: stray-owner-uid}\n')}`;
  const nul = `${configMap('before-nul')}---\n${configMap('nul')}  annotations: {a: "x\u0000y"}\n---\n${configMap('after-nul')}`;
  const brackets = `${configMap('before-brackets')}---\n${'['.repeat(2_000_000)}\n`;
  const bomb = `${configMap('before-bomb')}---\n${ALIAS_BOMB}---\n${configMap('after-bomb')}`;
  const dup = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first-name\n  namespace: shop\n  name: last-name\n`;
  const helm = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Values.name }}\n  namespace: shop\n---\n${configMap('after-helm')}`;
  const wrongTypes = `apiVersion: v1
kind: ConfigMap
metadata:
  name: refs-not-a-list
  namespace: shop
  ownerReferences: {apiVersion: apps/v1, kind: Deployment, name: web, uid: ${GOOD_UID}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: uid-not-a-string
  namespace: shop
  uid: 12345
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ref-uid-not-a-string
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
    uid: 42
---
${configMap('after-wrong-types')}`;
  return [
    // Random bytes named .yaml: not Kubernetes (nothing in it looks like apiVersion/kind), so not part of the
    // workspace, like any other YAML that is not Kubernetes: no diagnostic, no object.
    { file: 'blob.yaml', text: randomBytes(4096, 1), expected: [], objects: [] },
    // A manifest whose tail is binary: the whole file is refused, at its start.
    { file: 'corrupt.yaml', text: corrupt, expected: ['binary@0'], objects: [] },
    { file: 'deep-flow.yaml', text: deepYaml, expected: [`too-deep@${lineOf(deepYaml, 'key: [')}`], objects: ['after-deep'] },
    // Deep nesting where the engine does not look (data) is fine; in ownerReferences it is the wrong type.
    { file: 'deep-data.json', text: deepJsonData, expected: [], objects: ['deep-json'] },
    {
      file: 'deep-owners.json',
      text: deepJsonOwners,
      expected: [`wrong-type@${lineOf(deepJsonOwners, '"ownerReferences"')}`],
      objects: [],
    },
    {
      file: 'alias-bomb.yaml',
      text: bomb,
      expected: [`alias-limit@${lineOf(bomb, 'name: lol') - 3}`],
      objects: ['after-bomb', 'before-bomb'],
    },
    { file: 'duplicate-key.yaml', text: dup, expected: [`duplicate-key@${lineOf(dup, 'name: last-name')}`], objects: ['last-name'] },
    { file: 'helm.yaml', text: helm, expected: [`template@${lineOf(helm, '{{')}`], objects: ['after-helm'] },
    {
      file: 'wrong-types.yaml',
      text: wrongTypes,
      expected: [
        `wrong-type@${lineOf(wrongTypes, 'ownerReferences: {')}`,
        `wrong-type@${lineOf(wrongTypes, 'uid: 12345')}`,
        `wrong-type@${lineOf(wrongTypes, 'uid: 42')}`,
      ],
      objects: ['after-wrong-types'],
    },
    // Issue 13: a stray `]` between an owner and its dependent skips only itself (it used to drop the owner).
    {
      file: 'stray-bracket.yaml',
      text: strayBracket,
      expected: [`yaml-syntax@${lineOf(strayBracket, ']')}`],
      objects: ['stray-dependent', 'stray-owner'],
    },
    // A NUL byte in one document of a text file: that document, at the byte; not the whole file as binary.
    { file: 'nul.yaml', text: nul, expected: [`yaml-syntax@${lineOf(nul, '\u0000')}`], objects: ['after-nul', 'before-nul'] },
    // Two megabytes of `[` after a good document: refused before parsing (it used to take gigabytes).
    { file: 'brackets.yaml', text: brackets, expected: [`too-deep@${lineOf(brackets, '[[[')}`], objects: ['before-brackets'] },
    { file: 'empty.yaml', text: '', expected: [], objects: [] },
    { file: 'empty.json', text: '', expected: [], objects: [] },
  ];
};

describe('bad input', () => {
  const CONTROL = { 'deployment.yaml': DEPLOYMENT, 'replicaset.yaml': replicaSet(WRONG_UID) };

  /** The control files' diagnostics in a workspace of their own. */
  async function controlDiagnostics(): Promise<Map<string, string>> {
    const dir = workspace(CONTROL);
    const s = await start({ folder: dir });
    await settlePredictions(s);
    expect(where(s.diagnostics.get(uriOf(path.join(dir, 'replicaset.yaml'))))).toEqual([
      `owner-uid-mismatch@${lineOf(replicaSet(WRONG_UID), `uid: ${WRONG_UID}`)}`,
    ]);
    return new Map(Object.keys(CONTROL).map((f) => [f, portable(s.diagnostics.get(uriOf(path.join(dir, f))), dir)]));
  }

  it('bad files in the workspace: each reported where it is broken, nothing else affected', async () => {
    const control = await controlDiagnostics();
    const cases = badCases();
    const files: Record<string, string | Buffer> = { ...CONTROL };
    for (const c of cases) files[c.file] = c.text;
    const dir = workspace(files);
    mkdirSync(path.join(dir, 'chart.yaml')); // a folder whose name matches the include globs
    const s = await start({ folder: dir });
    await settlePredictions(s);

    for (const c of cases) {
      const uri = uriOf(path.join(dir, c.file));
      expect(where(s.diagnostics.get(uri)), c.file).toEqual(c.expected);
      for (const d of s.diagnostics.get(uri) ?? [])
        expect(typeof d.message === 'string' ? d.message : d.message.value, c.file).toMatch(/^\S.{20,}/);
      expect(names(await s.connection.sendRequest(ObjectsRequest, { uri })), c.file).toEqual([...c.objects].sort());
    }
    // Nothing but the broken files and the control's own finding is reported, and the control is unchanged.
    const reported = cases.filter((c) => c.expected.length).map((c) => uriOf(path.join(dir, c.file)));
    expect(withDiagnostics(s)).toEqual([...reported, uriOf(path.join(dir, 'replicaset.yaml'))].sort());
    for (const [f, d] of control) expect(portable(s.diagnostics.get(uriOf(path.join(dir, f))), dir), f).toBe(d);
    const all = names(await s.connection.sendRequest(ObjectsRequest, {}));
    expect(all).toEqual(['web', 'web-5d4f', ...cases.flatMap((c) => c.objects)].sort());
    // Hovers and code lenses on the files that loaded partly still work.
    for (const c of cases.filter((x) => x.objects.length)) {
      const uri = uriOf(path.join(dir, c.file));
      // One Delete lens per object (resolved later); objects with owners also have an owners lens, with its command.
      const lenses = ((await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? []).filter((l) => !l.command);
      expect(lenses.length, c.file).toBe(c.objects.length);
      for (const lens of lenses)
        expect((await s.connection.sendRequest(CodeLensResolveRequest.type, lens)).command?.title, c.file).toMatch(/^Delete/);
      await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 9 } });
    }
    await expectHealthy(s);
  });

  it('the same bad documents typed into editors, then fixed and closed', async () => {
    const control = await controlDiagnostics();
    const dir = workspace(CONTROL);
    const s = await start({ folder: dir });
    const cases = badCases();
    // Not on disk: each exists only in its editor.
    const uriFor = (c: BadCase) => uriOf(path.join(dir, 'editor', c.file));
    for (const c of cases)
      await s.open(uriFor(c), typeof c.text === 'string' ? c.text : c.text.toString('latin1'), c.file.endsWith('.json') ? 'json' : 'yaml');
    await settlePredictions(s);
    for (const c of cases) {
      expect(where(s.diagnostics.get(uriFor(c))), c.file).toEqual(c.expected);
      expect(names(await s.connection.sendRequest(ObjectsRequest, { uri: uriFor(c) })), c.file).toEqual([...c.objects].sort());
    }
    for (const [f, d] of control) expect(portable(s.diagnostics.get(uriOf(path.join(dir, f))), dir), f).toBe(d);

    // Each fixed: a valid object instead; its diagnostics clear.
    const fixed = (i: number, c: BadCase) =>
      c.file.endsWith('.json')
        ? JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `fixed-${i}`, namespace: 'shop' } }, null, 2)
        : configMap(`fixed-${i}`);
    for (const [i, c] of cases.entries()) await s.replace(uriFor(c), fixed(i, c));
    for (const c of cases.filter((x) => x.expected.length)) await s.diagnosticsFor(uriFor(c), (d) => d.length === 0);
    expect(names(await s.connection.sendRequest(ObjectsRequest, {}))).toEqual(
      ['web', 'web-5d4f', ...cases.map((_, i) => `fixed-${i}`)].sort(),
    );
    // Closed: not on disk, so gone.
    for (const c of cases) await s.close(uriFor(c));
    await s.until(() => s.status?.objects === 2, "the editors' objects gone");
    await settlePredictions(s);
    expect(withDiagnostics(s)).toEqual([uriOf(path.join(dir, 'replicaset.yaml'))]);
    for (const [f, d] of control) expect(portable(s.diagnostics.get(uriOf(path.join(dir, f))), dir), f).toBe(d);
    await expectHealthy(s);
  });

  it('an unterminated quote (half-typed) in one document does not take the following documents with it', async () => {
    // kubectl splits a file on `---` lines before decoding, so the Deployment below is read whatever the first
    // document holds. The server must keep it too, and blame the quote's document.
    const halfTyped = `${configMap('typing').replace('  key: value', '  key: "half-typed')}---\n${DEPLOYMENT}`;
    const dir = workspace({ 'app.yaml': halfTyped, 'replicaset.yaml': replicaSet(GOOD_UID) });
    const s = await start({ folder: dir });
    await settlePredictions(s);
    const appUri = uriOf(path.join(dir, 'app.yaml'));
    expect(names(await s.connection.sendRequest(ObjectsRequest, { uri: appUri }))).toEqual(['web']);
    expect(s.diagnostics.get(uriOf(path.join(dir, 'replicaset.yaml'))) ?? []).toEqual([]);
    expect(where(s.diagnostics.get(appUri))).toEqual([`yaml-syntax@${lineOf(halfTyped, 'key: "half-typed')}`]);
    await expectHealthy(s);
  });

  it('file events for files that no longer exist or never did', async () => {
    const dir = workspace({ ...CONTROL, 'vanishing.yaml': configMap('vanishing') });
    const s = await start({ folder: dir });
    expect(s.status).toMatchObject({ files: 3, objects: 3 });
    const before = new Map(s.diagnostics);
    // Deleted on disk, then reported deleted (it no longer exists when the server reads); a change and a
    // creation reported for files that do not exist; a change for a folder named like a manifest.
    rmSync(path.join(dir, 'vanishing.yaml'));
    mkdirSync(path.join(dir, 'folder.yaml'));
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [
        { uri: uriOf(path.join(dir, 'vanishing.yaml')), type: FileChangeType.Deleted },
        { uri: uriOf(path.join(dir, 'never-existed.yaml')), type: FileChangeType.Deleted },
        { uri: uriOf(path.join(dir, 'missing.yaml')), type: FileChangeType.Changed },
        { uri: uriOf(path.join(dir, 'sub', 'missing.json')), type: FileChangeType.Created },
        { uri: uriOf(path.join(dir, 'folder.yaml')), type: FileChangeType.Changed },
      ],
    });
    // A file created and deleted before the server reads it: the Created event arrives for a file that is gone.
    writeFileSync(path.join(dir, 'short-lived.yaml'), configMap('short-lived'));
    rmSync(path.join(dir, 'short-lived.yaml'));
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(path.join(dir, 'short-lived.yaml')), type: FileChangeType.Created }],
    });
    // Requests apply pending changes first: the answer reflects all of the above.
    expect(names(await s.connection.sendRequest(ObjectsRequest, {}))).toEqual(['web', 'web-5d4f']);
    expect(s.status).toMatchObject({ files: 2, objects: 2 });
    expect(s.diagnostics).toEqual(before);
    await expectHealthy(s);
  });
});

// ------------------------------------------------------------------------------------------------ didClose

describe('closing an edited, unsaved workspace file', () => {
  it('goes back to the file on disk, including changes made on disk while it was open', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT, 'replicaset.yaml': replicaSet(GOOD_UID), 'extra.yaml': configMap('extra') });
    const s = await start({ folder: dir });
    const rsUri = uriOf(path.join(dir, 'replicaset.yaml'));
    const rsText = replicaSet(GOOD_UID);
    const uidLine = lineOf(rsText, `uid: ${GOOD_UID}`);
    expect(s.diagnostics.get(rsUri) ?? []).toEqual([]);

    // Edited, not saved: the editor's text counts.
    await s.open(rsUri, rsText);
    await s.edit(rsUri, { start: { line: uidLine, character: 9 }, end: { line: uidLine, character: 9 + GOOD_UID.length } }, WRONG_UID);
    expect(where(await s.diagnosticsFor(rsUri, (d) => d.length > 0))).toEqual([`owner-uid-mismatch@${uidLine}`]);
    // Closed without saving: the disk's text again.
    await s.close(rsUri);
    expect(await s.diagnosticsFor(rsUri, (d) => d.length === 0)).toEqual([]);

    // While open, the file changes on disk (another owner name): the editor still wins until it is closed.
    await s.open(rsUri, rsText);
    await s.edit(rsUri, { start: { line: uidLine, character: 9 }, end: { line: uidLine, character: 9 + GOOD_UID.length } }, WRONG_UID);
    await s.diagnosticsFor(rsUri, (d) => d.length > 0);
    const onDisk = replicaSet(GOOD_UID, 'api');
    writeFileSync(path.join(dir, 'replicaset.yaml'), onDisk);
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: rsUri, type: FileChangeType.Changed }],
    });
    expect((await s.connection.sendRequest(ObjectAtRequest, { uri: rsUri, position: { line: 3, character: 8 } }))?.name).toBe('web-5d4f');
    expect(where(s.diagnostics.get(rsUri))).toEqual([`owner-uid-mismatch@${uidLine}`]);
    await s.close(rsUri);
    expect(where(await s.diagnosticsFor(rsUri, (d) => d.some((x) => x.code !== 'owner-uid-mismatch')))).toEqual([
      `owner-coordinates-mismatch@${lineOf(onDisk, 'name: api')}`,
    ]);

    // An open file deleted on disk meanwhile: on close it is gone from the workspace.
    const extraUri = uriOf(path.join(dir, 'extra.yaml'));
    await s.open(extraUri, configMap('extra'));
    await s.replace(extraUri, configMap('extra-edited'));
    rmSync(path.join(dir, 'extra.yaml'));
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: extraUri, type: FileChangeType.Deleted }],
    });
    expect(names(await s.connection.sendRequest(ObjectsRequest, { uri: extraUri }))).toEqual(['extra-edited']);
    await s.close(extraUri);
    expect(names(await s.connection.sendRequest(ObjectsRequest, {}))).toEqual(['web', 'web-5d4f']);
    expect(s.status).toMatchObject({ files: 2, objects: 2 });
    await expectHealthy(s);
  });
});

// ------------------------------------------------------------------------------------------------ workspace folders

describe('workspace folders', () => {
  it("brings in an added folder's files, links owners across folders, and drops a removed folder", async () => {
    const dependents = workspace({ 'replicaset.yaml': replicaSet(GOOD_UID) });
    const owners = workspace({ 'deployment.yaml': DEPLOYMENT });
    const rsUri = uriOf(path.join(dependents, 'replicaset.yaml'));
    const deployUri = uriOf(path.join(owners, 'deployment.yaml'));
    const refLine = lineOf(replicaSet(GOOD_UID), `uid: ${GOOD_UID}`);
    const s = await start({ folder: dependents });
    expect(where(await s.diagnosticsFor(rsUri))).toEqual([`dangling-owner@${refLine}`]);

    let mark = s.mark();
    await s.changeFolders([owners]);
    await s.untilReloaded(mark);
    expect(s.status).toMatchObject({ files: 2, objects: 2 });
    expect(await s.diagnosticsFor(rsUri, (d) => d.length === 0)).toEqual([]);
    const graph = await s.connection.sendRequest(GraphRequest, { uid: '22222222-2222-2222-2222-222222222222' });
    expect(graph.edges).toEqual([
      { from: '22222222-2222-2222-2222-222222222222', to: GOOD_UID, controller: true, blockOwnerDeletion: true },
    ]);
    expect(graph.nodes.find((n) => n.uid === GOOD_UID)?.location?.uri).toBe(deployUri);
    const lenses = await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: rsUri } });
    expect(lenses?.find((l) => l.command)?.command).toMatchObject({
      title: 'Owned by Deployment web',
      arguments: [deployUri, expect.anything()],
    });

    // The added folder is watched like the first: a change on disk there re-analyses the dependent.
    writeFileSync(path.join(owners, 'deployment.yaml'), DEPLOYMENT.replace(GOOD_UID, WRONG_UID));
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: deployUri, type: FileChangeType.Changed }],
    });
    expect(where(await s.diagnosticsFor(rsUri, (d) => d.length > 0))).toEqual([`owner-uid-mismatch@${refLine}`]);
    writeFileSync(path.join(owners, 'deployment.yaml'), DEPLOYMENT);
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: deployUri, type: FileChangeType.Changed }],
    });
    expect(await s.diagnosticsFor(rsUri, (d) => d.length === 0)).toEqual([]);

    // Removed: its files leave the workspace, the reference dangles again.
    mark = s.mark();
    await s.changeFolders([], [owners]);
    await s.untilReloaded(mark);
    expect(s.status).toMatchObject({ files: 1, objects: 1 });
    expect(where(await s.diagnosticsFor(rsUri, (d) => d.length > 0))).toEqual([`dangling-owner@${refLine}`]);
    await expectHealthy(s);
  });
});
