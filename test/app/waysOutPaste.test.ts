// Every way out's printed command, pasted into bash and zsh (and at their prompts, history expansion on) with
// stand-ins for kubectl and jq: for hostile names (control characters, quotes, `$`, `!`, unicode, a leading dash),
// kubectl is given exactly the object the way out names, and its patch holds the ops the way out would send.

import { describe, expect, it } from 'vitest';
import type { WayOut } from '../../shared/src/protocol';
import { waysOut } from '../../server/src/app/waysOut';
import { bref, cm, manifests, TERMINATING } from '../helpers/manifests';
import { checkPasted, type Printed } from '../helpers/printedCommands';
import { scenario } from '../helpers/scenario';
import { STRICT, wayOutWorlds } from '../helpers/wayOutWorlds';
import { HOSTILE, MISSING_SHELLS, PASTE_SHELLS, paste, REAL_JQ } from '../helpers/shellWords';

const GET_JSON = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'x' },
  spec: { finalizers: ['kubernetes', 'example.com/other'] },
};
// What the finalize command sends: the Namespace as kubectl get gave it, without `kubernetes` (jq's work).
const REPLACED = REAL_JQ ? { ...GET_JSON, spec: { finalizers: ['example.com/other'] } } : GET_JSON;

const NAMES = HOSTILE.filter((h) => !h.includes('/'));
const ways: WayOut[] = NAMES.flatMap((bad) =>
  wayOutWorlds(bad).flatMap(({ docs, uid, options }) => waysOut(scenario(manifests(...docs)).inventory, uid, options)),
);

describe('printed commands of ways out, pasted', () => {
  it('cover every kind of command a way out prints, for every hostile name', () => {
    const printed = ways.filter((w) => !w.command.startsWith('#'));
    expect(printed.length).toBeGreaterThan(NAMES.length * 10);
    for (const w of ways) expect(w.command, w.title).not.toMatch(/^# not printed/);
  });

  it.each(PASTE_SHELLS.map((s) => [s.name, s]))('%s gives kubectl exactly the objects each way out names', (_, shell) => {
    const calls = paste(
      shell,
      ways.map((w) => w.command),
      JSON.stringify(GET_JSON),
    );
    const seen = new Set<Printed>();
    ways.forEach((w, i) => checkPasted(w, calls[i], REPLACED).forEach((p) => seen.add(p)));
    expect([...seen].sort()).toEqual(
      [
        'delete',
        'finalize',
        'force-delete',
        'lines',
        'patch',
        'remove-finalizer',
        'remove-owner-reference',
        'scale',
        'scale-backend',
        'set-webhook-failure-policy',
        'steps',
      ].sort(),
    );
  });

  for (const missing of MISSING_SHELLS) it.skip(`${missing} gives kubectl exactly the objects: not checked, ${missing} is not installed`);
  if (!REAL_JQ) it.skip('the finalize command removes `kubernetes` from spec.finalizers: not checked, jq is not installed');
});

describe('names no command line carries', () => {
  it('withhold the command with a note, and keep the way out (the editor sends its patch by name, not by argv)', () => {
    for (const bad of ['a\0b', 'a\ud800b']) {
      const owner = cm(`owner${bad}`, 'shop', { finalizers: ['foregroundDeletion'], ...TERMINATING });
      const dependent = cm('dep', 'shop', { owners: [bref(owner)], finalizers: ['example.com/hold'], ...TERMINATING });
      const found = waysOut(scenario(manifests(owner, dependent)).inventory, owner.uid, STRICT);
      const foreground = found.find((w) => w.title.startsWith('Remove the finalizer foregroundDeletion'))!;
      expect(foreground.command).toMatch(/^# 'not printed as a command: a name in it holds a NUL or a lone UTF-16 surrogate/);
      expect(foreground.patch?.target.name).toBe(`owner${bad}`);
      // The others name objects a command line carries.
      expect(found.find((w) => w.title.startsWith('Remove the finalizer example.com/hold'))!.command).toMatch(/^kubectl patch /);
    }
  });
});
