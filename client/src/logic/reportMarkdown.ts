// The Simulate Delete report as markdown: what was asked, the impact in one line, the deleted / orphaned /
// stuck lists (stuck with its why-chain as nested bullets), the timeline, notes. Every object links to where
// it is written. All user-derived text goes through markdown.ts (`text`, `code`): nothing from a manifest can
// become markup. The same page shows the Report of other requests (kubeGcLens/simulateRequests: a finalizer
// removed, a workload scaled…), each request said as what it is, never as a DELETE.

import type { BlockReason, ObjectIdentity, PlanRequest, RequestsReport, SimulationStep, TargetReport } from '../../../shared/src/protocol';
import type { PolicyChoice, SimulateReport, SourceLocation, WayOut } from '../../../shared/src/protocol';
import { groupByKind, pluralKind, splitByCause, timelineSections, type ReportPart } from '../../../shared/src/protocol';
import { reasonHeading } from './blockReasons';
import { escapeHtml } from './reportHtml';
import { code, codeBlock, commandUri, link, text } from './markdown';
import { count, describeObject } from './objects';

/** The command our links run: (uri, range) → open the document and select the range. */
export const REVEAL_LOCATION_COMMAND = 'kubeGcLens.revealLocation';

/** Why-chains are bounded by the engine; this only guards the renderer against a hostile or looping input. */
const MAX_REASON_DEPTH = 10;

export const POLICY_LABELS: Record<PolicyChoice, string> = {
  default: 'API default',
  Background: 'Background',
  Foreground: 'Foreground',
  Orphan: 'Orphan',
};

const POLICY_EXPLANATIONS: Record<PolicyChoice, string> = {
  default: "no propagationPolicy is sent, so the type's own default applies (the first step says which)",
  Background: 'the object goes at once, then the garbage collector deletes its dependents',
  Foreground: 'the object stays (foregroundDeletion) until its blocking dependents are gone',
  Orphan: 'only the object goes; its dependents stay and lose their reference to it',
};

const CONTROLLERS_EXPLANATIONS: Record<string, string> = {
  builtin:
    "the kubelet, the namespace controller, pvc/pv-protection, the CRD cleanup and each custom finalizer's controller (while its workload runs) act besides the apiserver and the garbage collector",
  gc: 'strict: only the apiserver and the garbage collector act; nobody else removes a finalizer',
};

/** Where the simulated graph comes from: the workspace's manifests (the default) or a live cluster. */
export interface ReportSource {
  /** The kubeconfig context of the live cluster the report was computed on. */
  cluster?: string;
  /** Add a "Show in Graph" link (kubeGcLens.showInGraph): the deletion played out on the ownership graph. */
  graphLink?: boolean;
}

/** The command the report's graph link runs. */
export const SHOW_IN_GRAPH = 'kubeGcLens.showInGraph';

/** Live results whose resources could not all be read carry these notes (server/src/sources/cluster/liveCluster.ts). */
const INCOMPLETE_NOTE = /^this preview is incomplete: /i;

/** What the report view shows: Simulate Delete's report, or the Report of other requests. */
export type ShownReport = SimulateReport | RequestsReport;

const isDeleteReport = (r: ShownReport): r is SimulateReport => 'policy' in r && 'target' in r;

/** Plain text (editor tab titles are not markdown): the object and policy of a DELETE, else what was asked. */
export function reportTitle(
  report: Pick<SimulateReport, 'target' | 'policy'> | Pick<RequestsReport, 'subject'>,
  source: ReportSource = {},
): string {
  const on = source.cluster !== undefined ? ` on ${source.cluster}` : '';
  if ('subject' in report) return `Simulate${on}: ${report.subject}`;
  return `Simulate Delete${on}: ${describeObject(report.target)} (${POLICY_LABELS[report.policy]})`;
}

/** How the lists name what caused them: "this DELETE", "this change", "these requests". */
function causeName(report: ShownReport): string {
  if (isDeleteReport(report)) return 'this DELETE';
  if (report.targets.length > 1) return 'these requests';
  return report.targets[0]?.change ? 'this change' : 'this DELETE';
}

