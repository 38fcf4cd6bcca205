// A stuck object's ways out for people, as `kubectl gc stuck` and `kubectl gc simulate` print them under it: what to
// do, the command to paste, what it skips, and its simulated outcome. Values go through safeText.

import type { WayOut } from '../../../../shared/src/protocol';
import { commandLines } from '../../engine/shellWord';
import { safeText } from './safeText';
import type { Style } from './style';

export interface WaysOutTextOptions {
  /** What the list is called ("Ways out", "Ways out after the request"). */
  heading?: string;
  /** At most this many, the safest; then how many more (`-o wide` lists them all). */
  shown?: number;
}

/** The ways out, safest first, the heading at `indent`. Nothing when there are none. */
export function renderWaysOut(ways: readonly WayOut[], indent: string, lines: string[], s: Style, options: WaysOutTextOptions = {}): void {
  if (!ways.length) return;
  lines.push(
    `${indent}${s.bold(options.heading ?? 'Ways out')} ${s.dim('(safest first, each simulated; nothing is sent: run the command yourself)')}`,
  );
  const risk = (w: WayOut) => (w.risk === 'safe' ? s.green('safe') : w.risk === 'caution' ? s.yellow('caution') : s.red('dangerous'));
  const shown = ways.slice(0, options.shown ?? ways.length);
  const more = `${indent}     `;
  shown.forEach((w, i) => {
    lines.push(`${indent}  ${i + 1}. [${risk(w)}] ${safeText(w.title)}`);
    // A way out of several steps, one without a command among them, has a line per step.
    for (const step of commandLines(w.command)) lines.push(`${more}${s.cyan(shownStep(step))}`);
    if (w.infrastructure) lines.push(`${more}${s.red('!')} ${safeText(w.infrastructure)}`);
    if (w.warning) lines.push(`${more}${s.yellow('!')} ${safeText(w.warning)}`);
    lines.push(s.dim(`${more}→ ${safeText(w.outcome.summary)}`));
  });
  const rest = ways.length - shown.length;
  if (rest > 0) lines.push(s.dim(`${indent}  … ${rest} more way${rest === 1 ? '' : 's'} out (-o wide lists them all)`));
}

/**
 * A step as it pastes. A command shows no character the escaping changes (engine/shellWord.ts), but one too long for
 * the text is cut by it: then it is not shown, rather than shown as a command that names something else.
 */
function shownStep(step: string): string {
  if (step.startsWith('#')) return safeText(step);
  if (safeText(step) === step) return `$ ${step}`;
  return '# not shown: this command is too long to print here as it pastes (-o json holds it exactly)';
}
