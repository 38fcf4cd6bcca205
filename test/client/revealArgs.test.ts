// kubeGcLens.revealLocation's arguments, as code lenses, report links and the tree send them.

import { describe, expect, it } from 'vitest';
import { parseRevealArgs } from '../../client/src/logic/revealArgs';

const range = { start: { line: 3, character: 2 }, end: { line: 3, character: 9 } };

describe('parseRevealArgs', () => {
  it('accepts a URI string and an LSP range', () => {
    expect(parseRevealArgs('file:///ws/a%20b.yaml', range)).toEqual({ uri: 'file:///ws/a%20b.yaml', range });
    expect(parseRevealArgs('untitled:Untitled-1', { ...range, extra: 1 })).toEqual({ uri: 'untitled:Untitled-1', range });
  });

  it('rejects anything else', () => {
    expect(parseRevealArgs(undefined, range)).toBeUndefined();
    expect(parseRevealArgs('/no/scheme.yaml', range)).toBeUndefined();
    expect(parseRevealArgs({ scheme: 'file' }, range)).toBeUndefined();
    expect(parseRevealArgs('file:///a', null)).toBeUndefined();
    expect(parseRevealArgs('file:///a', { start: { line: 1, character: 0 } })).toBeUndefined();
    expect(parseRevealArgs('file:///a', { start: { line: -1, character: 0 }, end: { line: 1, character: 0 } })).toBeUndefined();
    expect(parseRevealArgs('file:///a', { start: { line: 1.5, character: 0 }, end: { line: 1, character: 0 } })).toBeUndefined();
    expect(parseRevealArgs('file:///a', { start: { line: '1', character: 0 }, end: { line: 1, character: 0 } })).toBeUndefined();
  });
});
