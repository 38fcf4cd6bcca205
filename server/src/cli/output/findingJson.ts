// The JSON shape of a finding in `check -o json` and `simulate -o json` (README, "JSON contract").

import type { Finding } from '../../engine/analysis/findingTypes';

export interface FindingJson {
  code: string;
  severity: string;
  message: string;
  object: { apiVersion: string; kind: string; namespace: string; name: string; uid: string };
  file: string | null;
  /** 0-based, as LSP counts: { start: { line, character }, end: { line, character } }. */
  range: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
}

export function findingToJson(f: Finding): FindingJson {
  const { apiVersion, kind, namespace, name, uid } = f.object;
  return {
    code: f.code,
    severity: f.severity,
    message: f.message,
    object: { apiVersion, kind, namespace, name, uid },
    file: f.file ?? null,
    range: f.range ?? null,
  };
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Stable order for every output: file, position, then code. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      (a.file ?? '\uffff').localeCompare(b.file ?? '\uffff') ||
      (a.range?.start.line ?? 0) - (b.range?.start.line ?? 0) ||
      (a.range?.start.character ?? 0) - (b.range?.start.character ?? 0) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.code.localeCompare(b.code) ||
      a.object.uid.localeCompare(b.object.uid),
  );
}
