// Hand-made Simulate Delete reports for front-end tests, from the parts a test cares about: the Report's summary
// line comes from the application layer's own summaryLine, so renderers are tested on what the server sends.

import { summaryLine } from '../../server/src/app/report';
import type { ObjectIdentity } from '../../server/src/engine/model';
import type { SimulationResult } from '../../server/src/engine/simulation/types';
import {
  REPORT_VERSION,
  type ImpactSummary,
  type PolicyChoice,
  type SimulateReport,
  type SourceLocation,
  type TargetOutcome,
} from '../../shared/src/protocol';

export interface ReportParts {
  target: ObjectIdentity;
  policy: PolicyChoice;
  controllers: string;
  result: Omit<SimulationResult, 'remaining'>;
  locations: Record<string, SourceLocation>;
  counts: ImpactSummary;
  outcome: TargetOutcome;
  title: string;
  /** Uids the GC deletes or leaves stuck without the DELETE too (cause "settling"). */
  settling?: { deleted?: string[]; stuck?: string[] };
}

export function simulateReportOf(p: ReportParts): SimulateReport {
  const deletedAnyway = new Set(p.settling?.deleted);
  const stuckAnyway = new Set(p.settling?.stuck);
  const { deleted, orphaned, stuck, steps, notes, aborted, kubernetesVersion } = p.result;
  const targets = [{ request: 0, ...p.target, outcome: p.outcome }];
  return {
    version: REPORT_VERSION,
    summary: summaryLine(targets, p.counts),
    targets,
    counts: p.counts,
    deleted: deleted.map((d) => ({ ...d, cause: deletedAnyway.has(d.uid) ? 'settling' : 'request' })),
    orphaned: orphaned.map((o) => ({ ...o, cause: 'request' })),
    stuck: stuck.map((s) => ({ ...s, cause: stuckAnyway.has(s.uid) ? 'settling' : 'request' })),
    steps,
    notes,
    ...(aborted ? { aborted } : {}),
    ...(kubernetesVersion ? { kubernetesVersion } : {}),
    controllers: p.controllers,
    target: p.target,
    policy: p.policy,
    locations: p.locations,
    outcome: p.outcome,
    title: p.title,
  };
}
