// The snapshot session: the answers of a Session from objects read once and never changing, as the CLI has them
// (files, stdin, a dump, or one read of a cluster). Simulate takes the CLI's requests (several targets, a plan);
// on a cluster, the Pods a simulation can reach are read in full first (`readPodSpecs`, from sources/cluster).

import type { GraphData, PlanRequest, PolicyChoice, Report, RequestsReport, SimulateReport, StuckItem } from '../../../shared/src/protocol';
import { analyze, type AnalysisOptions } from '../engine/analysis/analyze';
import type { Finding } from '../engine/analysis/findingTypes';
import type { GraphScopeOptions } from '../engine/graph/graphScope';
import type { Inventory } from '../engine/inventory';
import type { DeleteRequest, RequestArrival, SimulationOptions, SimulationResult } from '../engine/simulation/types';
import { isChange, type UserRequest } from '../engine/simulation/changeRequest';
import { graphData, selectWithBlockers, stuckNotes } from './graph';
import { simulateDelete, simulateReport } from './report';
import { withDeleteWaysOut, withWaysOut } from './reportWaysOut';
import { planTargets, simulateRequestsReport } from './requestsReport';
import type { Session } from './session';
import type { SimulationSettings } from './simulationCache';
import { newestTimestamp, terminatingItems } from './stuck';

export interface Snapshot {
  inventory: Inventory;
  /** Read from files (no clock: ages are measured to their newest timestamp) or from a cluster (now). */
  fromFiles: boolean;
  /** Reads in full the Pods that `targets` can reach; says what could not be read. Cluster snapshots only. */
  readPodSpecs?: (targets: DeleteRequest[]) => Promise<string[]>;
  /** What the read could not cover (a cluster's incomplete-preview sentences): every report's notes end with them. */
  incomplete?: readonly string[];
}

/** An answer, and what could not be read for it (the report's notes have them too). */
export interface WithUnread<T> {
  answer: T;
  unread: string[];
}

export class SnapshotSession implements Session {
  constructor(private readonly snapshot: Snapshot) {}

  get inventory(): Inventory {
    return this.snapshot.inventory;
  }

  /** The current time of the snapshot, in ms: the newest timestamp of files, or now for a cluster. */
  now(): number | undefined {
    return this.snapshot.fromFiles ? newestTimestamp(this.inventory.objects.values()) : Date.now();
  }

  async simulate(uid: string, policy: PolicyChoice, options: SimulationSettings): Promise<SimulateReport | null> {
    const o = this.inventory.objects.get(uid);
    if (!o) return null;
    const unread = await this.readPodSpecs([{ apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name }]);
    const report = simulateDelete(this.inventory, uid, policy, options, [...(this.snapshot.incomplete ?? []), ...unread]);
    return withDeleteWaysOut(report, this.inventory, options);
  }

  /** The CLI's simulate: any requests (TYPE/NAME targets or a plan), with the options the command line gives. */
  async simulateRequests(
    requests: readonly UserRequest[],
    options: SimulationOptions,
  ): Promise<WithUnread<{ report: Report; result: SimulationResult }>> {
    const targets = requests.flatMap((r): DeleteRequest[] => (!isChange(r) ? [r] : 'target' in r ? [r.target] : []));
    const unread = await this.readPodSpecs(targets);
    const { report, result } = simulateReport(this.inventory, requests, options);
    const settings = {
      controllers: options.controllers,
      finalizerOwners: options.finalizerOwners ?? [],
      ...(options.kubeVersion !== undefined ? { kubeVersion: options.kubeVersion } : {}),
      ...(options.finalizerOwnerHint !== undefined ? { finalizerOwnerHint: options.finalizerOwnerHint } : {}),
    };
    const answer = { report: withWaysOut(report, this.inventory, requests, settings), result };
    const notes = [...(this.snapshot.incomplete ?? []), ...unread];
    if (notes.length) answer.report.notes = [...answer.report.notes, ...notes];
    return { answer, unread };
  }

  async simulatePlan(requests: readonly PlanRequest[], options: SimulationSettings, arrival?: RequestArrival): Promise<RequestsReport> {
    const unread = await this.readPodSpecs(planTargets(this.inventory, requests));
    return simulateRequestsReport(this.inventory, requests, options, arrival, [...(this.snapshot.incomplete ?? []), ...unread]);
  }

  async stuck(options: SimulationSettings, slowAfterSeconds: number): Promise<StuckItem[]> {
    return (await this.stuckWithUnread(options, slowAfterSeconds)).answer;
  }

  /** What is terminating and cannot finish, and what is slower than `slowAfterSeconds`. */
  async stuckWithUnread(options: SimulationSettings, slowAfterSeconds: number): Promise<WithUnread<StuckItem[]>> {
    const unread = this.inventory.terminating.size ? await this.readPodSpecs([]) : [];
    return { answer: terminatingItems(this.inventory, options, this.now(), slowAfterSeconds, this.snapshot.fromFiles), unread };
  }

  graph(options: SimulationSettings, scope: GraphScopeOptions): GraphData {
    const stuck = this.inventory.terminating.size ? stuckNotes(terminatingItems(this.inventory, options, undefined)) : new Map();
    return graphData(this.inventory, selectWithBlockers(this.inventory, scope, stuck), this.findings(options), stuck);
  }

  /** Every finding of the snapshot (`kubectl gc check`). */
  findings(options: AnalysisOptions): Finding[] {
    return analyze(this.inventory, options);
  }

  private async readPodSpecs(targets: DeleteRequest[]): Promise<string[]> {
    return this.snapshot.readPodSpecs ? this.snapshot.readPodSpecs(targets) : [];
  }
}
