// Reading the workspace from disk (app/workspaceLoader.ts): many files read at once, parsed as they arrive, and the
// states still come back in the folders' sorted order, open documents by their editor text, nothing once cancelled.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkspaceStates } from '../../server/src/app/workspaceLoader';
import { WorkspaceModel } from '../../server/src/workspace/workspaceModel';

const dir = mkdtempSync(join(tmpdir(), 'kube-gc-loader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ns\n`;
const names: string[] = [];
for (let i = 0; i < 60; i++) {
  const sub = join(dir, `d${i % 3}`);
  mkdirSync(sub, { recursive: true });
  const file = join(sub, `cm-${String(i).padStart(2, '0')}.yaml`);
  writeFileSync(file, i === 7 ? 'apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n' : configMap(`cm-${i}`));
  names.push(file);
}
writeFileSync(join(dir, 'notes.yaml'), 'just: notes\n'); // not Kubernetes: not part of the workspace
const files = { folders: [pathToFileURL(dir).toString()], include: ['**/*.yaml'], exclude: [] };
const model = () => new WorkspaceModel({ controllers: 'builtin', finalizerOwners: [] });

describe('readWorkspaceStates', () => {
  it('reads every file, in sorted order, as parsing each alone gives, open documents by their text', async () => {
    const openUri = pathToFileURL(names[5]).toString();
    const outside = { uri: 'untitled:Untitled-1', text: configMap('scratch') };
    const progress: string[] = [];
    const firsts: string[][] = [];
    const states = await readWorkspaceStates(model(), files, {
      openText: () => undefined,
      openDocuments: [{ uri: openUri, text: configMap('edited') }, outside],
      cancelled: () => false,
      progress: (_, message) => progress.push(message),
      openParsed: (open) => firsts.push([...open.map((s) => s.raw[0].name), `after ${progress.length} progress reports`]),
    });
    expect(firsts).toEqual([['edited', 'scratch', 'after 0 progress reports']]); // the open documents first, once
    const sorted = [...names].sort().map((f) => pathToFileURL(f).toString());
    expect(states!.map((s) => s.uri)).toEqual([...sorted, outside.uri]);
    const m = model();
    for (const s of states!) {
      const text =
        s.uri === openUri ? configMap('edited') : s.uri === outside.uri ? outside.text : readFileSync(fileURLToPath(s.uri), 'utf8');
      expect(s).toStrictEqual(m.parse(s.uri, text));
    }
    expect(states!.find((s) => s.uri === openUri)!.raw[0].name).toBe('edited');
    expect(states!.find((s) => s.uri.endsWith('cm-07.yaml'))!.problems[0].code).toBe('yaml-syntax');
    expect(progress).toContain('50/61 files'); // notes.yaml is read too
  });

  it('gives nothing once cancelled', async () => {
    let reads = 0;
    const states = await readWorkspaceStates(model(), files, {
      openText: () => {
        reads++;
        return undefined;
      },
      openDocuments: [],
      cancelled: () => reads >= 10,
    });
    expect(states).toBeUndefined();
    expect(reads).toBeLessThan(60);
  });
});
