// Test helper: what a shell makes of a printed command, values that try to break out of a shell word, and pasting
// commands into bash and zsh (as typed at their prompt too: history expansion on, zsh's interactive_comments off)
// with stand-ins for kubectl and jq that record every argument byte for byte.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The words bash makes of `line`, `kubectl` standing for a function that prints its arguments. */
export function shellWords(line: string): string[] {
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `kubectl() { printf '%s\\0' "$@"; }; ${line}`], {
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

export const HOSTILE = [
  "it's",
  'a; touch /tmp/pwned',
  '$(touch /tmp/pwned)',
  '`id`',
  // Run, these would show as calls of the stand-in kubectl.
  '$(kubectl injected)',
  '`kubectl injected`',
  '(e:kubectl:)',
  'two\nlines',
  '"quoted"',
  "'",
  '',
  '*',
  'x y',
  '\\',
  '-n',
  // Control characters, and an escape followed by hex digits (a greedy \x would take them in).
  '\x1b[31mred\x1b[0m',
  '\x1b1f',
  'cr\rlf\n',
  'tab\tbell\x07del\x7f',
  // Bytes past ASCII: C1 controls, bidi overrides, zero-width and invisible characters, text and emoji.
  'nel\u0085csi\u009b',
  'evil\u202etxt.exe',
  'zero\u200bwidth\ufeffbom\u00a0nbsp\u2028line',
  'unicodé 日本 😀',
  // History expansion, expansions, zsh's `=cmd`, a literal escape sequence.
  '!',
  'a!!b',
  '!$x',
  '${HOME}~',
  '=ls',
  '~root',
  '#not a comment',
  '{a,b}',
  "\\'\\x41\\n",
  "$'x'",
];

export interface Shell {
  name: string;
  /** How it runs `script`, read on its stdin. */
  run: (script: string, env: NodeJS.ProcessEnv) => ReturnType<typeof spawnSync>;
}

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

const SHELLS: Shell[] = [
  {
    name: 'bash',
    run: (script, env) => spawnSync('bash', ['--norc', '--noprofile', '-s'], { env: { ...env, LC_ALL: 'C' }, input: script }),
  },
  { name: 'bash -i', run: (script, env) => spawnSync('bash', ['--norc', '--noprofile', '-i'], { env, input: script }) },
  { name: 'zsh', run: (script, env) => spawnSync('zsh', ['-f', '-s'], { env, input: script }) },
  { name: 'zsh -i', run: (script, env) => spawnSync('zsh', ['-f', '-i'], { env, input: script }) },
];

/** The shells the printed commands are for that are installed here; zsh may not be (CI installs it). */
export const PASTE_SHELLS = SHELLS.filter((s) => has(s.name.split(' ')[0]));
export const MISSING_SHELLS = ['bash', 'zsh'].filter((s) => !has(s));

/** One run of a stand-in: which program, its arguments, what it read on stdin. */
export interface Call {
  program: 'kubectl' | 'jq';
  argv: string[];
  stdin?: string;
}

// Stand-ins for kubectl and jq, as functions of the shell (the words a shell passes to a function are those it would
// pass to a program; no process per call): each call appends one record to $STUB_CALLS, its fields NUL-terminated (no
// argument holds a NUL): the program, the step, argc, the arguments, what it read on stdin. `-o json` prints
// STUB_GET_JSON; jq passes its input through the real jq when there is one. No comment: zsh -i would run it.
const STUBS = `__stub() {
  __name=$1; shift
  __in=
  if [ "$__name" = jq ] || [ "$1" = replace ]; then __in=$(cat; printf x); __in=\${__in%x}; fi
  printf '%s\\0' "$__name" "$STUB_STEP" "$#" "$@" "$__in" >> "$STUB_CALLS"
  if [ "$__name" = jq ]; then
    if [ -n "$REAL_JQ" ]; then printf '%s' "$__in" | "$REAL_JQ" "$@"; else printf '%s' "$__in"; fi
  fi
  __prev=
  for __a in "$@"; do [ "$__prev" = -o ] && [ "$__a" = json ] && printf '%s' "$STUB_GET_JSON"; __prev=$__a; done
  return 0
}
kubectl() { __stub kubectl "$@"; }
jq() { __stub jq "$@"; }
`;

export const REAL_JQ = has('jq') ? execFileSync('sh', ['-c', 'command -v jq'], { encoding: 'utf8' }).trim() : '';
const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * The calls each command makes when `commands` are pasted into `shell`, one after the other; `getJson` is what
 * `kubectl get … -o json` prints. An argument that is not valid UTF-8 throws: it names no object of the input.
 */
export function paste(shell: Shell, commands: readonly string[], getJson = '{}'): Call[][] {
  const dir = mkdtempSync(join(tmpdir(), 'kgl-paste-'));
  try {
    const calls = join(dir, 'calls');
    writeFileSync(calls, '');
    const script = STUBS + commands.map((c, i) => `export STUB_STEP=${i}\n${c}\n`).join('');
    const env = { PATH: process.env.PATH, HOME: dir, STUB_CALLS: calls, STUB_GET_JSON: getJson, REAL_JQ, LANG: 'C.UTF-8' };
    const r = shell.run(script, env);
    if (r.error) throw r.error;
    const out: Call[][] = commands.map(() => []);
    const fields = split(readFileSync(calls));
    for (let i = 0; i < fields.length; ) {
      const program = fields[i] as Call['program'];
      const step = Number(fields[i + 1]);
      const argc = Number(fields[i + 2]);
      const argv = fields.slice(i + 3, i + 3 + argc);
      const stdin = fields[i + 3 + argc];
      out[step].push({ program, argv, ...(stdin ? { stdin } : {}) });
      i += 4 + argc;
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function split(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0, start);
    out.push(strict.decode(bytes.subarray(start, end)));
    start = end + 1;
  }
  return out;
}
