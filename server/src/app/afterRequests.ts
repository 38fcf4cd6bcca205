// A simulation of requests sent after others (a way out taken after a report's DELETE), told from what those others
// did: the run of all of them, less what the run of the first ones alone did. Settled arrival (R53.4) makes that run a
// prefix of the longer one, step for step, so the split is where the later requests reached the apiserver.

import type { SimulationResult } from '../engine/simulation/types';

/**
 * What `all` (the first `first` requests, then more) does after the first ones settled, `before` being the run of
 * those alone: only later deletions, orphans, notes and steps, the later requests indexed from 0. What is stuck is
 * what is stuck at the end, as in any result; step numbers stay those of `all`.
 */
export function afterRequests(all: SimulationResult, first: number, before: SimulationResult): SimulationResult {
  const from = all.requests?.[first]?.afterStep ?? all.steps.length;
  const orphanedBefore = new Set(before.orphaned.map((o) => `${o.uid}\u0000${o.ownerUID}`));
  const notesBefore = new Set(before.notes);
  const result: SimulationResult = {
    deleted: all.deleted.filter((d) => d.step > from),
    orphaned: all.orphaned.filter((o) => !orphanedBefore.has(`${o.uid}\u0000${o.ownerUID}`)),
    remaining: [],
    stuck: all.stuck,
    steps: all.steps.slice(from).map((s) => (s.request === undefined ? s : { ...s, request: s.request - first })),
    ...(all.requests ? { requests: all.requests.slice(first) } : {}),
    notes: all.notes.filter((n) => !notesBefore.has(n)),
    ...(all.aborted ? { aborted: all.aborted } : {}),
    ...(all.kubernetesVersion ? { kubernetesVersion: all.kubernetesVersion } : {}),
    ...(all.controllers ? { controllers: all.controllers } : {}),
  };
  // Read through, as the run left them (built on first access in `all`).
  Object.defineProperty(result, 'remaining', { enumerable: true, get: () => all.remaining });
  if (all.finalObject) Object.defineProperty(result, 'finalObject', { value: all.finalObject });
  return result;
}
