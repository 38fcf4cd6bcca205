// Test helper for the LSP feature modules (hover, code lenses): a WorkspaceModel built from YAML texts, positions
// found by searching the text (never hand-counted), and the examples/ folders as workspaces.

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Position } from 'vscode-languageserver-protocol';
import type { ControllersMode, FinalizerOwnerRule } from '../../server/src/engine/simulation/types';
import { WorkspaceModel } from '../../server/src/workspace/workspaceModel';

export interface TestOptions {
  controllers: ControllersMode;
  finalizerOwners: FinalizerOwnerRule[];
}

export const BUILTIN: TestOptions = { controllers: 'builtin', finalizerOwners: [] };

/** A workspace holding `docs` (URI → text), loaded at once as the server does at start. */
export function workspace(docs: Record<string, string>, options: TestOptions = BUILTIN): WorkspaceModel {
  const model = new WorkspaceModel(options);
  model.loadAll(
    Object.entries(docs).map(([uri, text]) => {
      const state = model.parse(uri, text);
      if (!state) throw new Error(`${uri} does not look like Kubernetes`);
      return state;
    }),
  );
  return model;
}

const EXAMPLES = path.resolve(__dirname, '../../examples');

/** The files of one examples/ folder, as `file:///examples/<folder>/<file>` URIs. */
export function exampleDocs(folder: string): Record<string, string> {
  const docs: Record<string, string> = {};
  for (const f of readdirSync(path.join(EXAMPLES, folder)).sort()) {
    docs[`file:///examples/${folder}/${f}`] = readFileSync(path.join(EXAMPLES, folder, f), 'utf8');
  }
  return docs;
}

/**
 * The position `offset` characters into the `nth` occurrence (0-based) of `needle` in `text`.
 * Throws when there is no such occurrence, so a changed fixture fails loudly instead of hovering nowhere.
 */
export function positionOf(text: string, needle: string, { nth = 0, offset = 0 }: { nth?: number; offset?: number } = {}): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`occurrence ${nth} of ${JSON.stringify(needle)} not found`);
  }
  const before = text.slice(0, at + offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

/** 0-based line of the `nth` occurrence of `needle`. */
export function lineOf(text: string, needle: string, nth = 0): number {
  return positionOf(text, needle, { nth }).line;
}
