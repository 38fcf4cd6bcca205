// Findings and load problems as LSP diagnostics: the engine's code as `code`, a link to its docs/findings.md entry,
// the other party as relatedInformation, and the user's per-code severity (or "off").

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver';
import type { Finding, FindingLocation } from '../engine/analysis/findingTypes';
import type { Range } from '../engine/model';
import type { LoadProblem } from '../sources/manifests/loadProblem';
import { LOAD_PROBLEM_CATALOGUE } from '../sources/manifests/loadProblemCatalogue';
import type { KubeGcLensSettings, SeveritySetting } from '../../../shared/src/protocol';

export const DIAGNOSTIC_SOURCE = 'kube-gc-lens';

/** What a quick fix needs to know about the finding behind a diagnostic. */
export interface DiagnosticData {
  uid: string;
  location: FindingLocation;
}

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * docs/findings.md next to the bundle (dist/server.js → package root), generated from the finding catalogue: it
 * ships with the extension (.vscodeignore) and a checkout has it. Each code, and the load problems, has an anchor.
 */
const FINDINGS_DOC = pathToFileURL(path.join(__dirname, '..', 'docs', 'findings.md')).toString();

export function docsLink(code: string): string {
  return `${FINDINGS_DOC}#${code}`;
}

function severityOf(setting: SeveritySetting | undefined, fallback: 'error' | 'warning' | 'info'): DiagnosticSeverity | undefined {
  switch (setting ?? (fallback === 'info' ? 'information' : fallback)) {
    case 'error':
      return DiagnosticSeverity.Error;
    case 'warning':
      return DiagnosticSeverity.Warning;
    case 'information':
      return DiagnosticSeverity.Information;
    case 'hint':
      return DiagnosticSeverity.Hint;
    default:
      return undefined; // off
  }
}

export function findingToDiagnostic(f: Finding, settings: KubeGcLensSettings): Diagnostic | undefined {
  const severity = severityOf(settings.severity[f.code], f.severity);
  if (severity === undefined) return undefined;
  const related: DiagnosticRelatedInformation[] = [];
  for (const r of f.related) {
    if (r.file && r.range) related.push({ location: { uri: r.file, range: r.range }, message: r.message });
  }
  const data: DiagnosticData = { uid: f.object.uid, location: f.location };
  return {
    range: f.range ?? ZERO,
    severity,
    code: f.code,
    codeDescription: { href: docsLink(f.code) },
    source: DIAGNOSTIC_SOURCE,
    message: f.message,
    ...(related.length ? { relatedInformation: related } : {}),
    data,
  };
}

export function problemToDiagnostic(p: LoadProblem, settings: KubeGcLensSettings): Diagnostic | undefined {
  // The catalogue names the editor's own defaults (a Helm template is a normal file in a chart, not a mistake).
  const severity = severityOf(settings.severity[p.code], LOAD_PROBLEM_CATALOGUE[p.code].editorSeverity ?? p.severity);
  if (severity === undefined) return undefined;
  return {
    range: p.range ?? { start: { line: p.line - 1, character: p.column - 1 }, end: { line: p.line - 1, character: p.column - 1 } },
    severity,
    code: p.code,
    codeDescription: { href: docsLink('load-problems') },
    source: DIAGNOSTIC_SOURCE,
    message: p.reason,
  };
}

/** Stable order: by position, then code, so republishing the same findings sends the same list. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      String(a.code).localeCompare(String(b.code)) ||
      String(a.message).localeCompare(String(b.message)),
  );
}
