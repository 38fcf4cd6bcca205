// What the language server's bench reports print with: a line, a duration and a percentile.

export const out = (line = ''): void => {
  process.stdout.write(line + '\n');
};

export const ms = (x: number): string => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

/** The p-th percentile (nearest rank). */
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
