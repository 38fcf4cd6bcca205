// The workspace session: the answers of a Session from the workspace's manifests (WorkspaceModel). The language
// server keeps the model current as documents change; this only asks it.

import type {
  GraphData,
  ObjectSummary,
  PlanRequest,
  PolicyChoice,
  RequestsReport,
  SimulateReport,
  StuckItem,
} from '../../../shared/src/protocol';
import type { GraphScopeOptions } from '../engine/graph/graphScope';
import type { RequestArrival } from '../engine/simulation/types';
import type { WorkspaceModel } from '../workspace/workspaceModel';
import { workspaceGraph } from './graph';
import { summaryOf } from './objects';
import { simulateDelete } from './report';
import { withDeleteWaysOut } from './reportWaysOut';
import { simulateRequestsReport } from './requestsReport';
import type { Session } from './session';
import type { SimulationSettings } from './simulationCache';
import { stuckItems } from './stuck';

export class WorkspaceSession implements Session {
  /** `model` gives the current model (the server replaces it when the settings change what it analyses). */
  constructor(private readonly model: () => WorkspaceModel) {}

  simulate(uid: string, policy: PolicyChoice, options: SimulationSettings): SimulateReport | null {
    const { inventory } = this.model();
    return withDeleteWaysOut(simulateDelete(inventory, uid, policy, options), inventory, options);
  }

  simulatePlan(requests: readonly PlanRequest[], options: SimulationSettings, arrival?: RequestArrival): RequestsReport {
    return simulateRequestsReport(this.model().inventory, requests, options, arrival);
  }

  stuck(options: SimulationSettings, slowAfterSeconds: number): StuckItem[] {
    return stuckItems(this.model(), options, slowAfterSeconds);
  }

  graph(options: SimulationSettings, scope: GraphScopeOptions): GraphData {
    return workspaceGraph(this.model(), options, scope);
  }

  objects(uri?: string): ObjectSummary[] {
    const model = this.model();
    return (uri ? model.objectsIn(uri) : [...model.inventory.objects.values()]).map(summaryOf);
  }
}
