// The markdown escaping every report goes through: names, finalizers and messages come from user files, so
// hostile text must come out as text (no HTML, no link, no emphasis, no table break, no extra line).

import { describe, expect, it } from 'vitest';
import { code, commandUri, link, oneLine, text } from '../../client/src/logic/markdown';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[click](command:workbench.action.terminal.new)',
  '![x](https://evil.example/x.png)',
  '**bold** _em_ ~~strike~~ `code`',
  'a | b | c',
  '&lt;not an entity&gt; &amp;',
  '$x^2$ and $$y$$',
  '# heading\n- item\n> quote',
  'line1\r\nline2\u2028line3\u0000end',
  'http://evil.example and www.evil.example and me@evil.example',
  '\\*still escaped\\*',
  'rtl \u202eevil\u202c',
];

describe('text()', () => {
  it('backslash-escapes markdown and HTML metacharacters', () => {
    expect(text('<img src=x onerror=alert(1)>')).toBe('\\<img src\\=x onerror\\=alert\\(1\\)\\>');
    expect(text('[click](command:x)')).toBe('\\[click\\]\\(command\\:x\\)');
    expect(text('**bold** _em_ `code`')).toBe('\\*\\*bold\\*\\* \\_em\\_ \\`code\\`');
    expect(text('a | b')).toBe('a \\| b');
    expect(text('&amp; $x$')).toBe('\\&amp\\; \\$x\\$');
    expect(text('\\')).toBe('\\\\');
  });

  it('keeps names readable: letters, digits, spaces, `-` and `/` stay as they are', () => {
    expect(text('Deployment shop/web-1')).toBe('Deployment shop/web-1');
    expect(text('kubernetes.io/pvc-protection')).toBe('kubernetes\\.io/pvc-protection');
  });

  it('turns line breaks, controls and bidi overrides into spaces: one line, read as written', () => {
    expect(text('# heading\n- item')).toBe('\\# heading - item');
    expect(oneLine('a\r\nb\u2028c\u0000d\u202ee\u2066f\tg')).toBe('a  b c d e f g');
  });

  it.each(HOSTILE)('leaves no markup in %j', (s) => {
    const out = text(s);
    expect(out).not.toMatch(/[\r\n\u2028\u2029\u0000\u202e]/);
    // Every metacharacter is preceded by a backslash that is not itself escaped.
    const unescaped = out.replace(/\\[\s\S]/g, '');
    expect(unescaped).not.toMatch(/[!"#$%&'()*+,.:;<=>?@[\\\]^_`{|}~]/);
  });
});

describe('code()', () => {
  it('wraps an identifier in a code span', () => {
    expect(code('kubernetes.io/pvc-protection')).toBe('`kubernetes.io/pvc-protection`');
    expect(code('<img src=x onerror=alert(1)>')).toBe('`<img src=x onerror=alert(1)>`');
  });

  it('uses a fence longer than any backtick run and pads an edge backtick', () => {
    expect(code('a`b')).toBe('``a`b``');
    expect(code('``x``')).toBe('``` ``x`` ```');
    expect(code('`')).toBe('`` ` ``');
    expect(code(' both sides ')).toBe('`  both sides  `');
  });

  it('never yields an empty span, and keeps one line', () => {
    expect(code('')).toBe('\\"\\"');
    expect(code('  ')).toBe('\\"  \\"');
    expect(code('a\nb')).toBe('`a b`');
  });
});

describe('commandUri()', () => {
  const args = ['file:///home/me/my%20dir/a%23b%25.yaml', { start: { line: 1, character: 2 }, end: { line: 1, character: 9 } }];

  it('reads the same whether VS Code decodes the query once or twice', () => {
    const uri = commandUri('kubeGcLens.revealLocation', args);
    const query = uri.slice('command:kubeGcLens.revealLocation?'.length);
    const once = decodeURIComponent(query);
    const twice = decodeURIComponent(once);
    expect(JSON.parse(once)).toEqual(args);
    expect(JSON.parse(twice)).toEqual(args);
  });

  it('is a valid markdown link destination: no space, parenthesis, bracket, angle bracket or backslash', () => {
    const uri = commandUri('kubeGcLens.revealLocation', ["file:///a (b) [c] <d> \\e'f!*", { x: ' ' }]);
    expect(uri).toMatch(/^command:kubeGcLens\.revealLocation\?[A-Za-z0-9%._~-]*$/);
    expect(link('label', uri)).toBe(`[label](${uri})`);
  });

  it('encodes exactly', () => {
    expect(commandUri('x.y', ['a%b'])).toBe('command:x.y?%5B%22a%5Cu0025b%22%5D');
  });
});
