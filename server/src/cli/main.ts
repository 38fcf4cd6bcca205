// kubectl-gc: what the Kubernetes garbage collector will do, from the command line (and, on PATH, as
// `kubectl gc`). Exit codes: 0 ok, 1 findings at or above --fail-on (check), 2 bad usage or unreadable input.

import { isAbsolute, relative as relativePath } from 'node:path';
import type { Finding } from '../engine/analysis/findingTypes';
import { attachRanges } from '../engine/analysis/locate';
import { writeGcDot } from '../engine/graph/dotWriter';
import type { KubeObject } from '../engine/model';
import { SnapshotSession } from '../app/snapshotSession';
import type { ControllersMode, FinalizerOwnerRule, PropagationPolicy } from '../engine/simulation/types';
import { isChange, type UserRequest } from '../engine/simulation/changeRequest';
import { UsageError, allowOnly, flag, flagList, oneOf, parseArgs, type ParsedArgs } from './args';
import { HELP } from './help';
import { InputError, loadInput, type CliInput } from './input';
import type { ClusterInput } from './clusterInput';
import { checkTextChunks } from './output/checkText';
import { findingToJson, sortFindings } from './output/findingJson';
import { toSarif } from './output/sarif';
import { simulateDot } from './output/simulateDot';
import { simulateText } from './output/simulateText';
import { stuckText } from './output/stuckText';
import { loadCluster } from './clusterInput';
import { parseDuration, parseRequestTimeout } from './duration';
import { baselineSimulation } from '../app/simulationCache';
import { makeStyle } from './output/style';
import { safeJson, safeJsonChunks, safeText } from './output/safeText';
import { ARRIVALS, parsePlan, readPlanText } from './plan';
import { requestsOf } from './requests';
import { userRequestOf } from '../app/planRequests';
import { parseControllers } from '../engine/simulation/controllerSet';
import { NEWEST_KUBE_VERSION, kubeVersionText, parseKubeVersion } from '../engine/simulation/kubeVersion';
import pkg from '../../../package.json';
import { CHANGE_VERBS } from '../../../shared/src/protocol';

