// `kubectl-gc stuck` for people: every terminating object that cannot finish, how long it has been
// terminating, its finalizers and the why-chain as a tree. Values from the input go through safeText.

import type { StuckEntry } from '../../engine/simulation/types';
import { safeDescribe, safeText } from './safeText';
import { renderReasons } from './simulateText';
import type { Style } from './style';

export function stuckText(stuck: (StuckEntry & { since: string | null })[], terminating: number, controllers: string, s: Style, now?: Date): string {
  const lines: string[] = [];
  if (stuck.length === 0) {
    lines.push(terminating
      ? `Nothing is stuck: the ${terminating} terminating object${terminating === 1 ? '' : 's'} can finish (controllers: ${controllers}).`
      : 'Nothing is terminating.');
    return lines.join('\n') + '\n';
  }
  lines.push(s.bold(`Stuck (${stuck.length} of ${terminating} terminating; controllers: ${controllers})`));
  for (const st of stuck) {
    const age = st.since && now ? ` for ${formatAge(now.getTime() - Date.parse(st.since))}` : '';
    const since = st.since ? s.dim(`  terminating since ${safeText(st.since)}${age}`) : '';
    lines.push(`  ${s.magenta('⧗')} ${safeDescribe(st)}${since}`);
    if (st.finalizers.length) lines.push(s.dim(`    finalizers: ${st.finalizers.map(safeText).join(', ')}`));
    renderReasons(st.blockedBy, '    ', lines, s, 0);
  }
  return lines.join('\n') + '\n';
}

/** kubectl's age format: 45s, 12m, 5h, 3d. */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const sec = Math.floor(ms / 1000);
  if (sec < 120) return `${sec}s`;
  if (sec < 2 * 3600) return `${Math.floor(sec / 60)}m`;
  if (sec < 48 * 3600) return `${Math.floor(sec / 3600)}h`;
  return `${Math.floor(sec / 86400)}d`;
}
