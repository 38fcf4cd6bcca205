// The generated workspace the language server's report opens (and the YAML parse report reads): a cluster spread
// over YAML files of `perFile` documents each, grouped by namespace, in a temporary folder.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generateCluster, type ListItem } from './generateCluster';

export const generatedCluster = (objects: number) =>
  generateCluster({ objects, bigNamespaceObjects: Math.floor((objects - 1000) / 4) }).list.items;

/** Writes the objects as YAML files; returns the folder and the file holding the first Pod with an owner. */
export function writeYamlWorkspace(items: ListItem[], perFile: number): { dir: string; podFile: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'kube-gc-lsp-bench-'));
  const byNs = new Map<string, ListItem[]>();
  for (const it of items) {
    const ns = it.metadata.namespace ?? '_cluster';
    const list = byNs.get(ns);
    if (list) list.push(it);
    else byNs.set(ns, [it]);
  }
  let podFile = '';
  const files: string[] = [];
  for (const [ns, list] of byNs) {
    for (let i = 0; i < list.length; i += perFile) {
      const chunk = list.slice(i, i + perFile);
      const file = join(dir, `${ns}-${String(i / perFile).padStart(5, '0')}.yaml`);
      writeFileSync(file, chunk.map((o) => stringify(o)).join('---\n'));
      files.push(file);
      if (!podFile && chunk.some((o) => o.kind === 'Pod' && o.metadata.ownerReferences?.length)) podFile = file;
    }
  }
  return { dir, podFile, files };
}