export interface CliIo {
  argv: string[];
  stdin: NodeJS.ReadableStream;
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

export async function run(io: CliIo): Promise<number> {
  try {
    const args = parseArgs(io.argv);
    if (flag(args, 'version')) {
      io.stdout.write(`kubectl-gc ${pkg.version}\n`);
      return 0;
    }
    if (!args.command || flag(args, 'help') || args.command === 'help') {
      io.stdout.write(HELP);
      return args.command || flag(args, 'help') ? 0 : 2;
    }
    switch (args.command) {
      case 'simulate':
        return await simulateCommand(args, io);
      case 'check':
        return await checkCommand(args, io);
      case 'graph':
        return await graphCommand(args, io);
      case 'stuck':
        return await stuckCommand(args, io);
      default:
        throw new UsageError(`unknown command "${args.command}": use simulate, check, graph or stuck (kubectl-gc --help)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`error: ${safeText(e.message)}\nSee 'kubectl-gc --help' for usage.\n`);
      return 2;
    }
    if (e instanceof InputError) {
      // One line per unreadable input, each escaped (its lines are ours, the paths and reasons are not).
      io.stderr.write(`${e.message.split('\n').map(safeText).join('\n')}\n`);
      return 2;
    }
    const message = e instanceof Error ? e.message : String(e);
    io.stderr.write(`error: internal error: ${safeText(message)}\nPlease report this with the input that caused it.\n`);
    return 2;
  }
}

/** Paths under the working directory print relative to it (clickable in terminals); others stay absolute. */
const relativeTo = (cwd: string) => (file: string) => {
  if (file === '-' || !isAbsolute(file)) return file;
  const rel = relativePath(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
};

/** Manifests with -f; without, the cluster of the kubeconfig's context (metadata only, read-only). */
async function load(
  args: ParsedArgs,
  io: CliIo,
): Promise<CliInput & Partial<Pick<ClusterInput, 'incomplete' | 'readPodSpecs' | 'version' | 'problem'>>> {
  const files = flagList(args, 'filename');
  if (flag(args, 'all-namespaces') === 'true' && flag(args, 'namespace') !== undefined)
    throw new UsageError('give either -n/--namespace or -A/--all-namespaces, not both');
  if (files.length) {
    if (flag(args, 'kubeconfig') !== undefined || flag(args, 'context') !== undefined)
      throw new UsageError('--kubeconfig and --context select a cluster; they do not apply with -f (manifests are read instead)');
    if (flag(args, 'request-timeout') !== undefined)
      throw new UsageError('--request-timeout bounds requests to a cluster; it does not apply with -f (manifests are read instead)');
    if (flag(args, 'all-namespaces') === 'true')
      throw new UsageError('-A/--all-namespaces selects what to read from a cluster; with -f every object given is read');
    return loadInput(files, { namespace: flag(args, 'namespace'), stdin: io.stdin });
  }
  const timeout = flag(args, 'request-timeout');
  const input = await loadCluster({
    kubeconfig: flag(args, 'kubeconfig'),
    context: flag(args, 'context'),
    namespace: flag(args, 'namespace'),
    env: io.env,
    stderr: io.stderr,
    ...(timeout !== undefined ? { requestTimeoutMs: parseRequestTimeout(timeout) } : {}),
  });
  for (const note of input.incomplete) io.stderr.write(`warning: ${safeText(note)}\n`);
  return input;
}

/** simulate's requests besides DELETE (cli/requests.ts): a flag per change verb. */
const REQUEST_FLAGS: readonly string[] = CHANGE_VERBS;

/** Flags every command takes to choose its input. */
const INPUT_FLAGS = ['filename', 'namespace', 'recursive', 'kubeconfig', 'context', 'all-namespaces', 'request-timeout'];

/** Fills in source positions for everything the findings point at, then attaches the ranges. */
function locate(input: CliInput, findings: Finding[]): Finding[] {
  const objects: KubeObject[] = [];
  for (const f of findings) {
    const o = input.inventory.objects.get(f.object.uid);
    if (o) objects.push(o);
    for (const r of f.related) {
      const ro = r.object && input.inventory.objects.get(r.object.uid);
      if (ro) objects.push(ro);
    }
  }
  input.ensureRanges(objects);
  attachRanges(findings, (uid) => input.inventory.objects.get(uid));
  return sortFindings(findings);
}

/** `builtin` (default), `gc`, or a kube-controller-manager --controllers list in its own spelling. */
function controllersOf(args: ParsedArgs): ControllersMode {
  const v = flag(args, 'controllers') ?? 'builtin';
  const parsed = parseControllers(v);
  if ('error' in parsed) throw new UsageError(`invalid --controllers value "${v}": ${parsed.error}`);
  return parsed.spec;
}

/** The Kubernetes version to follow: --kube-version, else the cluster's /version, else the newest followed. */
function kubeVersionOf(
  args: ParsedArgs,
  input: { version?: string; problem?: string; files: number },
  planVersion?: string,
): { kubeVersion: string; versionFrom: string } {
  const given = flag(args, 'kube-version');
  if (given !== undefined) {
    const v = parseKubeVersion(given);
    if (!v) throw new UsageError(`invalid --kube-version value "${given}": expected MAJOR.MINOR, e.g. 1.32 or v1.32.4`);
    return { kubeVersion: kubeVersionText(v), versionFrom: '--kube-version' };
  }
  const planned = planVersion === undefined ? undefined : parseKubeVersion(planVersion);
  if (planned) return { kubeVersion: kubeVersionText(planned), versionFrom: "the plan's kubeVersion" };
  if (!input.files && input.version) return { kubeVersion: input.version, versionFrom: "the cluster's /version" };
  const newest = kubeVersionText(NEWEST_KUBE_VERSION);
  return input.files || !input.problem
    ? { kubeVersion: newest, versionFrom: 'the newest the simulation follows; --kube-version to choose' }
    : { kubeVersion: newest, versionFrom: `the newest the simulation follows: ${input.problem}` };
}

/** What the engine's messages say to do where a custom finalizer's owner is unknown or guessed: this CLI's own flag. */
const FINALIZER_OWNER_HINT = 'pass --finalizer-owner FINALIZER=Kind/namespace/name';

/** --finalizer-owner PATTERN=Kind/namespace/name | PATTERN=external | PATTERN=absent */
function finalizerOwnersOf(args: ParsedArgs): FinalizerOwnerRule[] {
  return flagList(args, 'finalizer-owner').map((spec) => {
    const eq = spec.lastIndexOf('=');
    if (eq <= 0)
      throw new UsageError(`--finalizer-owner ${spec}: expected FINALIZER=Kind/namespace/name, FINALIZER=external or FINALIZER=absent`);
    const finalizer = spec.slice(0, eq);
    const target = spec.slice(eq + 1);
    if (target === 'external') return { finalizer, external: true };
    if (target === 'absent') return { finalizer, running: false };
    const parts = target.split('/');
    if (parts.length !== 3 || parts.some((p) => !p))
      throw new UsageError(
        `--finalizer-owner ${spec}: the workload must be Kind/namespace/name (e.g. Deployment/kafka/strimzi-cluster-operator)`,
      );
    return { finalizer, workload: { kind: parts[0], namespace: parts[1], name: parts[2] } };
  });
}

function cascadeOf(args: ParsedArgs): PropagationPolicy | null {
  const v = flag(args, 'cascade');
  if (v === undefined) return null;
  switch (v) {
    case 'background':
    case 'true':
      return 'Background';
    case 'foreground':
      return 'Foreground';
    case 'orphan':
    case 'false':
      return 'Orphan';
    default:
      throw new UsageError(`invalid --cascade value "${v}": must be background, foreground or orphan`);
  }
}

async function simulateCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  allowOnly(args, [
    ...INPUT_FLAGS,
    'cascade',
    'plan',
    'arrival',
    'controllers',
    'kube-version',
    'output',
    'finalizer-owner',
    'max-steps',
    'show-settling',
    ...REQUEST_FLAGS,
  ]);
  const output = oneOf(args, 'output', ['text', 'wide', 'json', 'dot'] as const, 'text');
  let controllers = flag(args, 'controllers') === undefined ? undefined : controllersOf(args);
  const finalizerOwners = finalizerOwnersOf(args);
  const maxSteps = flag(args, 'max-steps') === undefined ? undefined : Number(flag(args, 'max-steps'));
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps <= 0))
    throw new UsageError('--max-steps must be a positive integer');
  const policy = cascadeOf(args);
  const planFile = flag(args, 'plan');
  if (planFile && (args.positional.length || args.requests.length))
    throw new UsageError(`give either TYPE/NAME targets and request flags (--${REQUEST_FLAGS.join(', --')}) or --plan, not both`);
  if (planFile && policy)
    throw new UsageError('--cascade applies to TYPE/NAME targets; a plan gives each delete its own propagationPolicy');
  const planText = planFile ? readPlanText(planFile) : undefined;
  const input = await load(args, io);
  const { inventory } = input;
  let requests: UserRequest[];
  let planVersion: string | undefined;
  let arrival = flag(args, 'arrival') === undefined ? undefined : oneOf(args, 'arrival', ARRIVALS, 'settled');
  if (planText !== undefined) {
    const plan = parsePlan(planText, planFile!);
    arrival ??= plan.arrival;
    controllers ??= plan.controllers;
    planVersion = plan.kubeVersion;
    requests = plan.requests.map((r) => userRequestOf(inventory, r));
  } else {
    requests = requestsOf(args, inventory, policy);
  }
  const { kubeVersion, versionFrom } = kubeVersionOf(args, input, planVersion);
  arrival ??= 'settled';
  controllers ??= 'builtin';
  const session = sessionOf(input);
  const { answer, unread } = await session.simulateRequests(requests, {
    controllers,
    finalizerOwners,
    finalizerOwnerHint: FINALIZER_OWNER_HINT,
    maxSteps,
    arrival,
    kubeVersion,
  });
  const { report, result } = answer;
  warnUnread(input, unread, io);
  const findings = locate(input, session.findings({ controllers, finalizerOwners, finalizerOwnerHint: FINALIZER_OWNER_HINT, kubeVersion }));
  const relative = relativeTo(io.cwd);
  if (output === 'json') {
    // The Report (version 2), with version 1's `remaining` where it was.
    io.stdout.write(safeJson({ ...report, remaining: result.remaining, findings: findings.map(findingToJson) }) + '\n');
  } else if (output === 'dot') {
    io.stdout.write(simulateDot(inventory, result));
  } else {
    const withDefaults = requests.map((request) =>
      isChange(request)
        ? { request }
        : {
            request,
            defaultPolicy: inventory.kinds.defaultGcPolicy(request.apiVersion, request.kind) === 'orphan' ? 'Orphan' : 'Background',
          },
    );
    io.stdout.write(
      simulateText(
        {
          requests: withDefaults,
          arrival,
          controllers,
          versionFrom,
          report,
          remaining: result.remaining,
          findings,
          relative,
          wide: output === 'wide',
          showSettling: flag(args, 'show-settling') === 'true',
        },
        makeStyle(io.stdout, io.env),
      ),
    );
    reportProblems(input, io);
  }
  if (report.aborted) {
    io.stderr.write(`error: ${safeText(report.aborted)}\n`);
    return 2;
  }
  return 0;
}

async function checkCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  allowOnly(args, [...INPUT_FLAGS, 'output', 'fail-on', 'controllers', 'kube-version', 'finalizer-owner']);
  const output = oneOf(args, 'output', ['text', 'json', 'sarif'] as const, 'text');
  const failOn = oneOf(args, 'fail-on', ['error', 'warning', 'none'] as const, 'error');
  const controllers = controllersOf(args);
  const input = await load(args, io);
  const { kubeVersion } = kubeVersionOf(args, input);
  const findings = locate(
    input,
    sessionOf(input).findings({
      controllers,
      finalizerOwners: finalizerOwnersOf(args),
      finalizerOwnerHint: FINALIZER_OWNER_HINT,
      kubeVersion,
    }),
  );
  const relative = relativeTo(io.cwd);
  const skipped = input.problems.filter((p) => p.severity === 'error');
  if (output === 'json') {
    // Written in pieces, as checkText's lines: the output of 200,000 findings is never held whole.
    const chunks = safeJsonChunks(
      {
        objects: input.inventory.objects.size,
        skipped: skipped.map((p) => ({ file: p.file, line: p.line, column: p.column, code: p.code, reason: p.reason })),
        // Every problem the text lists and counts (additive): the skipped ones, and the warnings.
        problems: input.problems
          .filter((p) => p.severity !== 'info')
          .map((p) => ({ file: p.file, line: p.line, column: p.column, severity: p.severity, code: p.code, reason: p.reason })),
        findings: [],
        ...(input.incomplete?.length ? { incomplete: input.incomplete } : {}),
      },
      'findings',
      findings,
      findingToJson,
    );
    for (const chunk of chunks) io.stdout.write(chunk);
    io.stdout.write('\n');
  } else if (output === 'sarif') {
    io.stdout.write(safeJson(toSarif(findings, pkg.version, relative)) + '\n');
  } else {
    const style = makeStyle(io.stdout, io.env);
    for (const chunk of checkTextChunks(findings, input.problems, input.inventory.objects.size, input.files, relative, style))
      io.stdout.write(chunk);
  }
  if (failOn === 'none') return 0;
  const errors = findings.some((f) => f.severity === 'error') || skipped.length > 0;
  const warnings = findings.some((f) => f.severity === 'warning') || input.problems.some((p) => p.severity === 'warning');
  return errors || (failOn === 'warning' && warnings) ? 1 : 0;
}

async function graphCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  allowOnly(args, [...INPUT_FLAGS, 'output', 'uid']);
  const output = oneOf(args, 'output', ['dot', 'json'] as const, 'dot');
  const input = await load(args, io);
  const uids = flagList(args, 'uid');
  const snapshot = input.inventory.graph.snapshot(uids.length ? input.inventory.graph.component(uids) : undefined);
  io.stdout.write(output === 'json' ? safeJson(snapshot) + '\n' : writeGcDot(snapshot));
  if (output === 'dot') reportProblems(input, io);
  return 0;
}

async function stuckCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  allowOnly(args, [...INPUT_FLAGS, 'output', 'controllers', 'kube-version', 'finalizer-owner', 'slow-after']);
  const output = oneOf(args, 'output', ['text', 'json'] as const, 'text');
  const controllers = controllersOf(args);
  const slowAfterMs = parseDuration(
    'slow-after',
    flag(args, 'slow-after') ?? '10m',
    '0 lists every terminating object that can finish as slow',
  );
  const input = await load(args, io);
  const { inventory } = input;
  // What is terminating now and cannot finish (the garbage collector and the controllers run, nothing is deleted),
  // and what can finish but has taken longer than --slow-after: the editor's Stuck Objects answer (app/stuck.ts).
  // Files have no clock: what is slow is measured to the newest timestamp in them, and the text gives no age.
  const { kubeVersion } = kubeVersionOf(args, input);
  const options = { controllers, finalizerOwners: finalizerOwnersOf(args), finalizerOwnerHint: FINALIZER_OWNER_HINT, kubeVersion };
  const session = sessionOf(input);
  const { answer: items, unread } = await session.stuckWithUnread(options, slowAfterMs / 1000);
  warnUnread(input, unread, io);
  const now = session.now();
  if (output === 'json') {
    io.stdout.write(safeJson({ version: 2, stuck: items, ...(input.incomplete?.length ? { incomplete: input.incomplete } : {}) }) + '\n');
  } else {
    // Controllers may start deletions while settling (a terminating Namespace's content): count what terminates
    // at the end when something is stuck, so that the stuck are a part of it.
    const stuck = items.filter((i) => i.state === 'stuck').length;
    // What finishes only by a guess is counted as the stuck list shows it: with no guess trusted.
    const counted = items.some((i) => i.guess !== undefined) ? { ...options, trustGuesses: false } : options;
    const terminating = stuck
      ? baselineSimulation(inventory, counted).remaining.filter((r) => r.beingDeleted).length
      : inventory.terminating.size;
    io.stdout.write(
      stuckText(items, terminating, controllers, makeStyle(io.stdout, io.env), input.files ? undefined : new Date(now!), slowAfterMs),
    );
    reportProblems(input, io);
  }
  return 0;
}

/**
 * The CLI's questions go to the application layer's session of what it read (app/snapshotSession.ts): on a cluster,
 * the Pods a simulation can reach in namespaces with PersistentVolumeClaims are read in full first (pvc-protection
 * needs their volumes).
 */
function sessionOf(input: Awaited<ReturnType<typeof load>>): SnapshotSession {
  return new SnapshotSession({
    inventory: input.inventory,
    fromFiles: Boolean(input.files),
    ...(input.readPodSpecs ? { readPodSpecs: input.readPodSpecs } : {}),
    ...(input.incomplete?.length ? { incomplete: [...input.incomplete] } : {}),
  });
}

/** What a cluster read could not cover: one "incomplete" warning each, and in the JSON's `incomplete`. */
function warnUnread(input: Awaited<ReturnType<typeof load>>, unread: readonly string[], io: CliIo): void {
  for (const note of unread) io.stderr.write(`warning: ${safeText(note)}\n`);
  (input.incomplete ??= []).push(...unread);
}

/** Documents that were not loaded go to stderr for outputs meant for people, so stdout stays parseable. */
function reportProblems(input: CliInput, io: CliIo): void {
  const shown = input.problems.filter((p) => p.severity === 'error');
  if (!shown.length) return;
  const relative = relativeTo(io.cwd);
  io.stderr.write(`${shown.length} document(s) were not loaded:\n`);
  for (const p of shown.slice(0, 50)) io.stderr.write(`  ${safeText(relative(p.file))}:${p.line}:${p.column}: ${safeText(p.reason)}\n`);
  if (shown.length > 50) io.stderr.write(`  … and ${shown.length - 50} more (kubectl-gc check -f … lists them all)\n`);
}

if (require.main === module) {
  // A reader that stops early (`kubectl gc check … | head`) closes the pipe: the output ends there, quietly, not with
  // a stack trace, and the exit code is still the command's.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      stream.write = (() => true) as typeof stream.write;
    });
  }
  run({
    argv: process.argv.slice(2),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}
