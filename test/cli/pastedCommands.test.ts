// `kubectl gc stuck` prints each way out's command for a user to copy from the terminal: for hostile names, what the
// text shows is the command of the JSON output, character for character (the text's escaping leaves it alone), and
// pasted into bash and zsh it gives kubectl exactly the objects the JSON names.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StuckItem, WayOut } from '../../shared/src/protocol';
import { renderWaysOut } from '../../server/src/cli/output/waysOutText';
import { makeStyle } from '../../server/src/cli/output/style';
import { commandLines, shellWord } from '../../server/src/engine/shellWord';
import { manifests, type ObjectSpec } from '../helpers/manifests';
import { PASTE_SHELLS, paste } from '../helpers/shellWords';
import { wayOutWorlds } from '../helpers/wayOutWorlds';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'kgl-pasted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stuck(file: string, output: string[]): string {
  const r = spawnSync(process.execPath, [CLI, 'stuck', '-f', file, '--controllers=builtin', ...output], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0 && !r.stdout) throw new Error(`kubectl-gc stuck exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const NAMES = ['\x1b]0;title\x07\x1b[31m', 'two\nlines\r\t', 'nel\u0085 rtl\u202e zw\u200b', "it's $(kubectl injected) `x` !!"];

describe('stuck: the commands the text shows', () => {
  it.each(NAMES.map((n) => [JSON.stringify(n), n]))('%s: are the JSON commands, and paste as them', (_, bad) => {
    const docs = new Map<string, ObjectSpec>();
    for (const world of wayOutWorlds(bad)) for (const d of world.docs) docs.set(d.uid, d);
    const file = join(dir, `dump-${docs.size}-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, manifests(...docs.values()));
    const items = (JSON.parse(stuck(file, ['-o', 'json'])) as { stuck: StuckItem[] }).stuck;
    const ways: WayOut[] = items.flatMap((i) => i.waysOut ?? []);
    expect(ways.filter((w) => !w.command.startsWith('#')).length).toBeGreaterThan(8);
    // Each step of each way out, in order: `$ command` or a `# comment`, on a line of its own.
    const json = ways.flatMap((w) => commandLines(w.command));
    const text = stuck(file, [])
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('$ ') || l.startsWith('# '))
      .map((l) => l.replace(/^\$ /, ''));
    expect(text).toEqual(json);
    for (const shell of PASTE_SHELLS) expect(paste(shell, text), shell.name).toEqual(paste(shell, json));
  });
});

describe('ways out in the text', () => {
  it('a command the text would cut is not shown, rather than shown as one that names something else', () => {
    const outcome = { summary: 's', counts: { deleted: 0, orphaned: 0, stuck: 0 }, deleted: [], orphaned: [], stuck: [], notes: [] };
    const long = `kubectl delete ${shellWord(`configmap/${'\x1b'.repeat(300)}`)}`;
    const short = `kubectl delete ${shellWord('configmap/two\nlines')}`;
    const way = (command: string) => ({ title: 't', risk: 'caution', command, requests: [], outcome }) as unknown as WayOut;
    const lines: string[] = [];
    renderWaysOut([way(long), way(short)], '', lines, makeStyle({ isTTY: false }, {}));
    const steps = lines.map((l) => l.trim()).filter((l) => l.startsWith('$') || l.startsWith('#'));
    expect(steps).toEqual(['# not shown: this command is too long to print here as it pastes (-o json holds it exactly)', `$ ${short}`]);
  });
});
