// The one escaper of the CLI's text output (server/src/cli/output/safeText.ts): its exact convention, its cuts,
// JSON that keeps every value, and colours that still work around escaped values.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../server/src/engine/analysis/findingTypes';
import { checkText } from '../../server/src/cli/output/checkText';
import { MAX_TEXT, MAX_WORD, safeJson, safeText } from '../../server/src/cli/output/safeText';
import { makeStyle } from '../../server/src/cli/output/style';
import { stuckText } from '../../server/src/cli/output/stuckText';

describe('safeText', () => {
  it('shows control characters, line breaks and bidi controls as escapes', () => {
    const cases: [string, string][] = [
      ['\u001b]0;pwned\u0007', '\\x1b]0;pwned\\x07'],
      ['\u001b[31mred', '\\x1b[31mred'],
      ['a\u0000b', 'a\\x00b'],
      ['a\nb\rc\td', 'a\\nb\\rc\\td'],
      ['\u0008\u000b\u000c\u001f', '\\x08\\x0b\\x0c\\x1f'],
      ['del\u007f', 'del\\x7f'],
      ['\u0085\u009b\u009d', '\\x85\\x9b\\x9d'], // NEL, 8-bit CSI and OSC
      ['\u2028\u2029', '\\u2028\\u2029'],
      ['abc\u202eexe.yaml', 'abc\\u202eexe.yaml'],
      [
        '\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c',
        '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c',
      ],
    ];
    for (const [raw, shown] of cases) expect(safeText(raw)).toBe(shown);
  });

  it('leaves ordinary text exactly as it is', () => {
    for (const s of [
      'web-7d4b9c-abcde',
      'kafka.strimzi.io/finalizer',
      'C:\\work\\shop\\web.yaml',
      'café ñ 日本 🚀',
      'say "hi" [x]',
      'a'.repeat(MAX_WORD),
      '',
    ]) {
      expect(safeText(s)).toBe(s);
    }
  });

  it('cuts a run of more than MAX_WORD characters without a space, and a value longer than MAX_TEXT', () => {
    const name = 'n'.repeat(1024 * 1024);
    expect(safeText(`the owner ${name} is gone`)).toBe(
      `the owner ${'n'.repeat(MAX_WORD)}…(${1024 * 1024 - MAX_WORD} more characters) is gone`,
    );
    const words = 'word '.repeat(10_000);
    const cut = safeText(words);
    expect(cut.startsWith(words.slice(0, MAX_TEXT))).toBe(true);
    expect(cut.endsWith(`…(${words.length - MAX_TEXT} more characters)`)).toBe(true);
    // Counted in characters: a surrogate pair is never split.
    const emoji = '🚀'.repeat(MAX_WORD + 5);
    expect(safeText(emoji)).toBe(`${'🚀'.repeat(MAX_WORD)}…(5 more characters)`);
  });

  it('escapes after cutting: an escape is never cut in half', () => {
    const s = `${'x'.repeat(MAX_WORD - 1)}\u001b[31m`;
    expect(safeText(s)).toBe(`${'x'.repeat(MAX_WORD - 1)}\\x1b…(4 more characters)`);
  });
});

describe('safeJson', () => {
  it('keeps every value and writes no raw control, separator or bidi character', () => {
    const value = { name: 'a\u001b]0;x\u0007\n\u0000\u007f\u0085\u009b\u2028\u2029\u202e\u2066z', plain: 'café 🚀', n: 1 };
    const text = safeJson(value);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(value);
    expect(safeJson({ plain: 'café 🚀' })).toBe(JSON.stringify({ plain: 'café 🚀' }, null, 2));
  });
});

describe('colours around escaped values', () => {
  const tty = makeStyle({ isTTY: true }, {});
  const evil = 'e\u001b]0;pwned\u0007\u001b[31mred\nfile.yaml:1:1: error forged';
  /** Every ESC in the output starts one of the SGR sequences style.ts writes. */
  const onlyOurColours = (out: string) => out.replace(/\u001b\[\d+m/g, '');

  it('check: the styled line keeps its colours, the value is escaped', () => {
    const finding: Finding = {
      code: 'dangling-owner',
      severity: 'error',
      message: `The owner ${evil} is gone.`,
      object: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo', name: evil, uid: 'u' },
      location: { kind: 'object' },
      file: `/tmp/${evil}.yaml`,
      related: [],
    };
    const out = checkText([finding], [], 1, 1, (f) => f, tty);
    expect(out).toContain('\u001b[31merror\u001b[39m');
    expect(onlyOurColours(out)).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(out.split('\n').filter((l) => l.startsWith('file.yaml'))).toEqual([]);
    expect(out).toContain('\u001b[1m/tmp/e\\x1b]0;pwned\\x07\\x1b[31mred\\nfile.yaml:1:1: error forged.yaml\u001b[22m');
  });

  it('stuck: names and finalizers', () => {
    const item = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'demo',
      name: evil,
      uid: 'u',
      syntheticUid: false,
      beingDeleted: true,
      ownerCount: 0,
      finalizers: [evil],
      reason: evil,
      blockedBy: [{ type: 'finalizer' as const, message: evil }],
      since: evil,
    };
    const out = stuckText(
      [
        { ...item, state: 'stuck' },
        { ...item, state: 'slow', uid: 'u2' },
      ],
      2,
      'gc',
      tty,
      new Date(),
      600_000,
    );
    expect(onlyOurColours(out)).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(out.split('\n').filter((l) => l.startsWith('file.yaml'))).toEqual([]);
    expect(out).toContain('\u001b[35m⧗\u001b[39m ConfigMap demo/e\\x1b]0;pwned');
  });
});
