// The `yaml` package follows the YAML 1.2 spec strictly on one point that Kubernetes' decoder (go-yaml, like
// libyaml and PyYAML) does not: the continuation lines of a multi-line quoted scalar must be indented more than
// its parent mapping. go-yaml's own emitter breaks long quoted strings without that indentation, so real
// `kubectl get -o yaml` output (status messages, for example) has them:
//
//   - message: '0/3 clusters are available: 3 cluster(s) didn''t match the placement
//     cluster affinity constraint.'
//
// This lexer accepts such lines inside quoted scalars, as go-yaml does; only a document marker at the start of
// a line ends the scalar there. Everything else is the package's own lexer. If a future version of the
// package no longer has the two methods this relies on, the lexer is returned unchanged (strict).

import { Lexer } from 'yaml';

interface LexerInternals {
  buffer: string;
  pos: number;
  atEnd: boolean;
  flowLevel: number;
  continueScalar(offset: number): number;
  parseQuotedScalar(): Generator<string, unknown, unknown>;
  pushToIndex(i: number, allowEmpty: boolean): Generator<string, number, unknown>;
}

/** Where the quoted scalar starting at `pos` closes, as the package finds it (escapes and '' included), or -1. */
function closingQuote(b: string, pos: number): number {
  const quote = b[pos];
  let end = b.indexOf(quote, pos + 1);
  if (quote === "'") {
    while (end !== -1 && b[end + 1] === "'") end = b.indexOf("'", end + 2);
    return end;
  }
  while (end !== -1) {
    let n = 0;
    while (b[end - 1 - n] === '\\') n += 1;
    if (n % 2 === 0) return end;
    end = b.indexOf('"', end + 1);
  }
  return -1;
}

export function lenientLexer(): Lexer {
  const lexer = new Lexer();
  const inner = lexer as unknown as LexerInternals;
  const continueScalar = inner.continueScalar;
  const parseQuotedScalar = inner.parseQuotedScalar;
  if (typeof continueScalar !== 'function' || typeof parseQuotedScalar !== 'function') return lexer;
  let inQuoted = false;
  const canEndEarly = typeof inner.pushToIndex === 'function';
  inner.parseQuotedScalar = function* (this: LexerInternals) {
    inQuoted = true;
    try {
      // A quote that never closes (someone is typing `key: "half-`) would run to the end of the file and swallow
      // every later document; kubectl splits documents first, so end it at the next document marker instead.
      if (canEndEarly && this.atEnd && closingQuote(this.buffer, this.pos) === -1) {
        const b = this.buffer;
        let nl = b.indexOf('\n', this.pos);
        let lastNl = nl;
        while (nl !== -1) {
          const cs = this.continueScalar(nl + 1);
          if (cs === -1) break;
          lastNl = nl;
          nl = b.indexOf('\n', cs);
        }
        if (nl === -1) nl = lastNl; // the document's text ends (documents are read one by one): end at its last line
        if (nl !== -1) {
          yield* this.pushToIndex(nl - (b[nl - 1] === '\r' ? 1 : 0), false);
          return this.flowLevel ? 'flow' : 'doc';
        }
      }
      return yield* parseQuotedScalar.call(this);
    } finally {
      inQuoted = false;
    }
  };
  inner.continueScalar = function (this: LexerInternals, offset: number): number {
    const strict = continueScalar.call(this, offset);
    if (strict !== -1 || !inQuoted) return strict;
    const b = this.buffer;
    const marker = b.substr(offset, 3);
    if ((marker === '---' || marker === '...') && /^[\s]?$/.test(b[offset + 3] ?? '')) return -1;
    let i = offset;
    while (b[i] === ' ' || b[i] === '\t') i++;
    return i;
  };
  return lexer;
}
