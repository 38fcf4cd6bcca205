// SARIF 2.1.0 for code scanning (GitHub, Azure DevOps): one rule per finding code, 1-based regions.

import { FINDING_CODES, type Finding, type Severity } from '../../engine/analysis/findingTypes';
import { FINDING_CATALOGUE } from '../../engine/analysis/findingCatalogue';

const level = (s: Severity) => (s === 'info' ? 'note' : s);

export function toSarif(findings: Finding[], version: string, relative: (file: string) => string): object {
  const rules = FINDING_CODES.map((id) => ({
    id,
    name: id.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: FINDING_CATALOGUE[id].title },
    fullDescription: { text: FINDING_CATALOGUE[id].explanation },
    defaultConfiguration: { level: level(FINDING_CATALOGUE[id].severity) },
    helpUri: `https://github.com/kube-gc-lens/kube-gc-lens/blob/main/docs/findings.md#${id}`,
  }));
  const location = (file: string | undefined, range: Finding['range']) => ({
    physicalLocation: {
      artifactLocation: { uri: file ? relative(file) : 'unknown' },
      ...(range
        ? {
            region: {
              startLine: range.start.line + 1,
              startColumn: range.start.character + 1,
              endLine: range.end.line + 1,
              endColumn: range.end.character + 1,
            },
          }
        : {}),
    },
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'kube-gc-lens', version, informationUri: 'https://github.com/kube-gc-lens/kube-gc-lens', rules } },
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: FINDING_CODES.indexOf(f.code),
          level: level(f.severity),
          message: { text: f.message },
          locations: [location(f.file, f.range)],
          ...(f.related.length
            ? {
                relatedLocations: f.related
                  .filter((r) => r.file)
                  .map((r, id) => ({ id, message: { text: r.message }, ...location(r.file, r.range) })),
              }
            : {}),
        })),
      },
    ],
  };
}
