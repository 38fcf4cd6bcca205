// The live session: one LiveCluster at a time, connected on request only (never on its own), answering Simulate
// Delete, the stuck list, the graph and search from the live inventory, as the workspace session does from files.
// A failing or dropped connection only changes the status: the workspace features never depend on it. No LSP: the
// language server turns a ClusterUnavailable into its JSON-RPC error.

import {
  DEFAULT_SEARCH_LIMIT,
  type ApplyWayOutParams,
  type ApplyWayOutResult,
  type ClusterConnectParams,
  type ClusterContextsResult,
  type ClusterObjectSearchResult,
  type ClusterObjectsParams,
  type ClusterStatus,
  type GraphData,
  type GraphSummary,
  type ObjectSummary,
  type PlanRequest,
  type PolicyChoice,
  type RequestsReport,
  type SimulateReport,
  type StuckItem,
} from '../../../shared/src/protocol';
import { KubeconfigError, listContexts, loadKubeConfig, resolveTarget } from '../sources/cluster/kubeconfig';
import { LiveCluster } from '../sources/cluster/liveCluster';
import { namespacesNeedingPodSpecs } from '../engine/simulation/podSpecScope';
import type { LiveView } from '../engine/analysis/liveComparison';
import type { Inventory } from '../engine/inventory';
import { analyzeObject } from '../engine/analysis/analyze';
import type { Finding } from '../engine/analysis/findingTypes';
import { searchObjects } from '../../../shared/src/search';
import { graphData, graphSummary, selectWithBlockers, stuckNotes } from './graph';
import { summaryOf } from './objects';
import { simulateDelete } from './report';
import { withDeleteWaysOut } from './reportWaysOut';
import type { SimulationSettings as EngineOptions } from './simulationCache';
import type { Session } from './session';
import { terminatingItems } from './stuck';
import type { GraphScopeOptions } from '../engine/graph/graphScope';
import { readServerVersion } from '../sources/cluster/serverVersion';
import type { ClusterTarget } from '../sources/cluster/kubeconfig';
import { applyWayOut, type WritePermission } from './wayOutActions';
import { planTargets, simulateRequestsReport } from './requestsReport';
import type { RequestArrival } from '../engine/simulation/types';

/** JSON-RPC error code for "the cluster cannot be used" (application range). */
export const CLUSTER_UNAVAILABLE = -32010;

/** The cluster cannot be used: not connected, unreachable, disconnected meanwhile. */
export class ClusterUnavailable extends Error {
  readonly code = CLUSTER_UNAVAILABLE;
}

export class LiveSession implements Session {
  private live: LiveCluster | undefined;
  /** Where `live` is connected, with its credentials: the one write (a way out) goes there too. */
  private target: ClusterTarget | undefined;
  private generation = 0;

  constructor(
    private readonly notify: (status: ClusterStatus | null) => void,
    private readonly onChange: () => void,
  ) {}

  get connected(): boolean {
    return this.live !== undefined;
  }

