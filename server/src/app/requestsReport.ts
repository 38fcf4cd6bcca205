// kubeGcLens/simulateRequests: the Report of any requests, DELETEs and changes besides (a finalizer removed, an
// ownerReference removed or fixed, a workload scaled or its controller restored), given as a plan's `requests`
// entries. The same Report as `kubectl gc simulate --plan` prints, with what the editor needs besides.

import type { PlanRequest, RequestsReport } from '../../../shared/src/protocol';
import type { Inventory } from '../engine/inventory';
import type { ObjectIdentity } from '../engine/model';
import { isChange, type ObjectRef } from '../engine/simulation/changeRequest';
import type { RequestArrival } from '../engine/simulation/types';
import { planRequestOf, userRequestOf } from './planRequests';
import { locationsOf, simulateReport, summarySubject } from './report';
import { withWaysOut } from './reportWaysOut';
import type { SimulationSettings } from './simulationCache';

/** The Report of `plan` on `inventory`, in order; `notes` (what a live read could not cover) are added. */
export function simulateRequestsReport(
  inventory: Inventory,
  plan: readonly PlanRequest[],
  options: SimulationSettings,
  arrival?: RequestArrival,
  notes: readonly string[] = [],
): RequestsReport {
  const requests = plan.map((p) => userRequestOf(inventory, p));
  const { report, result } = simulateReport(inventory, requests, { ...options, ...(arrival ? { arrival } : {}) });
  const targets = report.targets.flatMap(({ apiVersion, kind, namespace, name, uid }): ObjectIdentity[] =>
    uid !== undefined ? [{ apiVersion, kind, namespace, name, uid }] : [],
  );
  // As `simulate --plan` does: the ways out of what the requests newly leave stuck, after them.
  return withWaysOut(
    {
      ...report,
      notes: notes.length ? [...report.notes, ...notes] : report.notes,
      controllers: options.controllers,
      requests: requests.map(planRequestOf),
      subject: summarySubject(report.targets),
      locations: locationsOf(inventory, [...targets, ...result.deleted, ...result.orphaned, ...result.steps.map((s) => s.target)], result),
    },
    inventory,
    requests,
    options,
  );
}

/** The objects the requests name (a live session reads the Pods a simulation of them can reach first). */
export function planTargets(inventory: Inventory, plan: readonly PlanRequest[]): ObjectRef[] {
  return plan.flatMap((p): ObjectRef[] => {
    const r = userRequestOf(inventory, p);
    if (!isChange(r)) return [r];
    return 'target' in r ? [r.target] : r.for ? [r.for] : [];
  });
}
