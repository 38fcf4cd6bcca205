// What every benchmark script prints with: one line to stdout, medians and percentiles, and the units the report
// uses (milliseconds, megabytes, thousands separators), tables, and a process's memory.

import { readFileSync } from 'node:fs';

export const out = (line = ''): void => {
  process.stdout.write(line + '\n');
};

/** A full collection between measurements when Node runs with --expose-gc; nothing otherwise. */
export const gc: () => void = typeof globalThis.gc === 'function' ? () => globalThis.gc!() : () => undefined;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
export const ms = (n: number): string => (n >= 100 ? `${int(n)} ms` : `${n.toFixed(1)} ms`);
export const mb = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB` : '—');
export const mib = (bytes: number): string => `${int(bytes / 2 ** 20)} MB`;

/** A table with a header row and a rule under it; the last column is not padded. */
export function table(rows: string[][], header: string[]): void {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) =>
    '  ' +
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c])))
      .join('   ')
      .trimEnd();
  out(line(header));
  out('  ' + widths.map((w) => '-'.repeat(w)).join('   '));
  for (const r of rows) out(line(r));
}

/** One line of a report's summary table. */
export interface Row {
  figure: string;
  value: string;
  goal: string;
  result: 'PASS' | 'MISS' | 'info';
}

/** Peak and current resident memory of a process (Linux /proc; this process when `pid` is undefined). */
export function procMemory(pid: number | undefined): { peak: number; rss: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid ?? 'self'}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) * 1024;
    return { peak: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return undefined;
  }
}

export function withTimeout<T>(p: Promise<T>, msLimit: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${msLimit / 1000} s waiting for ${what}`)), msLimit);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
