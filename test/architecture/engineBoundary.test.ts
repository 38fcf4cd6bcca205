// The engine (server/src/engine/**) is pure: it imports nothing from VS Code, LSP libraries, Kubernetes clients,
// Node built-ins or the rest of the server, and uses no process, timer or network global. eslint.config.mjs
// enforces the same rule in the editor; this test enforces it without ESLint, on what the files really import.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkEngineSource, formatViolation, listSourceFiles, type Violation } from './engineBoundary';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = path.join(REPO, 'server', 'src', 'engine');

function checkRealEngine(kind: Violation['kind']): string[] {
  return listSourceFiles(ENGINE)
    .flatMap((file) => checkEngineSource(file, readFileSync(file, 'utf8'), ENGINE))
    .filter((v) => v.kind === kind)
    .map((v) => formatViolation(v, REPO));
}

/** Checks an in-memory file as if it were server/src/engine/<rel>. */
function checkSample(rel: string, text: string): string[] {
  return checkEngineSource(path.join(ENGINE, ...rel.split('/')), text, ENGINE).map((v) => formatViolation(v, REPO));
}

describe('engine boundary (server/src/engine)', () => {
  it('has sources to check', () => {
    // Guards against a vacuous pass if the engine moves.
    expect(listSourceFiles(ENGINE).length).toBeGreaterThan(0);
  });

  it('imports only engine files: no vscode, LSP, Kubernetes client, Node built-in, package or other server folder', () => {
    expect(checkRealEngine('import')).toEqual([]);
  });

  it('uses no process, timer, module-loading or network global', () => {
    expect(checkRealEngine('global')).toEqual([]);
  });
});

describe('the boundary checker', () => {
  it('reports a banned import in an in-memory sample, naming the file and the import', () => {
    expect(checkSample('graph/sample.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")).toEqual([
      "server/src/engine/graph/sample.ts:1:25 imports 'vscode': VS Code and LSP libraries belong to the client and server/src/lsp",
    ]);
  });

  it.each([
    ["import type { Connection } from 'vscode-languageserver/node';", 'vscode-languageserver/node'],
    ["import { createConnection } from 'vscode-jsonrpc';", 'vscode-jsonrpc'],
    ["import { KubeConfig } from '@kubernetes/client-node';", '@kubernetes/client-node'],
    ["import { readFileSync } from 'fs';", 'fs'],
    ["import { readFile } from 'node:fs/promises';", 'node:fs/promises'],
    ["import { readFile } from 'fs/promises';", 'fs/promises'],
    ["import * as path from 'node:path';", 'node:path'],
    ["import { setTimeout as sleep } from 'node:timers/promises';", 'node:timers/promises'],
    ["import { Worker } from 'worker_threads';", 'worker_threads'],
    ["import os = require('os');", 'os'],
    ["const cp = require('child_process');", 'child_process'],
    ["const net = await import('node:net');", 'node:net'],
    ["export * from '../../sources/manifests/parseManifest';", '../../sources/manifests/parseManifest'],
    ["export { main } from '../../cli/main';", '../../cli/main'],
    ["import '../../lsp/server';", '../../lsp/server'],
    ["type Stats = import('fs').Stats;", 'fs'],
    ["import { parse } from 'yaml';", 'yaml'],
  ])('reports %s', (line, spec) => {
    const found = checkSample('simulation/sample.ts', `${line}\n`);
    expect(found.some((f) => f.includes(`imports '${spec}'`)), found.join('\n')).toBe(true);
  });

  it('resolves relative imports from the importing file', () => {
    // From the engine root one `../` already leaves the engine; from a sub-folder it does not.
    expect(checkSample('inventory.ts', "import { x } from '../sources/x';\n")).toEqual([
      "server/src/engine/inventory.ts:1:19 imports '../sources/x': resolves outside server/src/engine, to server/src/sources/x",
    ]);
    expect(checkSample('graph/sample.ts', "import { describe } from '../model';\nimport { GraphNode } from './graphNode';\n")).toEqual([]);
  });

  it('reports the globals process., setTimeout(, setInterval(, setImmediate(', () => {
    const text = [
      'export function f(): void {',
      '  const home = process.env.HOME;',
      '  setTimeout(() => home, 10);',
      '  setInterval(() => home, 10);',
      '  setImmediate(() => home);',
      '  globalThis.fetch("http://example.com");',
      '}',
    ].join('\n');
    expect(checkSample('analysis/sample.ts', text).map((s) => s.replace(/: .*$/, ''))).toEqual([
      'server/src/engine/analysis/sample.ts:2:16 uses the global `process.`',
      'server/src/engine/analysis/sample.ts:3:3 uses the global `setTimeout(`',
      'server/src/engine/analysis/sample.ts:4:3 uses the global `setInterval(`',
      'server/src/engine/analysis/sample.ts:5:3 uses the global `setImmediate(`',
      'server/src/engine/analysis/sample.ts:6:3 uses the global `globalThis.fetch`',
    ]);
  });

  it('ignores comments, strings, property names and local names', () => {
    const text = [
      "// import fs from 'fs'; process.exit(1); setTimeout(f, 1)",
      "/* require('child_process') */",
      "export const message = \"import x from 'vscode'; the kubelet will never process.\";",
      "export const template = `setTimeout( ${'process.'} )`;",
      'export const step = { process: 1, setTimeout: 2 };',
      'export const n = step.process + step.setTimeout;',
      'export function run(process: { next(): void }): void { process.next(); }',
      "import { describe } from './model';",
      'export { describe };',
    ].join('\n');
    expect(checkSample('simulation/sample.ts', text)).toEqual([]);
  });

  it('reports an import() whose specifier it cannot read', () => {
    const found = checkSample('sample.ts', 'export async function load(name: string) { return import(name); }\n');
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('import() with a computed specifier cannot be checked');
  });

  it('reports type reference directives', () => {
    expect(checkSample('sample.ts', '/// <reference types="node" />\nexport const x = 1;\n')).toEqual([
      'server/src/engine/sample.ts:1:23 imports \'/// <reference types="node" />\': type reference directives pull ambient (Node, DOM) declarations into the engine',
    ]);
  });
});
