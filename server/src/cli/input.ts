// Reads the CLI's input (files, folders, stdin, DOT dumps) into an Inventory. The only CLI module that
// touches sources; everything after it is the engine.

import { loadPaths } from '../sources/files';
import type { LoadProblem } from '../sources/manifests/loadProblem';
import { resolveRanges } from '../sources/manifests/parseManifest';
import { positionsPending } from '../sources/manifests/lazyPositions';
import { buildInventory, type Inventory } from '../engine/inventory';
import type { KubeObject } from '../engine/model';
import { UsageError } from './args';

export interface CliInput {
  inventory: Inventory;
  problems: LoadProblem[];
  files: number;
  /**
   * Resolves source positions of JSON objects on demand (they are loaded with JSON.parse, without positions); YAML
   * objects read theirs when asked for.
   */
  ensureRanges(objects: KubeObject[]): void;
}

export async function loadInput(paths: string[], opts: { namespace?: string; stdin: NodeJS.ReadableStream }): Promise<CliInput> {
  if (paths.length === 0) throw new UsageError('no input: give manifests with -f FILE|FOLDER|-');
  const loaded = await loadPaths(paths, { stdin: opts.stdin });
  // A path named on the command line that cannot be read is bad usage; what a folder holds is reported and skipped.
  const named = new Set(paths);
  const unreadable = loaded.problems.filter((p) => (p.code === 'unreadable' || p.code === 'too-large') && named.has(p.file));
  if (unreadable.length) {
    throw new InputError(unreadable.map((p) => `error: ${p.file}: ${p.reason}`).join('\n'));
  }
  const inventory = buildInventory(loaded.objects, { defaultNamespace: opts.namespace });
  // Only the texts are kept (for positions): the loaded objects go once the inventory holds its own.
  const { texts, problems, files } = loaded;
  return {
    inventory,
    problems,
    files,
    ensureRanges(objects) {
      const byFile = new Map<string, KubeObject[]>();
      for (const o of objects) {
        if (!positionsPending(o.source)) continue;
        const file = o.source!.file;
        const list = byFile.get(file) ?? [];
        list.push(o);
        byFile.set(file, list);
      }
      for (const [file, list] of byFile) {
        const text = texts.get(file);
        if (text === undefined) continue;
        // Only the objects asked for: positions of every object of a large List would cost more than the List.
        try {
          resolveRanges(text, list);
        } catch {
          // A file whose positions cannot be recovered keeps its findings without a range.
        }
      }
    },
  };
}

/** Input that cannot be read at all: exit code 2. */
export class InputError extends Error {}
