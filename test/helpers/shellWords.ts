// Test helper: what a POSIX shell makes of a printed command, and values that try to break out of a shell word.

import { execFileSync } from 'node:child_process';

/** The words a POSIX shell makes of `line`, `kubectl` standing for a function that prints its arguments. */
export function shellWords(line: string): string[] {
  const out = execFileSync('sh', ['-c', `kubectl() { printf '%s\\0' "$@"; }; ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

export const HOSTILE = [
  "it's",
  'a; touch /tmp/pwned',
  '$(touch /tmp/pwned)',
  '`id`',
  'two\nlines',
  '"quoted"',
  "'",
  '',
  '*',
  'x y',
  '\\',
  '-n',
];
