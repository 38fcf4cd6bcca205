// Finds and reads the manifest files of an editor workspace: every file under the workspace folders that
// matches the include globs and none of the exclude globs (ours plus VS Code's files.exclude). Globs are
// matched against the path relative to its workspace folder, as VS Code does.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import { decodeText, MAX_FILE_BYTES } from './files';
import { readBounded, readBoundedSync, type BoundedRead } from './boundedRead';

export interface FileFilter {
  include: string[];
  exclude: string[];
}

const GLOB_OPTIONS = { dot: true, nocase: process.platform === 'win32' } as const;

export function makeMatcher(filter: FileFilter): (relativePath: string) => boolean {
  const include = filter.include.map((g) => new minimatch.Minimatch(g, GLOB_OPTIONS));
  const exclude = filter.exclude.map((g) => new minimatch.Minimatch(g, GLOB_OPTIONS));
  return (rel) => {
    const p = rel.split(path.sep).join('/');
    return include.some((m) => m.match(p)) && !exclude.some((m) => m.match(p) || m.match(p + '/'));
  };
}

/** Whether a folder can be skipped: an exclude glob matches it (e.g. node_modules/**), so nothing under it counts. */
function folderExcluded(filter: FileFilter, rel: string): boolean {
  const p = rel.split(path.sep).join('/');
  return filter.exclude.some((g) => minimatch(p + '/x', g, GLOB_OPTIONS) && minimatch(p + '/x/y', g, GLOB_OPTIONS));
}

/**
 * Every matching file under `root` (absolute paths, sorted). Unreadable folders are skipped, never fatal. Folders
 * are read side by side; a folder reached twice (a symlink loop) is read once.
 */
export async function listWorkspaceFiles(root: string, filter: FileFilter, isCancelled: () => boolean = () => false): Promise<string[]> {
  const matches = makeMatcher(filter);
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    if (isCancelled()) return;
    let real: string;
    try {
      real = await fs.realpath(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return; // a symlink loop
    seen.add(real);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const subfolders: Promise<void>[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      const rel = path.relative(root, full);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await fs.stat(full);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      if (isDir) {
        if (!folderExcluded(filter, rel)) subfolders.push(walk(full));
      } else if (isFile && matches(rel)) out.push(full);
    }
    await Promise.all(subfolders); // side by side: a must-gather has hundreds of folders
  };
  await walk(root);
  return out.sort();
}

export type ReadOutcome = { text: string } | { error: string };

const overLimit = (file: string, size: number | undefined) =>
  `${path.basename(file)} is ${size === undefined ? 'larger than' : `${Math.round(size / 2 ** 20)} MB, over`} the ${MAX_FILE_BYTES / 2 ** 20} MB limit; it is not loaded.`;

function outcome(file: string, res: BoundedRead): ReadOutcome | undefined {
  if ('bytes' in res) return { text: decodeText(res.bytes) };
  if (res.refused === 'too-large') return { error: overLimit(file, res.size) };
  return undefined; // not a regular file: not part of the workspace
}

/** Reads one file as text. Files over the size limit or unreadable give a sentence instead. */
export async function readWorkspaceFile(file: string): Promise<ReadOutcome> {
  try {
    return (
      outcome(file, await readBounded(file, MAX_FILE_BYTES)) ?? { error: `${path.basename(file)} is not a regular file; it is not loaded.` }
    );
  } catch (e) {
    return { error: `Cannot read ${path.basename(file)}: ${e instanceof Error ? e.message : String(e)}.` };
  }
}

/** The same, synchronously; `undefined` when the file no longer exists (deleted) or is not a file. */
export function readWorkspaceFileSync(file: string): ReadOutcome | undefined {
  try {
    return outcome(file, readBoundedSync(file, MAX_FILE_BYTES));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { error: `Cannot read ${path.basename(file)}: ${e instanceof Error ? e.message : String(e)}.` };
  }
}
