// Commands printed for a user to paste carry hostile names: each value must stay one shell word that bash and zsh
// read back exactly, and show as it pastes (the CLI's escaping leaves it as it is).

import { describe, expect, it } from 'vitest';
import { safeText } from '../../server/src/cli/output/safeText';
import { commandLines, pasteable, shellComment, shellJson, shellWord, urlPathSegment } from '../../server/src/engine/shellWord';
import { HOSTILE, MISSING_SHELLS, PASTE_SHELLS, paste, shellWords } from '../helpers/shellWords';

describe('shellWord', () => {
  it('leaves plain names as they are', () => {
    expect(shellWord('deployment.apps/web')).toBe('deployment.apps/web');
    expect(shellWord('kubernetes.io/service-name=web')).toBe('kubernetes.io/service-name=web');
  });

  it('makes every hostile value exactly one word that bash gives back unchanged', () => {
    for (const s of HOSTILE) expect(shellWords(`kubectl get ${shellWord(s)}`), JSON.stringify(s)).toEqual(['get', s]);
  });

  it("quotes with $'…' only what single quotes cannot show, every byte past ASCII as two hex digits", () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('unicodé 日本')).toBe(`'unicodé 日本'`);
    expect(shellWord('=ls')).toBe(`'=ls'`);
    expect(shellWord('two\nlines')).toBe(`$'two\\nlines'`);
    expect(shellWord("\x1b1f'\\")).toBe(`$'\\x1b1f\\'\\\\'`);
    expect(shellWord('nel\u0085')).toBe(`$'nel\\xc2\\x85'`);
    expect(shellWord('rtl\u202e')).toBe(`$'rtl\\xe2\\x80\\xae'`);
  });

  it('prints no character the CLI would escape: what the terminal shows is what pastes', () => {
    const changed: string[] = [];
    // Lone surrogates are no characters: a command holding one is withheld (below).
    for (let cp = 0; cp < 0x110000; cp = cp === 0xd7ff ? 0xe000 : cp + 1) {
      const ch = String.fromCodePoint(cp);
      for (const word of [pasteable(shellWord(`a${ch}b`)), shellJson([`a${ch}b`]), shellComment(`a${ch}b`)])
        if (safeText(word) !== word) changed.push(`U+${cp.toString(16)}: ${word}`);
    }
    expect(changed).toEqual([]);
  });

  it.each(PASTE_SHELLS.map((s) => [s.name, s]))('%s reads every hostile word back exactly, byte for byte', (_, shell) => {
    const words = [
      ...HOSTILE,
      ...HOSTILE.map((h) => `${h}${h}`),
      '\x01\x02\x03\x1f\x7f\x80\x9f\xa0\xff',
      '\ud83d\ude00\u{10ffff}\u{f0000}',
    ];
    const calls = paste(
      shell,
      words.map((w) => `kubectl get ${shellWord(w)}`),
    );
    expect(calls.map((c) => c.map((x) => x.argv))).toEqual(words.map((w) => [['get', w]]));
  });

  for (const missing of MISSING_SHELLS)
    it.skip(`${missing} reads every hostile word back exactly: not checked, ${missing} is not installed`);
});

describe('what no command line carries', () => {
  it('a NUL or a lone surrogate withholds the command, with a note that says why; every other one is printed', () => {
    for (const bad of ['a\0b', 'a\ud800b', '\udfff']) {
      const command = pasteable(`kubectl delete ${shellWord(`configmap/${bad}`)}`);
      expect(command).toMatch(/^# 'not printed as a command: a name in it holds a NUL or a lone UTF-16 surrogate/);
      expect(commandLines(command)).toHaveLength(1);
      expect(safeText(command)).toBe(command);
      expect(shellWords(`${command}\nkubectl get x`)).toEqual(['get', 'x']);
    }
    // Distinct names, distinct notes: an editor's Apply Fix names its way out by its command.
    expect(pasteable(shellWord('a\0b'))).not.toBe(pasteable(shellWord('a\ud800b')));
    expect(pasteable(shellWord('a\0b'))).not.toBe(pasteable(shellWord('a\\x00b')));
    for (const s of HOSTILE) expect(pasteable(`kubectl get ${shellWord(s)}`)).toBe(`kubectl get ${shellWord(s)}`);
  });

  it('JSON keeps them as \\u escapes: a patch body carries any value', () => {
    for (const s of ['a\0b', 'a\ud800b', ...HOSTILE]) {
      const [, body] = shellWords(`kubectl -p ${shellJson([{ value: s }])}`);
      expect(JSON.parse(body)).toEqual([{ value: s }]);
    }
  });
});

describe('urlPathSegment', () => {
  it('percent-encodes what a URL path would read otherwise, the dot segments too', () => {
    expect(urlPathSegment('team')).toBe('team');
    expect(urlPathSegment('a b/c?d#e%f')).toBe('a%20b%2Fc%3Fd%23e%25f');
    expect(urlPathSegment("it's(*)!")).toBe('it%27s%28%2A%29%21');
    expect(urlPathSegment('..')).toBe('%2E%2E');
    expect(urlPathSegment('.')).toBe('%2E');
    for (const s of HOSTILE) expect(decodeURIComponent(urlPathSegment(s))).toBe(s);
    expect(urlPathSegment('a\ud800')).toBe('a\ud800');
  });
});

describe('shellComment and commandLines', () => {
  it('a comment stays one comment the shell ignores, whatever its text holds', () => {
    for (const s of HOSTILE) {
      const script = `${shellComment(`reinstall ${s}`)}\nkubectl get x`;
      expect(shellWords(script), JSON.stringify(s)).toEqual(['get', 'x']);
      expect(commandLines(script)).toHaveLength(2);
    }
  });

  it.each(PASTE_SHELLS.map((s) => [s.name, s]))('%s runs nothing of a comment, whatever its text holds, then the next step', (_, shell) => {
    const calls = paste(
      shell,
      HOSTILE.map((s) => `${shellComment(`reinstall ${s} (the Service and its Pods)`)}\nkubectl get x`),
    );
    expect(calls.map((c) => c.map((x) => x.argv))).toEqual(HOSTILE.map(() => [['get', 'x']]));
  });

  it('splits a command of several steps at its own line breaks, never inside a quoted name', () => {
    const steps = [shellComment('restore the Pods'), `kubectl patch ${shellWord('two\nlines')} -p ${shellWord('[]')}`, 'kubectl get y'];
    expect(commandLines(steps.join('\n'))).toEqual(steps);
    expect(commandLines('kubectl get x')).toEqual(['kubectl get x']);
  });
});
