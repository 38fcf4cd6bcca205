// Focused cases the fuzz suite found or was written for (issue 13), each the smallest text that shows it.

import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analysis/analyze';
import { buildInventory } from '../../server/src/engine/inventory';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { ISSUE_FIRST, ISSUE_THIRD } from './corpus';

/** first (lines 1–6), `---` (7), the broken document (8…), `---`, third. */
function sandwich(broken: string) {
  const text = `${ISSUE_FIRST.text}---\n${broken}\n---\n${ISSUE_THIRD.text}`;
  const brokenLines = { first: 8, last: 8 + broken.split('\n').length - 1 };
  const { objects, problems } = parseManifestText(text, 'repro.yaml');
  const findings = analyze(buildInventory(objects));
  return { objects, problems, findings, brokenLines };
}

describe('a broken document between an owner and its dependent (issue 13, defect 1)', () => {
  it.each([']', '}', '[', '{', 'a: ]', 'a: [', 'a: {b: 1', '- ]', '"', '{"a": 1,'])(
    '%j: the owner still loads, nothing dangles, the error is in the broken document',
    (broken) => {
      const { objects, problems, findings, brokenLines } = sandwich(broken);
      expect(objects.map((o) => o.name)).toEqual(['first', 'third']);
      expect(findings.filter((f) => f.code === 'dangling-owner')).toEqual([]);
      const errors = problems.filter((p) => p.severity === 'error');
      expect(errors).toHaveLength(1);
      // Located in the broken document's own lines, not on the `---` that starts the next one.
      expect(errors[0].line, `${errors[0].code} at ${errors[0].line}:${errors[0].column}: ${errors[0].reason}`).toBeGreaterThanOrEqual(
        brokenLines.first,
      );
      expect(errors[0].line, `${errors[0].code} at ${errors[0].line}:${errors[0].column}: ${errors[0].reason}`).toBeLessThanOrEqual(
        brokenLines.last,
      );
    },
  );
});

describe('a NUL byte in one document of a text file (issue 13, defect 2)', () => {
  it('refuses that document at the byte, and loads the others', () => {
    const { objects, problems } = sandwich('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: se\u0000cond\n  namespace: demo\n');
    expect(objects.map((o) => o.name)).toEqual(['first', 'third']);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors).toHaveLength(1);
    expect([errors[0].line, errors[0].column]).toEqual([11, 11]);
  });
});

describe('valid YAML that only looks deep (found by the inert mutation)', () => {
  // The depth pre-scan (defect 3's fix) must not refuse what the `yaml` package reads without error: the continuation
  // lines of a multi-line plain scalar are text, whatever brackets or indentation they hold.
  const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: looks-deep\n  namespace: demo\ndata:\n${data}`;
  it.each([
    ['brackets in a quoted string', `  k: "${'['.repeat(5000)}"\n`],
    ['brackets in a comment', `  # ${'{'.repeat(5000)}\n  k: v\n`],
    ['brackets in a block scalar', `  k: |\n    ${'['.repeat(5000)}\n`],
    ['indentation in a block scalar', `  k: |\n${Array.from({ length: 400 }, (_, i) => `${' '.repeat(4 + i)}x`).join('\n')}\n`],
    ["brackets on a plain scalar's continuation line", `  k: a\n    ${'['.repeat(300)}\n`],
    [
      "a plain scalar's continuation lines, each indented one more",
      `  k: a\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(4 + i)}b`).join('\n')}\n`,
    ],
  ])('%s', (_name, data) => {
    const { objects, problems } = parseManifestText(configMap(data), 'looks-deep.yaml');
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(objects.map((o) => o.name)).toEqual(['looks-deep']);
  });
});
