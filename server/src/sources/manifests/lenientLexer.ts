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
  continueScalar(offset: number): number;
  parseQuotedScalar(): Generator<string, unknown, unknown>;
}

export function lenientLexer(): Lexer {
  const lexer = new Lexer();
  const inner = lexer as unknown as LexerInternals;
  const continueScalar = inner.continueScalar;
  const parseQuotedScalar = inner.parseQuotedScalar;
  if (typeof continueScalar !== 'function' || typeof parseQuotedScalar !== 'function') return lexer;
  let inQuoted = false;
  inner.parseQuotedScalar = function* (this: LexerInternals) {
    inQuoted = true;
    try {
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
