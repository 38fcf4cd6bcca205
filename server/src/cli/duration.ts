// Durations as kubectl reads --request-timeout: a Go duration ("1s", "2m", "1h30m", "1.5s", "500ms") or a whole
// number of seconds ("30").

import { UsageError } from './args';

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/** --request-timeout in milliseconds ("0" turns the deadline off), or a UsageError that says what is accepted. */
export function parseRequestTimeout(v: string): number {
  return parseDuration('request-timeout', v, '0 means no deadline');
}

/** A duration flag's value in milliseconds, or a UsageError naming the flag and what `zero` means. */
export function parseDuration(flag: string, v: string, zero: string): number {
  const bad = () =>
    new UsageError(`invalid value "${v}" for --${flag}: give a duration with its unit (e.g. 30s, 2m, 1h) or whole seconds; ${zero}`);
  const text = v.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!text) throw bad();
  let ms = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const m = PART.exec(text);
    if (!m || m.index !== at) throw bad();
    ms += Number(m[1]) * UNITS[m[2]];
  }
  if (!Number.isFinite(ms)) throw bad();
  return Math.round(ms);
}
