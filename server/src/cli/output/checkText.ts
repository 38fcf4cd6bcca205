// `kubectl-gc check` as compiler-style lines: file:line:col: severity code: message [object]. Every value from the
// input is printed through safeText, so a line is always ours.

import type { Finding } from '../../engine/analysis/findingTypes';
import type { LoadProblem } from '../../sources/manifests/loadProblem';
import { safeDescribe, safeText } from './safeText';
import type { Style } from './style';

export function findingLine(f: Finding, relative: (file: string) => string, s: Style): string {
  const where = f.file
    ? `${safeText(relative(f.file))}${f.range ? `:${f.range.start.line + 1}:${f.range.start.character + 1}` : ''}`
    : '(no source)';
  const sev = f.severity === 'error' ? s.red('error') : f.severity === 'warning' ? s.yellow('warning') : s.cyan('info');
  return `${s.bold(where)}: ${sev} ${s.dim(f.code)}: ${safeText(f.message)} ${s.dim(`[${safeDescribe(f.object)}]`)}`;
}

export function problemLine(p: LoadProblem, relative: (file: string) => string, s: Style): string {
  const sev = p.severity === 'error' ? s.red('error') : p.severity === 'warning' ? s.yellow('warning') : s.cyan('info');
  return `${s.bold(`${safeText(relative(p.file))}:${p.line}:${p.column}`)}: ${sev} ${s.dim(p.code)}: ${safeText(p.reason)}`;
}

export function checkText(
  findings: Finding[],
  problems: LoadProblem[],
  objects: number,
  files: number,
  relative: (file: string) => string,
  s: Style,
): string {
  return [...checkTextChunks(findings, problems, objects, files, relative, s)].join('');
}

/** checkText in pieces of up to `batch` lines (the CLI writes each as it comes: 200,000 findings are never one string). */
export function* checkTextChunks(
  findings: Finding[],
  problems: LoadProblem[],
  objects: number,
  files: number,
  relative: (file: string) => string,
  s: Style,
  batch = 1000,
): Generator<string> {
  for (let start = 0; start < findings.length; start += batch) {
    yield findings
      .slice(start, start + batch)
      .map((f) => findingLine(f, relative, s) + '\n')
      .join('');
  }
  const lines: string[] = [];
  const shown = problems.filter((p) => p.severity !== 'info');
  if (shown.length) {
    if (findings.length) lines.push('');
    lines.push(s.bold(`Not loaded or loaded with a warning (${shown.length}):`));
    for (const p of shown) lines.push(`  ${problemLine(p, relative, s)}`);
  }
  // The summary counts what is listed above it, findings and input problems alike, as the exit code does.
  const count = (list: { severity: string }[], sev: string) => list.filter((x) => x.severity === sev).length;
  const errors = count(findings, 'error') + count(shown, 'error');
  const warnings = count(findings, 'warning') + count(shown, 'warning');
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const inObjects = `in ${plural(objects, 'object')} from ${plural(files, 'file')}`;
  const summary = shown.length
    ? `${plural(errors, 'error')}, ${plural(warnings, 'warning')}: ${plural(findings.length, 'finding')} ${inObjects}, ${shown.length} about documents not loaded or loaded with a warning`
    : `${plural(errors, 'error')}, ${plural(warnings, 'warning')} ${inObjects}`;
  if (findings.length || lines.length) lines.push('');
  lines.push(errors ? s.red(summary) : warnings ? s.yellow(summary) : s.green(summary));
  yield lines.join('\n') + '\n';
}
