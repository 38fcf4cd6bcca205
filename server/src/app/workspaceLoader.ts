// Reading the workspace's manifests from disk into the workspace model's document states: every matching file of
// the folders (an open document by its editor text), and one closed file again when it changes. No LSP: the
// language server says which folders, which documents are open, and shows the progress.

import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeProblem } from '../sources/manifests/loadProblem';
import { listWorkspaceFiles, makeMatcher, readWorkspaceFile, readWorkspaceFileSync } from '../sources/workspaceFiles';
import type { DocumentState, WorkspaceModel } from '../workspace/workspaceModel';

export interface WorkspaceFiles {
  /** The workspace folders' URIs. */
  folders: string[];
  include: string[];
  exclude: string[];
}

/** Every matching file of the folders, parsed, then the open documents outside them; undefined once cancelled. */
export async function readWorkspaceStates(
  model: WorkspaceModel,
  files: WorkspaceFiles,
  options: {
    /** An open document's text, by URI. */
    openText: (uri: string) => string | undefined;
    /** Open documents to read besides the folders' files (untitled, elsewhere). */
    openDocuments: { uri: string; text: string }[];
    cancelled: () => boolean;
    progress?: (percent: number, message: string) => void;
  },
): Promise<DocumentState[] | undefined> {
  const paths: string[] = [];
  for (const folder of files.folders) {
    const root = fileOf(folder);
    if (!root) continue;
    paths.push(...(await listWorkspaceFiles(root, { include: files.include, exclude: files.exclude }, options.cancelled)));
  }
  const states: DocumentState[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const file of paths) {
    if (options.cancelled()) return undefined;
    const uri = pathToFileURL(file).toString();
    const open = options.openText(uri);
    const state = open !== undefined ? model.parse(uri, open) : await parseFromDisk(model, uri, file);
    seen.add(uri);
    if (state) states.push(state);
    done++;
    if (done % 50 === 0) options.progress?.(Math.round((100 * done) / paths.length), `${done}/${paths.length} files`);
  }
  for (const doc of options.openDocuments) {
    if (seen.has(doc.uri)) continue;
    const state = model.parse(doc.uri, doc.text);
    if (state) states.push(state);
  }
  return options.cancelled() ? undefined : states;
}

/** A closed workspace file read again after it changed on disk (undefined: not a workspace manifest, or gone). */
export function readClosedState(model: WorkspaceModel, uri: string, files: WorkspaceFiles): DocumentState | undefined {
  const file = fileOf(uri);
  if (!file) return undefined;
  const root = files.folders.map(fileOf).find((r) => r !== undefined && !path.relative(r, file).startsWith('..'));
  if (!root || !makeMatcher({ include: files.include, exclude: files.exclude })(path.relative(root, file))) return undefined;
  // Synchronous on purpose: one file, and the update that follows must see it before any request is answered.
  const read = readWorkspaceFileSync(file);
  if (read === undefined) return undefined;
  return 'text' in read ? model.parse(uri, read.text) : unreadable(uri, read.error);
}

async function parseFromDisk(model: WorkspaceModel, uri: string, file: string): Promise<DocumentState | undefined> {
  const read = await readWorkspaceFile(file);
  return 'text' in read ? model.parse(uri, read.text) : unreadable(uri, read.error);
}

const unreadable = (uri: string, error: string): DocumentState => ({
  uri,
  raw: [],
  uids: [],
  problems: [makeProblem(uri, 'error', 'unreadable', error)],
  kindSignature: '',
});

/** The file path of a `file:` URI (undefined for any other scheme). */
export function fileOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
