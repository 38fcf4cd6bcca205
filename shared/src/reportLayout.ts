// How every front end lays a Report out (the CLI's text, the editor's report): what the request causes apart from
// what the garbage collector does anyway, grouped by kind (workloads and volumes first, then configuration, then
// the rest), and the timeline cut where each request reached the apiserver. From the Report's structure only: the
// entries' `cause`, the targets' `afterStep` and the steps' `request`, never the words of a step.

import type { Cause, Report, SimulationStep } from './wire/simulation';

/** Workloads and the volumes they hold, in the order a reader looks for them. */
const WORKLOADS_AND_VOLUMES = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'ReplicationController',
  'Job',
  'CronJob',
  'Pod',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'VolumeAttachment',
];
/** What workloads read. */
const CONFIGURATION = ['ConfigMap', 'Secret', 'ServiceAccount'];
/** The other built-in kinds a namespace usually holds; custom kinds follow them. */
const OTHER_BUILTINS = [
  'Service',
  'Endpoints',
  'EndpointSlice',
  'Ingress',
  'NetworkPolicy',
  'Role',
  'RoleBinding',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'LimitRange',
  'ResourceQuota',
  'Lease',
  'Event',
];

export type KindTier = 'workloads' | 'configuration' | 'other';

const RANK = new Map<string, number>([...WORKLOADS_AND_VOLUMES, ...CONFIGURATION, ...OTHER_BUILTINS].map((kind, i) => [kind, i]));

/** Which of the three groups a kind is shown in. */
export function kindTier(kind: string): KindTier {
  if (WORKLOADS_AND_VOLUMES.includes(kind)) return 'workloads';
  if (CONFIGURATION.includes(kind)) return 'configuration';
  return 'other';
}

export interface KindGroup<T> {
  kind: string;
  entries: T[];
}

/**
 * Entries grouped by kind: workloads and volumes first, then configuration, then other built-in kinds, then the
 * rest in the order they first appear. Within a kind, entries keep their order (the simulation's).
 */
export function groupByKind<T extends { kind: string }>(entries: readonly T[]): KindGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const e of entries) {
    const list = groups.get(e.kind);
    if (list) list.push(e);
    else groups.set(e.kind, [e]);
  }
  const firstSeen = [...groups.keys()];
  const rank = (kind: string) => RANK.get(kind) ?? RANK.size + firstSeen.indexOf(kind);
  return firstSeen.sort((a, b) => rank(a) - rank(b)).map((kind) => ({ kind, entries: groups.get(kind)! }));
}

/** Kind → count in the report's order (workloads and volumes first, …), for the summary line's kind list. */
export function inKindOrder(byKind: Record<string, number>): Record<string, number> {
  const kinds = Object.keys(byKind);
  const rank = (kind: string) => RANK.get(kind) ?? RANK.size + kinds.indexOf(kind);
  return Object.fromEntries([...kinds].sort((a, b) => rank(a) - rank(b)).map((k) => [k, byKind[k]]));
}

export interface ReportPart {
  deleted: Report['deleted'];
  orphaned: Report['orphaned'];
  stuck: Report['stuck'];
}

/** The Report's lists split by cause: what the request(s) cause, and what the garbage collector does anyway. */
export function splitByCause(report: ReportPart): Record<Cause, ReportPart> {
  const part = (cause: Cause): ReportPart => ({
    deleted: report.deleted.filter((e) => e.cause === cause),
    orphaned: report.orphaned.filter((e) => e.cause === cause),
    stuck: report.stuck.filter((e) => e.cause === cause),
  });
  return { request: part('request'), settling: part('settling') };
}

/** A stretch of the timeline: the garbage collector settling the input before any request, or one request on. */
export type TimelineSection =
  | { type: 'settling'; steps: SimulationStep[] }
  | {
      type: 'request';
      /** The request's index in the plan. */
      request: number;
      steps: SimulationStep[];
      /** The apiserver's answer when the request changed nothing (it has no step). */
      unchanged?: string;
    };

/**
 * The timeline cut where each request reached the apiserver: first the steps of the garbage collector settling the
 * input as given (absent when there are none), then per request its steps and what followed until the next one.
 * From the targets' `afterStep`; a Report without it (made by hand) is cut at the first step of each request.
 */
export function timelineSections(report: Pick<Report, 'steps' | 'targets'>): TimelineSection[] {
  const steps = report.steps;
  const starts = report.targets.map((t) => t.afterStep ?? firstStepOf(steps, t.request));
  const sections: TimelineSection[] = [];
  const sent = starts.filter((s): s is number => s !== undefined);
  const first = sent.length ? Math.min(...sent) : steps.length;
  if (first > 0) sections.push({ type: 'settling', steps: steps.slice(0, first) });
  report.targets.forEach((t, i) => {
    const start = starts[i];
    if (start === undefined) return; // never sent: the run was cut short before it
    const next = starts.slice(i + 1).find((s): s is number => s !== undefined) ?? steps.length;
    sections.push({
      type: 'request',
      request: t.request,
      steps: steps.slice(start, Math.max(start, next)),
      ...(t.unchanged !== undefined ? { unchanged: t.unchanged } : {}),
    });
  });
  return sections;
}

function firstStepOf(steps: readonly SimulationStep[], request: number): number | undefined {
  const i = steps.findIndex((s) => s.request === request);
  return i < 0 ? undefined : i;
}
