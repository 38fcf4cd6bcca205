// `kubectl-gc simulate` as a readable report. It leads with the summary line (what the request causes), then what was
// asked, then the consequences of the request grouped by kind (workloads and volumes first, then configuration, then
// the rest: shared/src/reportLayout.ts), stuck objects with their why-chain as a tree and their ways out, what the garbage collector does
// anyway (one line; listed with --show-settling), the timeline cut where the request starts, a count of what remains,
// notes and findings. Long lists of one kind and long runs of like steps are folded unless `-o wide`. Every value from
// the input (names, finalizers, messages, what a cluster reported) is printed through safeText before it is styled.

import type { BlockReason, RemainingEntry, RequestArrival } from '../../engine/simulation/types';
import { isChange, type ChangeRequest, type UserRequest } from '../../engine/simulation/changeRequest';
import {
  countOf,
  groupByKind,
  pluralKind,
  splitByCause,
  timelineSections,
  type Report,
  type ReportPart,
  type SimulationStep,
} from '../../../../shared/src/protocol';
import { describeCondition } from '../../engine/simulation/namespaceConditions';
import { controllerSet, describeControllers } from '../../engine/simulation/controllerSet';
import type { Finding } from '../../engine/analysis/findingTypes';
import type { Style } from './style';
import { findingLine } from './checkText';
import { safeDescribe, safeText } from './safeText';
import { renderWaysOut } from './waysOutText';

export interface SimulateTextInput {
  /** DELETEs and changes, in the order sent; a DELETE's `defaultPolicy` is the API's for its type. */
  requests: { request: UserRequest; defaultPolicy?: string }[];
  /** How several requests arrived (default settled). */
  arrival?: RequestArrival;
  /** `builtin`, `gc` or a kube-controller-manager list. */
  controllers: string;
  /** Where the Kubernetes version came from (`--kube-version`, `the cluster's /version`, `the default`). */
  versionFrom?: string;
  report: Report;
  remaining: RemainingEntry[];
  findings: Finding[];
  relative: (file: string) => string;
  /** `-o wide`: every object and every step, nothing folded. */
  wide?: boolean;
  /** `--show-settling`: list what the garbage collector does anyway, and its steps before the request. */
  showSettling?: boolean;
}

/** A kind with more objects than this is folded to its first FOLDED_SHOWN (unless -o wide). */
export const FOLD_OVER = 5;
export const FOLDED_SHOWN = 3;
/** Runs of one actor's steps on one kind touching at least this many objects are folded to one line (unless -o wide). */
export const STEP_RUN = 4;

