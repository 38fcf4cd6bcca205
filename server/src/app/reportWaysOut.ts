// A report's ways out (issue 18): for what its requests newly leave stuck, the ways out of each as a user would take
// them after those requests (app/waysOut.ts with them as `prior`). Each costs a few simulations of the whole input,
// so only the first few stuck entries get theirs; the notes say so for the rest.

import type { Report, SimulateReport } from '../../../shared/src/protocol';
import type { Inventory } from '../engine/inventory';
import type { UserRequest } from '../engine/simulation/changeRequest';
import { deleteRequestOf, type SimulationSettings } from './simulationCache';
import { waysOut } from './waysOut';

/**
 * Ways out are simulated for this many of what a report's requests leave stuck at most: deleting the must-gather's
 * openshift-machine-api leaves 7 stuck, whose ways out take about 1 s more (docs/performance.md).
 */
export const MAX_REPORT_ENTRIES_WITH_WAYS_OUT = 10;

/** `report` with the ways out of what `requests` newly leave stuck: its targets first, then in the report's order. */
export function withWaysOut<R extends Report>(
  report: R,
  inventory: Inventory,
  requests: readonly UserRequest[],
  options: SimulationSettings,
): R {
  if (!requests.length) return report;
  const targets = new Set(report.targets.flatMap((t) => (t.uid !== undefined ? [t.uid] : [])));
  const caused = report.stuck.filter((s) => s.cause === 'request');
  const first = [...caused.filter((s) => targets.has(s.uid)), ...caused.filter((s) => !targets.has(s.uid))].slice(
    0,
    MAX_REPORT_ENTRIES_WITH_WAYS_OUT,
  );
  if (!first.length) return report;
  const ways = new Map(first.map((s) => [s.uid, waysOut(inventory, s.uid, options, requests)]));
  const left = caused.length - first.length;
  return {
    ...report,
    stuck: report.stuck.map((s) => {
      const w = ways.get(s.uid);
      return w?.length ? { ...s, waysOut: w } : s;
    }),
    ...(left > 0
      ? {
          notes: [
            ...report.notes,
            `Ways out are simulated for the first ${first.length} objects the request leaves stuck, not for the other ${left}: each costs a few simulations of the whole input.`,
          ],
        }
      : {}),
  };
}

/** A Simulate Delete report (report.ts: simulateDelete) with the ways out of what its DELETE leaves stuck. */
export function withDeleteWaysOut(report: SimulateReport | null, inventory: Inventory, options: SimulationSettings): SimulateReport | null {
  return report && withWaysOut(report, inventory, [deleteRequestOf(report.target, report.policy)], options);
}
