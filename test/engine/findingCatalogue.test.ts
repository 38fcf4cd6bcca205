// The one finding catalogue: an entry per code, defaults that match what the analysis reports, messages that never
// name an internal rule (the catalogue links the rules), and generated files (docs/findings.md, package.json's
// severity settings) that are current.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analysis/analyze';
import { FINDING_CATALOGUE, RULE_TITLES } from '../../server/src/engine/analysis/findingCatalogue';
import { FINDING_CODES, type Finding } from '../../server/src/engine/analysis/findingTypes';
import { buildInventory } from '../../server/src/engine/inventory';
import { loadPaths } from '../../server/src/sources/files';
import { LOAD_PROBLEM_CATALOGUE } from '../../server/src/sources/manifests/loadProblemCatalogue';

const root = path.resolve(__dirname, '../..');
const RULE_ID = /\bR\d+\b/;

/** Every string and template literal's text in a TypeScript source, with its 1-based line (comments are not literals). */
function literals(file: string, text: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Findings of the examples and the CLI fixtures: every code the files can produce, with real messages. */
async function fixtureFindings(): Promise<Finding[]> {
  const dirs = ['examples', 'test/fixtures/cli']
    .flatMap((d) => readdirSync(path.join(root, d)).map((n) => path.join(root, d, n)))
    .filter((p) => statSync(p).isDirectory());
  const out: Finding[] = [];
  for (const dir of dirs) {
    const loaded = await loadPaths([dir]);
    out.push(...analyze(buildInventory(loaded.objects, { defaultNamespace: 'default' })));
  }
  return out;
}

describe('the finding catalogue', () => {
  it('has one entry per finding code, under its own code, with a title, an explanation and known rules', () => {
    expect(Object.keys(FINDING_CATALOGUE)).toEqual([...FINDING_CODES]);
    for (const [code, doc] of Object.entries(FINDING_CATALOGUE)) {
      expect(doc.code).toBe(code);
      expect(doc.title, code).toMatch(/^\S.*[^.]$/);
      expect(doc.explanation, code).toMatch(/\.$/);
      for (const rule of doc.rules) expect(Object.keys(RULE_TITLES), code).toContain(rule);
      // Rules are linked from the docs, not written into the prose.
      expect(`${doc.title} ${doc.explanation}`, code).not.toMatch(RULE_ID);
    }
  });

  it('has one entry per load-problem code, under its own code', () => {
    for (const [code, doc] of Object.entries(LOAD_PROBLEM_CATALOGUE)) {
      expect(doc.code).toBe(code);
      expect(doc.explanation, code).toMatch(/\.$/);
    }
  });

  it('gives the severity the analysis reports, where the default does not depend on the case', async () => {
    const findings = await fixtureFindings();
    expect(new Set(findings.map((f) => f.code)).size).toBeGreaterThan(3);
    for (const f of findings) {
      const doc = FINDING_CATALOGUE[f.code];
      if (!doc.severityNote) expect(f.severity, f.code).toBe(doc.severity);
    }
  });
});

describe('finding messages', () => {
  it('never name an internal rule id', async () => {
    for (const f of await fixtureFindings()) {
      expect(f.message, f.code).not.toMatch(RULE_ID);
      for (const r of f.related) expect(r.message, f.code).not.toMatch(RULE_ID);
    }
  });

  it('are written without rule ids in the analysis, the simulation and the front ends (every string and template literal)', () => {
    const offenders: string[] = [];
    const scan = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) {
          scan(file);
          continue;
        }
        if (!file.endsWith('.ts')) continue;
        for (const { text, line } of literals(file, readFileSync(file, 'utf8'))) {
          // A bare id ('R34') is the catalogue's structured data, not prose.
          if (RULE_ID.test(text) && !/^R\d+$/.test(text)) offenders.push(`${path.relative(root, file)}:${line}: ${text}`);
        }
      }
    };
    for (const dir of ['server/src', 'client/src', 'webview/src', 'shared/src']) scan(path.join(root, dir));
    expect(offenders).toEqual([]);
  });

  it('the scan above sees a rule id in a template literal over several lines, and in parentheses', () => {
    const found = literals('x.ts', 'const m = `the GC\nretries forever (${"R46"} and (R46))`; // (R1)');
    expect(found).toEqual([
      { text: 'the GC\nretries forever (', line: 1 },
      { text: 'R46', line: 2 },
      { text: ' and (R46))', line: 2 },
    ]);
  });
});

describe('generated from the catalogue', () => {
  it("docs/findings.md and package.json's severity settings are current (npm run generate:findings)", () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/generateFindings.mjs'), '--check'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
