// The `kubeGcLens` settings the language server reads (package.json documents every field).

import type { ControllersMode } from './simulation';

/** A custom finalizer's controller, as `kubeGcLens.finalizerOwners` names it (docs/cli.md, --finalizer-owner). */
export interface FinalizerOwnerRule {
  finalizer: string;
  workload?: { kind: string; namespace: string; name: string };
  external?: boolean;
  running?: boolean;
}

/** The settings section `kubeGcLens` (package.json documents every field). */
export interface KubeGcLensSettings {
  simulation: { controllers: ControllersMode };
  finalizerOwners: FinalizerOwnerRule[];
  /** Per finding/load-problem code: a severity, or "off" to drop it. Codes not named keep their default. */
  severity: Partial<Record<string, SeveritySetting>>;
  files: { include: string[]; exclude: string[] };
  /** The live cluster: only what the server uses (the client reads the connection settings itself). */
  cluster: { stuckAfterMinutes: number };
}

export type SeveritySetting = 'error' | 'warning' | 'information' | 'hint' | 'off';

export const DEFAULT_SETTINGS: KubeGcLensSettings = {
  simulation: { controllers: 'builtin' },
  finalizerOwners: [],
  severity: {},
  files: { include: ['**/*.yaml', '**/*.yml', '**/*.json'], exclude: ['**/node_modules/**', '**/.git/**'] },
  cluster: { stuckAfterMinutes: 10 },
};