export function renderSimulateReport(report: ShownReport, source: ReportSource = {}): string {
  const refs = new ObjectReferences(report);
  const result = report;
  const out: string[] = [];
  const live = source.cluster !== undefined;
  // On a live cluster the missing resources matter before anything else: they go first, the other notes last.
  const incomplete = live ? result.notes.filter((n) => INCOMPLETE_NOTE.test(n)) : [];
  const notes = live ? result.notes.filter((n) => !INCOMPLETE_NOTE.test(n)) : result.notes;

  out.push(`# ${text(reportTitle(report, source))}`, '');
  // The answer first: what this DELETE causes.
  out.push(`**${text(report.summary)}**`, '');
  if (incomplete.length) {
    out.push(`> **This preview is incomplete:** not every resource of the cluster could be read, so objects may be missing from it.`, '>');
    for (const n of incomplete) out.push(`> - ${text(n.replace(INCOMPLETE_NOTE, ''))}`);
    out.push('');
  }
  if (live) {
    out.push(
      `- **Graph:** the live cluster of context ${code(source.cluster ?? '')}, as listed and watched (a preview: nothing is sent to the cluster)`,
    );
  }
  if (isDeleteReport(report)) {
    const t = report.target;
    out.push(`- **Object:** ${refs.ref(t)}, ${text(t.apiVersion)}, uid ${code(t.uid)}`);
    out.push(`- **Policy:** ${text(POLICY_LABELS[report.policy])}: ${text(POLICY_EXPLANATIONS[report.policy])}`);
  } else {
    const lines = report.requests.map((r, i) => `${requestText(r, refs, report.targets[i])}`);
    if (lines.length === 1) out.push(`- **Request:** ${lines[0]}`);
    else out.push(`- **Requests**, each after the previous one:`, ...lines.map((l, i) => `  ${i + 1}. ${l}`));
  }
  out.push(
    `- **Controllers:** ${text(report.controllers)}: ${text(CONTROLLERS_EXPLANATIONS[report.controllers] ?? "only these kube-controller-manager controllers and the apiserver's CRD cleanup act besides the apiserver; no kubelet, no volume provisioner, no operator")}`,
    '',
  );
  if (report.kubernetesVersion) out.push(`- **Kubernetes:** ${text(report.kubernetesVersion)} behaviour`, '');
  if (source.graphLink && isDeleteReport(report)) {
    const args = { uid: report.target.uid, source: live ? 'cluster' : 'workspace', policy: report.policy };
    out.push(
      `${link('Show in Graph', commandUri(SHOW_IN_GRAPH, [args]))}: this deletion played out on the ownership graph, step by step.`,
      '',
    );
  }
  if (result.aborted) out.push(`> **Aborted, the result is partial:** ${text(result.aborted)}`, '');

  // What the request causes, grouped by kind; what the garbage collector does anyway, in a collapsed section.
  const { request: caused, settling } = splitByCause(report);
  const by = causeName(report);
  const targets = new Set(report.targets.flatMap((x) => (x.uid !== undefined ? [x.uid] : [])));
  consequences(caused, by, targets, refs, out);
  const anyway = settling.deleted.length + settling.stuck.length + settling.orphaned.length;
  if (anyway) {
    out.push(
      '<details>',
      `<summary>What the garbage collector does anyway, without ${by} too: ${settling.deleted.length} deleted, ${settling.stuck.length} stuck, ${settling.orphaned.length} orphaned</summary>`,
      '',
      `_The garbage collector settles the input as given (owners that are absent, objects already terminating), whether or not ${by} ${by === 'these requests' ? 'are' : 'is'} sent._`,
      '',
    );
    consequences(settling, 'anyway', new Set(), refs, out, '###');
    out.push('</details>', '');
  }

  out.push(`## Timeline (${count(result.steps.length, 'step')})`, '');
  if (result.steps.length === 0) out.push('_Nothing happened._', '');
  // Cut where the request reached the apiserver (the targets' afterStep), as in the CLI.
  for (const section of timelineSections(report)) {
    if (section.type === 'settling') {
      out.push(
        '<details>',
        `<summary>Before the request: ${count(section.steps.length, 'step')} of the garbage collector settling the input as given</summary>`,
        '',
      );
      stepTable(section.steps, refs, out);
      out.push('</details>', '');
      continue;
    }
    out.push(report.targets.length > 1 ? `Request ${section.request + 1}:` : 'The request:', '');
    if (section.unchanged !== undefined) out.push(`_The apiserver: ${text(section.unchanged)} (no step)._`, '');
    if (section.steps.length) stepTable(section.steps, refs, out);
  }

  if (notes.length) {
    out.push('## Notes', '');
    for (const n of notes) out.push(`- ${text(n)}`);
    out.push('');
  }
  return out.join('\n');
}

const TARGET_OUTCOMES: Record<TargetReport['outcome'], string> = {
  deleted: 'it is deleted',
  collected: 'the garbage collector deletes it anyway',
  stuck: 'it stays Terminating',
  rejected: 'rejected by the apiserver',
  unchanged: 'it stays',
};

