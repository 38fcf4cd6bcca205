// The live cluster's part of the Problems panel: workspace manifests compared with the connected cluster (an
// exported ReplicaSet whose owner uid the cluster does not have), and a diagnostic on the live document of every
// live object that is stuck or slow. The server decides when to refresh them and publishes; this computes them.

import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { liveObjectLocation, liveObjectUri, type KubeGcLensSettings } from '../../../shared/src/protocol';
import type { LiveSession } from '../app/liveSession';
import type { SimulationSettings } from '../app/simulationCache';
import type { Finding } from '../engine/analysis/findingTypes';
import { compareWithLive } from '../engine/analysis/liveComparison';
import type { WorkspaceModel } from '../workspace/workspaceModel';
import { DIAGNOSTIC_SOURCE, findingToDiagnostic } from './diagnostics';
import { deletionTimestampRange } from './liveDocuments';

export class LiveDiagnostics {
  /** Findings of workspace documents against the live cluster (none while not connected). */
  private readonly findings = new Map<string, Finding[]>();
  /** Stuck and slow live objects, on their live documents. */
  private stuck = new Map<string, Diagnostic[]>();

  constructor(private readonly cluster: LiveSession) {}

  /** Every URI with something live to show (to republish them all when that changes). */
  uris(): string[] {
    return [...this.findings.keys(), ...this.stuck.keys()];
  }

  findingsOf(uri: string): Finding[] {
    return this.findings.get(uri) ?? [];
  }

  stuckOf(uri: string): Diagnostic[] {
    return this.stuck.get(uri) ?? [];
  }

  /** Compares some documents (all when `uris` is absent) with the live cluster. */
  compare(model: WorkspaceModel, options: SimulationSettings, uris?: Iterable<string>): void {
    const view = this.cluster.liveView(options);
    if (!uris) this.findings.clear();
    const docs = uris ? [...uris] : [...model.documents()].map((d) => d.uri);
    for (const uri of docs) {
      const found = view ? compareWithLive(model.objectsIn(uri), model.inventory, view) : [];
      if (found.length) this.findings.set(uri, found);
      else this.findings.delete(uri);
    }
  }

  /** A diagnostic on the live document of every live object that is stuck, or terminating for too long. */
  refreshStuck(settings: KubeGcLensSettings, options: SimulationSettings): void {
    const out = new Map<string, Diagnostic[]>();
    this.stuck = out;
    const live = this.cluster.current;
    if (!live || live.inventory.terminating.size === 0) return;
    const stuck = findingToDiagnostic(STUCK_PROBE, settings);
    if (!stuck) return; // stuck-terminating is off
    for (const item of this.cluster.stuckNow(options, settings.cluster.stuckAfterMinutes * 60)) {
      const o = live.inventory.objects.get(item.uid);
      const range = o?.deletionTimestamp ? deletionTimestampRange(o) : liveObjectLocation(item, live.context).range;
      out.set(liveObjectUri(item, live.context), [
        {
          range,
          severity: item.state === 'slow' ? DiagnosticSeverity.Information : stuck.severity,
          code: 'stuck-terminating',
          codeDescription: stuck.codeDescription,
          source: DIAGNOSTIC_SOURCE,
          message: item.reason,
        },
      ]);
    }
  }
}

/** Only to ask findingToDiagnostic how the user wants stuck-terminating shown (severity, or off). */
const STUCK_PROBE: Finding = {
  code: 'stuck-terminating',
  severity: 'warning',
  message: '',
  location: { kind: 'object' },
  related: [],
  object: { apiVersion: '', kind: '', namespace: '', name: '', uid: '' },
};
