// `kubectl-gc simulate` as a readable report: what was asked, the timeline, then deleted / orphaned /
// stuck (with the why-chain as a tree), a count of what remains, notes and findings. Every value from the input
// (names, finalizers, messages, what a cluster reported) is printed through safeText before it is styled.

import type { BlockReason, DeleteRequest, RemainingEntry, RequestArrival } from '../../engine/simulation/types';
import type { Report } from '../../../../shared/src/protocol';
import { describeCondition } from '../../engine/simulation/namespaceConditions';
import { controllerSet, describeControllers } from '../../engine/simulation/controllerSet';
import type { Finding } from '../../engine/analysis/findingTypes';
import type { Style } from './style';
import { findingLine } from './checkText';
import { safeDescribe, safeText } from './safeText';

export interface SimulateTextInput {
  requests: { request: DeleteRequest; defaultPolicy?: string }[];
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
}

export function simulateText(input: SimulateTextInput, s: Style): string {
  const result = input.report;
  const lines: string[] = [];
  if (input.requests.length === 0) {
    lines.push(s.bold('No deletion requested: the garbage collector runs on the state as given.'));
  }
  for (const { request: r, defaultPolicy } of input.requests) {
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
  if (result.kubernetesVersion)
    lines.push(
      s.dim(`Kubernetes ${safeText(result.kubernetesVersion)} behaviour${input.versionFrom ? ` (${safeText(input.versionFrom)})` : ''}`),
    );
  if (result.aborted) lines.push(s.red(`Aborted: ${safeText(result.aborted)}`));
  lines.push('', s.bold(safeText(result.summary)));
  const settling = result.deleted.some((d) => d.cause === 'settling') || result.stuck.some((st) => st.cause === 'settling');
  if (settling && input.requests.length)
    lines.push(
      s.dim('Marked (anyway): the garbage collector deletes (or leaves stuck) these without the request too, settling the input as given.'),
    );

  lines.push('', s.bold(`Timeline (${result.steps.length} steps)`));
  const width = String(result.steps.length).length;
  const several = input.requests.length > 1;
  const firstRequest = result.steps.findIndex((st) => st.request !== undefined);
  if (firstRequest > 0) lines.push(s.dim(`  Before the request${several ? 's' : ''}, the garbage collector settles the input as given:`));
  result.steps.forEach((st, i) => {
    if (st.request !== undefined && st.request !== result.steps[i - 1]?.request && (several || i > 0)) {
      lines.push(s.dim(several ? `  Request ${st.request + 1}:` : '  The request:'));
    }
    const action = st.action === 'remove' ? s.red(st.action) : st.action === 'reject' ? s.yellow(st.action) : st.action;
    lines.push(
      `  ${String(st.step).padStart(width)}  ${s.cyan(safeText(st.actor))}  ${action} ${safeDescribe(st.target)}  ${s.dim(safeText(st.detail))}`,
    );
  });

  lines.push('', s.bold(`Deleted (${result.deleted.length})`));
  const anyway = (cause: string) => (cause === 'settling' && input.requests.length ? s.dim(' (anyway)') : '');
  for (const d of result.deleted) lines.push(`  ${s.red('✗')} ${safeDescribe(d)}  ${s.dim(`step ${d.step}`)}${anyway(d.cause)}`);

  lines.push('', s.bold(`Orphaned (${result.orphaned.length})`));
  for (const o of result.orphaned)
    lines.push(`  ${s.yellow('○')} ${safeDescribe(o)}  ${s.dim(`lost its reference to uid ${safeText(o.ownerUID)}`)}`);

  lines.push('', s.bold(`Stuck (${result.stuck.length})`));
  for (const st of result.stuck) {
    lines.push(
      `  ${s.magenta('⧗')} ${safeDescribe(st)}${st.finalizers.length ? s.dim(`  finalizers: ${st.finalizers.map(safeText).join(', ')}`) : ''}${anyway(st.cause)}`,
    );
    renderReasons(st.blockedBy, '    ', lines, s, 0);
  }

  const terminating = input.remaining.filter((r) => r.beingDeleted).length;
  const count = input.remaining.length;
  lines.push('', `${s.bold('Remaining')}: ${count} object${count === 1 ? '' : 's'}${terminating ? ` (${terminating} terminating)` : ''}`);
  if (result.notes.length) {
    lines.push('', s.bold('Notes'));
    for (const n of result.notes) lines.push(`  • ${safeText(n)}`);
  }
  if (input.findings.length) {
    lines.push('', s.bold(`Findings in the input (${input.findings.length})`));
    for (const f of input.findings) lines.push(`  ${findingLine(f, input.relative, s)}`);
  }
  return lines.join('\n') + '\n';
}

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