/** One request as the header says it ("PATCH Kafka kafka/my-cluster: remove finalizer `F`"), then what became of its object. */
function requestText(r: PlanRequest, refs: ObjectReferences, t: TargetReport | undefined): string {
  const named = r.apiVersion !== undefined && r.kind !== undefined && r.name !== undefined;
  const id = { apiVersion: r.apiVersion ?? '', kind: r.kind ?? '', namespace: t?.namespace ?? r.namespace ?? '', name: r.name ?? '' };
  const object = t?.uid !== undefined ? refs.ref({ ...id, uid: t.uid }) : text(describeObject(id));
  const owner = (uid: string) => {
    const o = refs.identity(uid);
    return o ? `${refs.ref(o)} (uid ${code(uid)})` : `uid ${code(uid)}`;
  };
  let what: string;
  switch (r.verb) {
    case 'delete':
      what = `DELETE ${object}, ${r.propagationPolicy ? `propagationPolicy ${text(r.propagationPolicy)}` : "no propagationPolicy (the type's own default)"}`;
      break;
    case 'remove-finalizer':
      what = `PATCH ${object}: remove finalizer ${code(r.finalizer)}`;
      break;
    case 'remove-owner-reference':
      what = `PATCH ${object}: remove its ownerReference to ${owner(r.ownerUid)}`;
      break;
    case 'set-owner-reference':
      what = `PATCH ${object}: replace its ownerReference to uid ${code(r.ownerUid)} with ${text(`${r.to.kind} ${r.to.name}`)} (uid ${code(r.to.uid)})`;
      break;
    case 'scale':
      what = `SCALE ${object} to ${count(r.replicas, 'replica')}`;
      break;
    case 'restore-controller':
      what = `RESTORE the controller that removes ${code(r.finalizer)} (it runs again${named ? `, for ${object}` : ''})`;
      break;
    case 'restore-backend':
      what =
        r.kind === 'APIService'
          ? `RESTORE the backend of ${object} (its add-on reinstalled in another namespace)`
          : `RESTORE the Pods behind ${object} (ready again)`;
      break;
    case 'set-webhook-failure-policy':
      what = `PATCH ${object}: failurePolicy ${text(r.failurePolicy)} on webhook ${code(r.webhook)}`;
      break;
  }
  return t && (named || r.verb !== 'restore-controller') ? `${what}; ${text(TARGET_OUTCOMES[t.outcome])}` : what;
}

/** A kind with more objects than this is listed in a collapsed section of its own. */
const COLLAPSE_OVER = 10;

/** Deleted, left stuck and orphaned, each grouped by kind (workloads and volumes first, then configuration, …). */
function consequences(
  part: ReportPart,
  by: string,
  targets: ReadonlySet<string>,
  refs: ObjectReferences,
  out: string[],
  level = '##',
): void {
  out.push(`${level} Deleted ${by === 'anyway' ? 'anyway' : `by ${by}`} (${part.deleted.length})`, '');
  if (part.deleted.length === 0) out.push('_None._', '');
  for (const g of groupByKind(part.deleted)) kindGroup(g.kind, g.entries, out, (d) => [`- ${refs.ref(d)}: step ${d.step}`]);

  out.push(`${level} ${by === 'anyway' ? 'Stuck anyway' : `Left stuck by ${by}`} (${part.stuck.length})`, '');
  if (part.stuck.length === 0) out.push('_None._', '');
  const stuck = [...part.stuck.filter((e) => targets.has(e.uid)), ...part.stuck.filter((e) => !targets.has(e.uid))];
  for (const g of groupByKind(stuck)) {
    kindGroup(g.kind, g.entries, out, (st) => {
      const lines: string[] = [];
      const finalizers = st.finalizers.length ? `, finalizers ${st.finalizers.map(code).join(', ')}` : '';
      lines.push(`- ${refs.ref(st)}${finalizers}`);
      if (st.blockedBy.length) reasonLines(st.blockedBy, 1, refs, lines);
      else lines.push(`  - ${text(st.reason)}`);
      waysOutLines(st.waysOut ?? [], by, lines);
      return lines;
    });
  }

  out.push(`${level} Orphaned ${by === 'anyway' ? 'anyway' : `by ${by}`} (${part.orphaned.length})`, '');
  if (part.orphaned.length === 0) out.push('_None._', '');
  for (const g of groupByKind(part.orphaned)) {
    kindGroup(g.kind, g.entries, out, (o) => {
      const owner = refs.identity(o.ownerUID);
      return [`- ${refs.ref(o)}: no longer owned by ${owner ? refs.ref(owner) : `uid ${code(o.ownerUID)}`}`];
    });
  }
}

