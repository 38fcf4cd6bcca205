// Test helper: what a shell makes of a printed command, values that try to break out of a shell word, and pasting
// commands into bash and zsh (as typed at their prompt too, history expansion on) with stand-ins for kubectl and jq
// that record every argument byte for byte.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  /** How it runs `script`. */
  run: (script: string, env: NodeJS.ProcessEnv) => ReturnType<typeof spawnSync>;
}

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

const SHELLS: Shell[] = [
  { name: 'bash', run: (script, env) => spawnSync('bash', ['--norc', '--noprofile', '-c', script], { env: { ...env, LC_ALL: 'C' } }) },
  { name: 'bash -i', run: (script, env) => spawnSync('bash', ['--norc', '--noprofile', '-i'], { env, input: script }) },
  { name: 'zsh', run: (script, env) => spawnSync('zsh', ['-f', '-c', script], { env }) },
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

// A stand-in for kubectl and jq: one file per call, named by the time it started (steps joined by && run in order),
// holding the step, argc and the arguments, NUL-terminated (no argument holds a NUL). `-o json` prints STUB_GET_JSON;
// jq passes its input through the real jq when there is one.
const STUB = `#!/bin/bash
name=\${0##*/}
rec="$STUB_CALLS/$(date +%s%N)-$$-$name"
read_stdin=false
[ "$name" = jq ] && read_stdin=true
for a in "$@"; do [ "$a" = - ] && read_stdin=true; done
printf '%s\\0' "$STUB_STEP" "$#" "$@" > "$rec.args"
if $read_stdin; then cat > "$rec.stdin"; fi
mv "$rec.args" "$rec"
prev=
for a in "$@"; do [ "$prev" = -o ] && [ "$a" = json ] && printf '%s' "$STUB_GET_JSON"; prev=$a; done
if [ "$name" = jq ]; then
  if [ -n "$REAL_JQ" ]; then "$REAL_JQ" "$@" < "$rec.stdin"; else cat "$rec.stdin"; fi
fi
exit 0
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
    const bin = join(dir, 'bin');
    const calls = join(dir, 'calls');
    mkdirSync(bin);
    mkdirSync(calls);
    for (const program of ['kubectl', 'jq']) {
      writeFileSync(join(bin, program), STUB);
      chmodSync(join(bin, program), 0o755);
    }
    const script = commands.map((c, i) => `export STUB_STEP=${i}\n${c}\n`).join('');
    const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, STUB_CALLS: calls, STUB_GET_JSON: getJson, REAL_JQ, LANG: 'C.UTF-8' };
    const r = shell.run(script, env);
    if (r.error) throw r.error;
    const out: Call[][] = commands.map(() => []);
    for (const file of readdirSync(calls)
      .filter((f) => !f.includes('.'))
      .sort()) {
      const [step, argc, ...rest] = split(readFileSync(join(calls, file)));
      const program = file.endsWith('-jq') ? 'jq' : 'kubectl';
      const argv = rest.slice(0, Number(argc));
      const stdin = readdirSync(calls).includes(`${file}.stdin`) ? readFileSync(join(calls, `${file}.stdin`), 'utf8') : undefined;
      out[Number(step)].push({ program, argv, ...(stdin !== undefined ? { stdin } : {}) });
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
