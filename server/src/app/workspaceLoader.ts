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

/** Files read at once while loading: the parsing waits on the disk less, and memory stays bounded. */
const READS_IN_FLIGHT = 16;

/**
 * Every matching file of the folders, parsed, then the open documents outside them; undefined once cancelled.
 * The open documents are parsed first (`openParsed` gets them, so that their own problems can be shown at once);
 * the other files are read READS_IN_FLIGHT at a time and parsed as they arrive. The states come back in the
 * folders' order, the open documents outside them last.
 */
export async function readWorkspaceStates(
  model: WorkspaceModel,
  files: WorkspaceFiles,
  options: {
    /** An open document's text, by URI (those not in `openDocuments`). */
    openText: (uri: string) => string | undefined;
    /** The open documents (in the folders or not: untitled, elsewhere). */
    openDocuments: { uri: string; text: string }[];
    cancelled: () => boolean;
    progress?: (percent: number, message: string) => void;
    /** The open documents' states, before any other file is read. */
    openParsed?: (states: DocumentState[]) => void;
  },
): Promise<DocumentState[] | undefined> {
  const open = new Map<string, DocumentState | undefined>();
  for (const doc of options.openDocuments) open.set(doc.uri, model.parse(doc.uri, doc.text));
  options.openParsed?.([...open.values()].filter((s): s is DocumentState => s !== undefined));
  const paths = await listFiles(files, options.cancelled);
  const states: (DocumentState | undefined)[] = new Array(paths.length);
  const seen = new Set<string>();
  let done = 0;
  let next = 0;
  const readNext = async (): Promise<void> => {
    while (next < paths.length && !options.cancelled()) {
      const i = next++;
      const uri = pathToFileURL(paths[i]).toString();
      seen.add(uri);
      const text = open.has(uri) ? undefined : options.openText(uri);
      states[i] = open.has(uri) ? open.get(uri) : text !== undefined ? model.parse(uri, text) : await parseFromDisk(model, uri, paths[i]);
      done++;
      if (done % 50 === 0) options.progress?.(Math.round((100 * done) / paths.length), `${done}/${paths.length} files`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, paths.length) }, readNext));
  if (options.cancelled()) return undefined;
  const out = states.filter((s): s is DocumentState => s !== undefined);
  for (const [uri, state] of open) if (!seen.has(uri) && state) out.push(state);
  return out;
}

/** Every matching file of the folders (sorted per folder, the folders in order). */
async function listFiles(files: WorkspaceFiles, cancelled: () => boolean): Promise<string[]> {
  const paths: string[] = [];
  for (const folder of files.folders) {
    const root = fileOf(folder);
    if (!root) continue;
    paths.push(...(await listWorkspaceFiles(root, { include: files.include, exclude: files.exclude }, cancelled)));
  }
  return paths;
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