  contexts(kubeconfig?: string): ClusterContextsResult {
    try {
      return { contexts: listContexts(loadKubeConfig({ kubeconfig })) };
    } catch (e) {
      return { contexts: [], error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The connected cluster's Kubernetes version (`1.33`), from its /version. */
  private kubeVersion: string | undefined;

  private versioned(options: EngineOptions): EngineOptions {
    // The identity's version follows the cluster (another one behind the same URL, an upgrade); the connect's else.
    const kubeVersion = this.live?.identity?.kubeVersion ?? this.kubeVersion;
    return kubeVersion === undefined ? options : { ...options, kubeVersion };
  }

  /** Replaces any current connection; resolves when everything is listed (watches then keep it current). */
  async connect(p: ClusterConnectParams): Promise<ClusterStatus> {
    await this.disconnect();
    const generation = ++this.generation;
    let target;
    try {
      target = resolveTarget({ kubeconfig: p.kubeconfig || undefined, context: p.context || undefined, allowExec: p.allowExec });
    } catch (e) {
      if (e instanceof KubeconfigError) throw new ClusterUnavailable(e.message);
      throw e;
    }
    const live = new LiveCluster({
      target,
      namespaces: p.namespaces?.length ? p.namespaces : undefined,
      ...(p.requestTimeoutSeconds !== undefined ? { limits: { requestTimeoutMs: Math.round(p.requestTimeoutSeconds * 1000) } } : {}),
      // Only the current connection speaks: a replaced one may still report while it stops.
      onStatus: (s) => generation === this.generation && this.notify(s),
      onChange: () => generation === this.generation && this.onChange(),
    });
    this.live = live;
    this.target = target;
    try {
      await live.start();
    } catch (e) {
      const status = live.status();
      if (this.live === live) this.live = undefined;
      await live.stop();
      if (generation === this.generation) this.notify({ ...status, state: 'disconnected' });
      throw new ClusterUnavailable(
        `cannot reach the cluster of context "${target.context}" at ${target.server}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    // Where versions differ (R57) simulations follow the cluster's own; unknown, the newest followed.
    const { version } = await readServerVersion(live.client);
    if (this.live === live) this.kubeVersion = version;
    return live.status();
  }

  async disconnect(): Promise<void> {
    const live = this.live;
    this.live = undefined;
    this.target = undefined;
    this.kubeVersion = undefined;
    this.generation++;
    if (live) {
      await live.stop();
      this.notify(null);
    }
  }

  /** The live inventory and its context, while connected. */
  get current(): { inventory: Inventory; context: string } | undefined {
    return this.live && { inventory: this.live.inventory, context: this.live.context };
  }

  status(): ClusterStatus | null {
    return this.live?.status() ?? null;
  }

  /**
   * Simulate Delete on the live graph. The Pods it can reach in namespaces that hold PersistentVolumeClaims are
   * read in full first (pvc-protection needs their volumes, which the metadata-only graph does not have); those
   * that cannot be read are "incomplete" notes.
   */
  async simulate(uid: string, policy: PolicyChoice, options: EngineOptions): Promise<SimulateReport | null> {
    const live = this.require();
    const o = live.inventory.objects.get(uid);
    if (!o) return null;
    const gone = () => new ClusterUnavailable('the cluster was disconnected during the simulation');
    let unread: string[];
    try {
      unread = await live.readPodSpecs(namespacesNeedingPodSpecs(live.inventory, [o]));
    } catch (e) {
      throw this.live === live ? e : gone(); // a disconnect aborts the reads
    }
    if (this.live !== live) throw gone();
    const versioned = this.versioned(options);
    const report = simulateDelete(live.inventory, uid, policy, versioned, [...live.incompleteNotes(), ...unread]);
    return withDeleteWaysOut(report, live.inventory, versioned);
  }

  /** kubeGcLens/cluster/simulateRequests: any requests on the live graph, the Pods they can reach read first (as simulate). */
  async simulatePlan(requests: readonly PlanRequest[], options: EngineOptions, arrival?: RequestArrival): Promise<RequestsReport> {
    const live = this.require();
    const gone = () => new ClusterUnavailable('the cluster was disconnected during the simulation');
    let unread: string[];
    try {
      unread = await live.readPodSpecs(namespacesNeedingPodSpecs(live.inventory, planTargets(live.inventory, requests)));
    } catch (e) {
      throw this.live === live ? e : gone();
    }
    if (this.live !== live) throw gone();
    return simulateRequestsReport(live.inventory, requests, this.versioned(options), arrival, [...live.incompleteNotes(), ...unread]);
  }

  /** The stuck list once the Pods beside what is terminating have been read (LiveCluster.terminatingPodsRead). */
  async stuck(options: EngineOptions, slowAfterSeconds: number): Promise<StuckItem[]> {
    await this.require().terminatingPodsRead();
    return this.stuckNow(options, slowAfterSeconds);
  }

  /** The stuck list from what is read so far (the live documents' diagnostics, refreshed as more arrives). */
  stuckNow(options: EngineOptions, slowAfterSeconds: number): StuckItem[] {
    const live = this.require();
    const items = terminatingItems(live.inventory, this.versioned(options), Date.now(), slowAfterSeconds);
    // Each row says which cluster it was computed on: a way out is sent only there (wayOutCluster.ts).
    const clusterUid = live.viewClusterUid;
    return clusterUid === undefined ? items : items.map((i) => ({ ...i, clusterUid }));
  }

  /**
   * kubeGcLens/cluster/applyWayOut: one way out of a stuck live object, sent only when `allowWrites` (the server's own
   * setting) is on and re-simulating on what is read now gives the same way out (app/wayOutActions.ts).
   */
  async applyWayOut(p: ApplyWayOutParams, options: EngineOptions, writes: WritePermission): Promise<ApplyWayOutResult> {
    const live = this.require();
    const target = this.target;
    if (!target) throw new ClusterUnavailable('not connected to a cluster');
    await live.terminatingPodsRead();
    if (this.live !== live) throw new ClusterUnavailable('the cluster was disconnected meanwhile');
    // Which cluster is behind the URL now (GETs only): another one gets nothing (and the view lists again).
    const now = writes.allowWrites && writes.settingsUnreadable === undefined ? await live.checkIdentity() : {};
    if (this.live !== live) throw new ClusterUnavailable('the cluster was disconnected meanwhile');
    const result = await applyWayOut(p, {
      inventory: live.inventory,
      options: this.versioned(options),
      ...writes,
      target,
      timeoutMs: live.client.limits.requestTimeoutMs,
      cluster: { viewUid: live.viewClusterUid, now },
    });
    // The view lagged the cluster: what it showed is read again by a LIST, so the refreshed row is the cluster's.
    if (result.objectChanged && this.live === live) live.relistHolding([p.uid, ...result.sent.flatMap((s) => (s.uid ? [s.uid] : []))]);
    return result;
  }

  /**
   * The live ownership graph, whole, one object's component or one namespace, cut at a limit (as kubeGcLens/graph on
   * the workspace): each shown object's local findings (dangling and mismatched owners, invalid references…) and the
   * stuck reasons of terminating objects that cannot finish. Locations are added by the caller (live documents).
   */
  graph(options: EngineOptions, scope: GraphScopeOptions = {}): GraphData {
    const live = this.require();
    const inv = live.inventory;
    const stuck = inv.terminating.size ? stuckNotes(terminatingItems(inv, this.versioned(options), Date.now())) : new Map();
    const selection = selectWithBlockers(inv, scope, stuck);
    const findings: Finding[] = [];
    for (const uid of selection.uids) {
      const o = inv.objects.get(uid);
      if (o) findings.push(...analyzeObject(inv, o));
    }
    return graphData(inv, selection, findings, stuck);
  }

  /** kubeGcLens/cluster/graphSummary: objects per namespace of the live graph. */
  graphSummary(): GraphSummary {
    return graphSummary(this.require().inventory);
  }

  /** kubeGcLens/cluster/objects: in the inventory's order without a query or limit (as before), else as search(). */
  objects(params: ClusterObjectsParams = {}): ObjectSummary[] {
    const live = this.require();
    const { namespace } = params;
    const limit = limitOf(params.limit);
    const query = queryOf(params.query);
    if (query === undefined && limit === undefined) {
      const out: ObjectSummary[] = [];
      for (const o of live.inventory.objects.values()) if (namespace === undefined || o.namespace === namespace) out.push(summaryOf(o));
      return out;
    }
    return searchObjects(live.inventory.objects.values(), query, { namespace, limit }).items.map(summaryOf);
  }

  /** kubeGcLens/cluster/searchObjects: one pass over the live objects; only the first `limit` become summaries. */
  search(params: ClusterObjectsParams = {}): ClusterObjectSearchResult {
    const live = this.require();
    const limit = limitOf(params.limit) ?? DEFAULT_SEARCH_LIMIT;
    const { items, total } = searchObjects(live.inventory.objects.values(), queryOf(params.query), { namespace: params.namespace, limit });
    return { items: items.map(summaryOf), total };
  }

  /** The live graph for the workspace comparison (engine/analysis/liveComparison.ts); undefined when not connected. */
  liveView(options: EngineOptions): LiveView | undefined {
    const live = this.live;
    if (!live) return undefined;
    let stuck: Map<string, string> | undefined;
    return {
      context: live.context,
      inventory: live.inventory,
      covers: live.coverage(),
      // Only simulated when a workspace object matches a terminating live object (cached per live version).
      stuckReason: (uid) => {
        stuck ??= new Map(terminatingItems(live.inventory, options, Date.now()).map((i) => [i.uid, i.reason]));
        return stuck.get(uid);
      },
    };
  }

  private require(): LiveCluster {
    if (!this.live) throw new ClusterUnavailable('not connected to a cluster: run "Kubernetes GC: Connect to Cluster" first');
    return this.live;
  }
}

/** A request's `limit` as a count: a non-negative integer, or undefined when absent or not a number. */
function limitOf(limit: unknown): number | undefined {
  return typeof limit === 'number' && !Number.isNaN(limit) ? Math.max(0, Math.floor(limit)) : undefined;
}

const queryOf = (query: unknown): string | undefined => (typeof query === 'string' ? query : undefined);
