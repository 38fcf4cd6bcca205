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
  cluster: {
    stuckAfterMinutes: number;
    /**
     * May the editor send a way out to the live cluster when asked? The VS Code client sends only the user's own
     * value, and false in an untrusted workspace; absent or not `true` is off.
     */
    allowWrites: boolean;
  };
}

export type SeveritySetting = 'error' | 'warning' | 'information' | 'hint' | 'off';

export const DEFAULT_SETTINGS: KubeGcLensSettings = {
  simulation: { controllers: 'builtin' },
  finalizerOwners: [],
  severity: {},
  files: { include: ['**/*.yaml', '**/*.yml', '**/*.json'], exclude: ['**/node_modules/**', '**/.git/**'] },
  cluster: { stuckAfterMinutes: 10, allowWrites: false },
};
