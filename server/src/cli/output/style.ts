// Terminal colour: on for a TTY, off when NO_COLOR is set (https://no-color.org) or output is piped.

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function makeStyle(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): Style {
  const on = !!stream.isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  if (!on) {
    const id = (s: string) => s;
    return { bold: id, dim: id, red: id, yellow: id, green: id, cyan: id, magenta: id };
  }
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}
