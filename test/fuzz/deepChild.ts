// Run by deep.test.ts in a child node process with a 1 GB heap (bundled by esbuild first): builds one large or
// deep input, loads it with parseManifestText, and prints what came out as one JSON line. An out-of-memory
// crash then kills this process, not the test runner.

import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { DEEP_INPUTS } from './deepInputs';

const name = process.argv[2];
const input = DEEP_INPUTS.find((i) => i.name === name);
if (!input) {
  process.stderr.write(`unknown input ${name}\n`);
  process.exit(2);
}
const text = input.build();
// The lines of the middle document when the input is good / deep / good (1-based, its `---` lines excluded).
const first = text.indexOf('\n---\n');
const last = text.lastIndexOf('\n---\n');
const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
const middle = input.around ? { first: lineAt(first) + 2, last: lineAt(last) } : undefined;
const started = Date.now();
const result = parseManifestText(text, input.file);
process.stdout.write(
  `${JSON.stringify({
    lines: text.split('\n').length,
    middle,
    objects: result.objects.map((o) => `${o.kind}/${o.name}`),
    problems: result.problems.map((p) => ({ code: p.code, severity: p.severity, line: p.line, column: p.column, reason: p.reason })),
    ms: Date.now() - started,
    heapMB: Math.round(process.memoryUsage().heapUsed / 1048576),
  })}\n`,
);