export function simulateText(input: SimulateTextInput, s: Style): string {
  const report = input.report;
  const lines: string[] = [];
  const requested = input.requests.length > 0;
  const wide = input.wide === true;
  lines.push(s.bold(safeText(report.summary)), '');

  if (!requested) lines.push(s.bold('No deletion requested: the garbage collector runs on the state as given.'));
  for (const { request: r, defaultPolicy } of input.requests) {
    if (isChange(r)) {
      lines.push(changeLine(r, s));
      continue;
    }
    const what = safeDescribe(r);
    const policy = r.propagationPolicy
      ? `propagationPolicy ${safeText(r.propagationPolicy)}`
      : `no propagationPolicy: the API default for ${safeText(`${r.apiVersion} ${r.kind}`)} applies (${defaultPolicy ?? 'Background'}). Note that kubectl delete always sends one (--cascade=background unless told otherwise)`;
    lines.push(`${s.bold('DELETE')} ${what} (${policy})`);
  }
  if (input.requests.length > 1) {
    lines.push(
      s.dim(
        input.arrival === 'back-to-back'
          ? 'Arrival: back to back: every request reaches the apiserver before the garbage collector acts, as kubectl delete sends them'
          : 'Arrival: settled: each request after the previous one has settled; kubectl delete sends them back to back (--arrival=back-to-back)',
      ),
    );
  }
  lines.push(s.dim(`Controllers: ${safeText(describeControllers(controllerSet(input.controllers)))}`));
  if (report.kubernetesVersion)
    lines.push(
      s.dim(`Kubernetes ${safeText(report.kubernetesVersion)} behaviour${input.versionFrom ? ` (${safeText(input.versionFrom)})` : ''}`),
    );
  if (report.aborted) lines.push(s.red(`Aborted: ${safeText(report.aborted)}`));

  // With no request, everything is the garbage collector settling the input: that is then the subject.
  const { request: caused, settling } = requested ? splitByCause(report) : { request: splitByCause(report).settling, settling: none() };
  const targets = new Set(report.targets.flatMap((t) => (t.uid !== undefined ? [t.uid] : [])));
  consequences(caused, requested ? ' by the request' : '', targets, wide, s, lines);

  const settled = settling.deleted.length + settling.orphaned.length + settling.stuck.length;
  if (settled) {
    lines.push('');
    if (input.showSettling) {
      lines.push(s.bold('What the garbage collector does anyway, settling the input as given (without the request too)'));
      consequences(settling, ' anyway', targets, wide, s, lines);
    } else {
      lines.push(
        s.dim(
          `Without the request too, the garbage collector settles the input as given: ${partCounts(settling)} (--show-settling lists them).`,
        ),
      );
    }
  }

  timeline(report, input, wide, s, lines);

  const terminating = input.remaining.filter((r) => r.beingDeleted).length;
  const count = input.remaining.length;
  lines.push('', `${s.bold('Remaining')}: ${count} object${count === 1 ? '' : 's'}${terminating ? ` (${terminating} terminating)` : ''}`);
  if (report.notes.length) {
    lines.push('', s.bold('Notes'));
    for (const n of report.notes) lines.push(`  • ${safeText(n)}`);
  }
  if (input.findings.length) {
    lines.push('', s.bold(`Findings in the input (${input.findings.length})`));
    for (const f of input.findings) lines.push(`  ${findingLine(f, input.relative, s)}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * What a request besides DELETE asks, as its header line and timeline heading say it: "PATCH Kafka kafka/my-cluster
 * (remove finalizer kafka.strimzi.io/finalizer)", "SCALE Deployment kafka/op (to 1 replica)".
 */
export function changeLine(r: ChangeRequest, s: Pick<Style, 'bold'>): string {
  switch (r.verb) {
    case 'remove-finalizer':
      return `${s.bold('PATCH')} ${safeDescribe(r.target)} (remove finalizer ${safeText(r.finalizer)})`;
    case 'remove-owner-reference':
      return `${s.bold('PATCH')} ${safeDescribe(r.target)} (remove its ownerReference to uid ${safeText(r.ownerUid)})`;
    case 'set-owner-reference':
      return `${s.bold('PATCH')} ${safeDescribe(r.target)} (replace its ownerReference to uid ${safeText(r.ownerUid)} with ${safeText(`${r.to.kind} ${r.to.name}`)}, uid ${safeText(r.to.uid)})`;
    case 'scale':
      return `${s.bold('SCALE')} ${safeDescribe(r.target)} (to ${r.replicas} replica${r.replicas === 1 ? '' : 's'})`;
    case 'restore-controller':
      return `${s.bold('RESTORE')} the controller that removes ${safeText(r.finalizer)} (it runs again${r.for ? `, for ${safeDescribe(r.for)}` : ''})`;
    case 'restore-backend':
      return r.target.kind === 'APIService'
        ? `${s.bold('RESTORE')} the backend of ${safeDescribe(r.target)} (its add-on reinstalled in another namespace, the APIService pointed at it)`
        : `${s.bold('RESTORE')} the Pods behind ${safeDescribe(r.target)} (ready again: its EndpointSlices and APIServices follow)`;
    case 'set-webhook-failure-policy':
      return `${s.bold('PATCH')} ${safeDescribe(r.target)} (failurePolicy: ${safeText(r.failurePolicy)} on webhook ${safeText(r.webhook)})`;
  }
}

const plain = { bold: (t: string) => t };

const none = (): ReportPart => ({ deleted: [], orphaned: [], stuck: [] });

/** "5 deleted (1 ReplicaSet, 4 Pods), 2 stuck, 0 orphaned". */
function partCounts(part: ReportPart): string {
  const kinds = groupByKind(part.deleted)
    .map((g) => countOf(g.kind, g.entries.length))
    .join(', ');
  return `${part.deleted.length} deleted${kinds ? ` (${safeText(kinds)})` : ''}, ${part.stuck.length} stuck, ${part.orphaned.length} orphaned`;
}

/** Deleted, stuck and orphaned, each grouped by kind. */
function consequences(part: ReportPart, by: string, targets: ReadonlySet<string>, wide: boolean, s: Style, lines: string[]): void {
  lines.push('', s.bold(`Deleted${by} (${part.deleted.length})`));
  for (const group of groupByKind(part.deleted)) {
    folded(group.kind, group.entries, wide, s, lines, (d) => [`    ${s.red('✗')} ${safeDescribe(d)}  ${s.dim(`step ${d.step}`)}`]);
  }

  const stuckHeading = by === ' by the request' ? 'Left stuck by the request' : `Stuck${by}`;
  if (part.stuck.length || by !== ' anyway') lines.push('', s.bold(`${stuckHeading} (${part.stuck.length})`));
  // The targets first: the summary line speaks of them.
  const stuck = [...part.stuck.filter((e) => targets.has(e.uid)), ...part.stuck.filter((e) => !targets.has(e.uid))];
  for (const group of groupByKind(stuck)) {
    folded(group.kind, group.entries, wide, s, lines, (st) => {
      const out = [
        `    ${s.magenta('⧗')} ${safeDescribe(st)}${st.finalizers.length ? s.dim(`  finalizers: ${st.finalizers.map(safeText).join(', ')}`) : ''}`,
      ];
      renderReasons(st.blockedBy, '      ', out, s, 0);
      // Short, as the rest of the report: the safest way out, all of them with -o wide.
      renderWaysOut(st.waysOut ?? [], '      ', out, s, { heading: 'Ways out after the request', shown: wide ? undefined : 1 });
      return out;
    });
  }

  if (part.orphaned.length || by !== ' anyway') lines.push('', s.bold(`Orphaned${by} (${part.orphaned.length})`));
  for (const group of groupByKind(part.orphaned)) {
    folded(group.kind, group.entries, wide, s, lines, (o) => [
      `    ${s.yellow('○')} ${safeDescribe(o)}  ${s.dim(`lost its reference to uid ${safeText(o.ownerUID)}`)}`,
    ]);
  }
}

/** One kind's entries under a "Pods (21)" heading, the first few only when there are many (unless -o wide). */
function folded<T>(kind: string, entries: T[], wide: boolean, s: Style, lines: string[], render: (e: T) => string[]): void {
  lines.push(`  ${safeText(pluralKind(kind, entries.length))} (${entries.length})`);
  const shown = wide || entries.length <= FOLD_OVER ? entries : entries.slice(0, FOLDED_SHOWN);
  for (const e of shown) lines.push(...render(e));
  const rest = entries.length - shown.length;
  if (rest) lines.push(s.dim(`    … ${rest} more ${safeText(pluralKind(kind, rest))} (-o wide lists them all)`));
}

function timeline(report: Report, input: SimulateTextInput, wide: boolean, s: Style, lines: string[]): void {
  const sections = timelineSections(report);
  const several = input.requests.length > 1;
  const hidden = sections.find((x) => x.type === 'settling' && input.requests.length > 0 && !input.showSettling)?.steps.length ?? 0;
  lines.push('', s.bold(`Timeline (${report.steps.length} step${report.steps.length === 1 ? '' : 's'})`));
  const width = String(report.steps.length).length;
  for (const section of sections) {
    if (section.type === 'settling') {
      if (input.requests.length === 0) {
        stepLines(section.steps, width, wide, s, lines);
      } else if (input.showSettling) {
        lines.push(s.dim(`  Before the request${several ? 's' : ''}, the garbage collector settles the input as given:`));
        stepLines(section.steps, width, wide, s, lines);
      } else {
        lines.push(
          s.dim(
            `  Before the request${several ? 's' : ''}: ${countText(hidden, 'step')} of the garbage collector settling the input as given (--show-settling shows them)`,
          ),
        );
      }
      continue;
    }
    const target = input.requests[section.request]?.request;
    const what = target === undefined ? '' : isChange(target) ? `, ${changeLine(target, plain)}` : `, DELETE ${safeDescribe(target)}`;
    const heading = several ? `Request ${section.request + 1}${what}:` : 'The request:';
    lines.push(s.dim(`  ${heading}`));
    if (section.unchanged !== undefined) lines.push(s.dim(`  ${' '.repeat(width)}  apiserver: ${safeText(section.unchanged)} (no step)`));
    stepLines(section.steps, width, wide, s, lines);
  }
  if (report.steps.length === 0 && input.requests.length === 0) lines.push(s.dim('  Nothing happened.'));
}

const countText = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Steps one a line; a run of steps of one actor on one kind that touches at least STEP_RUN objects (the namespace
 * controller deleting and removing 34 ConfigMaps) is folded to one line unless -o wide.
 */
function stepLines(steps: SimulationStep[], width: number, wide: boolean, s: Style, lines: string[]): void {
  for (let i = 0; i < steps.length; ) {
    let j = i + 1;
    if (!wide) while (j < steps.length && alike(steps[i], steps[j])) j++;
    const run = steps.slice(i, j);
    const objects = new Set(run.map((x) => x.target.uid || `${x.target.namespace}/${x.target.name}`));
    if (objects.size >= STEP_RUN) {
      const first = run[0];
      const actions = [...new Set(run.map((x) => x.action))];
      const names = run.slice(0, 2).map((x) => safeText(x.target.namespace ? `${x.target.namespace}/${x.target.name}` : x.target.name));
      lines.push(
        `  ${`${first.step}–${run[run.length - 1].step}`.padStart(width)}  ${s.cyan(safeText(first.actor))}  ${actions.map((a) => action(a, s)).join(' + ')} ${safeText(countOf(first.target.kind, objects.size))}  ${s.dim(`${[...new Set(names)].join(', ')}, … (-o wide shows each step)`)}`,
      );
    } else {
      for (const st of run) {
        lines.push(
          `  ${String(st.step).padStart(width)}  ${s.cyan(safeText(st.actor))}  ${action(st.action, s)} ${safeDescribe(st.target)}  ${s.dim(safeText(st.detail))}`,
        );
      }
    }
    i = j;
  }
}

/** One actor, one kind, one request: a run the timeline may fold. */
const alike = (a: SimulationStep, b: SimulationStep) => a.actor === b.actor && a.target.kind === b.target.kind && a.request === b.request;

const action = (a: SimulationStep['action'], s: Style) => (a === 'remove' ? s.red(a) : a === 'reject' ? s.yellow(a) : a);

export function renderReasons(reasons: BlockReason[], indent: string, lines: string[], s: Style, depth: number): void {
  reasons.forEach((r, i) => {
    const last = i === reasons.length - 1;
    lines.push(`${indent}${last ? '└─' : '├─'} ${s.yellow(r.type)}: ${safeText(r.message)}`);
    const inner = indent + (last ? '   ' : '│  ');
    // A Namespace's conditions, as the cluster reported them, before what the simulation leaves in it.
    for (const c of r.conditions ?? []) lines.push(`${inner}${s.dim('status:')} ${safeText(describeCondition(c))}`);
    if (r.blockedBy?.length && depth < 6) renderReasons(r.blockedBy, inner, lines, s, depth + 1);
  });
}
