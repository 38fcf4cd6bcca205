// `kubectl-gc stuck` for people: every terminating object that cannot finish, how long it has been terminating,
// its finalizers, the why-chain as a tree and the ways out; then those that can finish but are slow. Values from the input go
// through safeText.

import type { StuckItem } from '../../../../shared/src/protocol';
import { safeDescribe, safeText } from './safeText';
import { renderReasons } from './simulateText';
import type { Style } from './style';
import { renderWaysOut } from './waysOutText';

export function stuckText(
  items: StuckItem[],
  terminating: number,
  controllers: string,
  s: Style,
  now?: Date,
  slowAfterMs?: number,
): string {
  const lines: string[] = [];
  const stuck = items.filter((i) => i.state === 'stuck');
  const slow = items.filter((i) => i.state === 'slow');
  const since = (i: StuckItem) => {
    const age = i.since && now ? ` for ${formatAge(now.getTime() - Date.parse(i.since))}` : '';
    return i.since ? s.dim(`  terminating since ${safeText(i.since)}${age}`) : '';
  };
  if (stuck.length === 0) {
    lines.push(
      terminating
        ? `${slow.length ? 'Nothing the objects show stops them' : 'Nothing is stuck'}: the ${terminating} terminating object${terminating === 1 ? '' : 's'} can finish (controllers: ${controllers}).`
        : 'Nothing is terminating.',
    );
  } else {
    lines.push(s.bold(`Stuck (${stuck.length} of ${terminating} terminating; controllers: ${controllers})`));
    for (const st of stuck) {
      lines.push(`  ${s.magenta('⧗')} ${safeDescribe(st)}${since(st)}`);
      if (st.finalizers.length) lines.push(s.dim(`    finalizers: ${st.finalizers.map(safeText).join(', ')}`));
      // Its finish rests on a guess of which workload removes a custom finalizer: shown, not taken as proof.
      if (st.guess) lines.push(s.yellow(`    not proven to finish: ${safeText(st.guess)}`));
      renderReasons(st.blockedBy, '    ', lines, s, 0);
      renderWaysOut(st.waysOut ?? [], '    ', lines, s);
    }
  }
  if (slow.length) {
    lines.push(
      '',
      s.bold(
        `Slow (${slow.length}): terminating for longer than ${formatAge(slowAfterMs ?? 0)}${slow.some((i) => i.ageSeconds === undefined) ? ' or for a time the input does not say' : ''}, though nothing visible stops them`,
      ),
    );
    for (const st of slow) lines.push(`  ${s.yellow('…')} ${safeDescribe(st)}${since(st)}`, s.dim(`    ${safeText(st.reason)}`));
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
