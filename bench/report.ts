// What every benchmark script prints with: one line to stdout, medians and percentiles, and the units the report
// uses (milliseconds, megabytes, thousands separators).

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
export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
