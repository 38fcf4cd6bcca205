// check's outputs are written in pieces: their concatenation is exactly the text written whole.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../server/src/engine/analysis/findingTypes';
import { checkText, checkTextChunks } from '../../server/src/cli/output/checkText';
import { findingToJson } from '../../server/src/cli/output/findingJson';
import { safeJson, safeJsonChunks } from '../../server/src/cli/output/safeText';
import { makeStyle } from '../../server/src/cli/output/style';
import type { LoadProblem } from '../../server/src/sources/manifests/loadProblem';

const finding = (i: number): Finding => ({
  code: 'dangling-owner',
  severity: i % 2 ? 'warning' : 'error',
  message: `The owner ReplicaSet web-${i} is not in the input\u2028 (\u202e${i})`,
  object: { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: `web-${i}`, uid: `p${i}` },
  location: { kind: 'object' },
  file: 'pods.yaml',
  range: { start: { line: i, character: 2 }, end: { line: i, character: 9 } },
  related: [],
});
const problem: LoadProblem = {
  file: 'bad.yaml',
  line: 1,
  column: 1,
  severity: 'error',
  code: 'yaml-syntax',
  reason: 'bad \u0085 yaml',
} as LoadProblem;

describe('check output in pieces', () => {
  for (const n of [0, 1, 999, 1000, 1001, 2500]) {
    const findings = Array.from({ length: n }, (_, i) => finding(i));
    for (const problems of [[], [problem]]) {
      it(`JSON of ${n} findings and ${problems.length} problems, in batches of 1000`, () => {
        const value = { objects: n, skipped: problems, problems, findings: findings.map(findingToJson), incomplete: undefined };
        const chunks = [...safeJsonChunks({ ...value, findings: [] }, 'findings', findings, findingToJson)];
        expect(chunks.join('')).toBe(safeJson(value));
        expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(n / 1000));
      });
      it(`text of ${n} findings and ${problems.length} problems`, () => {
        const style = makeStyle({ isTTY: false }, {});
        const chunks = [...checkTextChunks(findings, problems, n, 1, (f) => f, style)];
        expect(chunks.join('')).toBe(checkText(findings, problems, n, 1, (f) => f, style));
        expect(chunks.length).toBe(Math.ceil(n / 1000) + 1);
      });
    }
  }
  it('an empty object and a value with nested arrays', () => {
    expect([...safeJsonChunks({}, 'x', [], (v) => v)].join('')).toBe(safeJson({}));
    const value = { a: { b: [1, { c: 'd\n' }], e: [] }, x: [], z: 'last' };
    expect([...safeJsonChunks(value, 'x', [[1, 2], { y: {} }], (v) => v, 1)].join('')).toBe(safeJson({ ...value, x: [[1, 2], { y: {} }] }));
  });
});
