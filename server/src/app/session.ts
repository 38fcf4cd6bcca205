// What every front end asks of one source of objects, the workspace's files or a live cluster: the same questions,
// the same answer shapes (shared/src/wire). WorkspaceSession and LiveSession answer them; the language server
// routes a request to one, the CLI asks one.

import type { GraphData, PlanRequest, PolicyChoice, RequestsReport, SimulateReport, StuckItem } from '../../../shared/src/protocol';
import type { GraphScopeOptions } from '../engine/graph/graphScope';
import type { RequestArrival } from '../engine/simulation/types';
import type { SimulationSettings } from './simulationCache';

export interface Session {
  /** Simulate Delete of one object: the Report (null: no such object). */
  simulate(uid: string, policy: PolicyChoice, options: SimulationSettings): SimulateReport | null | Promise<SimulateReport | null>;
  /** Any requests in a plan's spelling, DELETEs and changes (kubeGcLens/simulateRequests): their Report. */
  simulatePlan(
    requests: readonly PlanRequest[],
    options: SimulationSettings,
    arrival?: RequestArrival,
  ): RequestsReport | Promise<RequestsReport>;
  /** What is terminating and cannot finish, or is slower than `slowAfterSeconds` (and, for files, predicted deadlocks). */
  stuck(options: SimulationSettings, slowAfterSeconds: number): StuckItem[] | Promise<StuckItem[]>;
  /** The ownership graph of a scope, with each object's findings and why it is stuck. */
  graph(options: SimulationSettings, scope: GraphScopeOptions): GraphData;
}