/** "**Pods (3)**" and the list; a long list collapsed under its count. Kinds are user text: escaped for each place. */
function kindGroup<T>(kind: string, entries: T[], out: string[], render: (e: T) => string[]): void {
  const heading = `${pluralKind(kind, entries.length)} (${entries.length})`;
  if (entries.length > COLLAPSE_OVER) out.push('<details>', `<summary>${escapeHtml(heading)}</summary>`, '');
  else out.push(`**${text(heading)}**`, '');
  for (const e of entries) out.push(...render(e));
  out.push('');
  if (entries.length > COLLAPSE_OVER) out.push('</details>', '');
}

/**
 * What the request newly leaves stuck: its ways out as a user has them once the request (`by`: "this DELETE", "this
 * change"…) is sent, safest first, each with its risk, the command in a code block and what the simulation says it
 * does from there.
 */
function waysOutLines(ways: readonly WayOut[], by: string, out: string[]): void {
  if (!ways.length) return;
  out.push(`  - **Ways out after ${by}** ${text('(safest first, each simulated; nothing is sent: run the command yourself)')}`);
  ways.forEach((w, i) => {
    const marker = `${i + 1}. `;
    const indent = ' '.repeat(4 + marker.length);
    out.push(`    ${marker}**${w.risk}**: ${text(w.title)}`, ...codeBlock(w.command, indent));
    out.push(`${indent}- Simulated: ${text(w.outcome.summary)}`);
    if (w.infrastructure) out.push(`${indent}- **Infrastructure:** ${text(w.infrastructure)}`);
    if (w.warning) out.push(`${indent}- **Warning:** ${text(w.warning)}`);
  });
}

function reasonLines(reasons: BlockReason[], depth: number, refs: ObjectReferences, out: string[]): void {
  const indent = '  '.repeat(depth);
  for (const r of reasons) {
    const h = reasonHeading(r);
    if (h.kind === 'object') {
      out.push(`${indent}- ${refs.ref(h.object)}: ${text(h.message)}`);
    } else {
      const finalizer = h.finalizer !== undefined ? ` ${code(h.finalizer)}` : '';
      // The message already names the other object; the link is for getting there.
      const there = r.object && refs.location(r.object.uid) ? ` (${refs.ref(r.object)})` : '';
      out.push(`${indent}- **${text(h.title)}**${finalizer}: ${text(h.message)}${there}`);
    }
    if (r.blockedBy?.length && depth < MAX_REASON_DEPTH) reasonLines(r.blockedBy, depth + 1, refs, out);
  }
}

function stepTable(steps: SimulationStep[], refs: ObjectReferences, out: string[]): void {
  // Table cells take `text()` only: a code span does not protect a `|` from splitting the row.
  out.push('| Step | Actor | Action | Object | Detail |', '|---:|---|---|---|---|');
  for (const st of steps) {
    out.push(`| ${st.step} | ${text(st.actor)} | ${text(st.action)} | ${refs.ref(st.target)} | ${text(st.detail)} |`);
  }
  out.push('');
}

/** Names objects as links to their source, and recovers an identity from a uid the report mentions. */
class ObjectReferences {
  private readonly identities = new Map<string, ObjectIdentity>();

  constructor(private readonly report: ShownReport) {
    const result = report;
    const note = (id: ObjectIdentity) => {
      if (!this.identities.has(id.uid)) this.identities.set(id.uid, id);
    };
    const walk = (reasons: BlockReason[] | undefined, depth: number) => {
      for (const r of reasons ?? []) {
        if (r.object) note(r.object);
        if (depth < MAX_REASON_DEPTH) walk(r.blockedBy, depth + 1);
      }
    };
    if (isDeleteReport(report)) note(report.target);
    for (const t of report.targets) if (t.uid !== undefined) note({ ...t, uid: t.uid });
    for (const list of [result.deleted, result.orphaned, result.stuck]) list.forEach(note);
    for (const st of result.steps) note(st.target);
    for (const s of result.stuck) walk(s.blockedBy, 0);
  }

  identity(uid: string): ObjectIdentity | undefined {
    return this.identities.get(uid);
  }

  location(uid: string): SourceLocation | undefined {
    // `locations` is a plain JSON object: ignore inherited keys such as "constructor".
    return Object.prototype.hasOwnProperty.call(this.report.locations, uid) ? this.report.locations[uid] : undefined;
  }

  /** The object's name, linked to its source when the report knows where it is written. */
  ref(id: ObjectIdentity): string {
    const label = text(describeObject(id));
    const loc = this.location(id.uid);
    // A `command:` link, not a file URI: webviews do not follow `file:` links, and markdown-it does not render
    // them as links at all. The report is shown in our webview (see reportView.ts), which allows exactly
    // this command; the same link works from the markdown text editor.
    return loc ? link(label, commandUri(REVEAL_LOCATION_COMMAND, [loc.uri, loc.range])) : label;
  }
}
