// The TypeScript projects (tsconfig.json, one per layer): every source file is in exactly one of them, so none escapes
// type checking or its layer's references; and the pure ones (the engine, the wire module, the webview's model) see no
// Node and no DOM, so their process, timer, network and page globals do not compile. `tsc -b` builds them.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const rel = (file: string) => path.relative(REPO, file).split(path.sep).join('/');

function parse(configFile: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed || parsed.errors.length > 0)
    throw new Error(`${configFile}: ${parsed?.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))}`);
  return parsed;
}

/** The projects that tsconfig.json lists, by folder. */
function projects(): Map<string, ts.ParsedCommandLine> {
  const root = parse(path.join(REPO, 'tsconfig.json'));
  return new Map((root.projectReferences ?? []).map((r) => [rel(r.path), parse(ts.resolveProjectReferencePath(r))]));
}

const SKIP = new Set(['node_modules', '.git', '.cache', 'dist', 'out', 'test-output', 'fixtures']);
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : sourceFiles(p);
    // Declarations (scripts/*.d.mts) describe JavaScript modules: they are checked where they are imported.
    return /\.(ts|mts|cts|tsx)$/.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name) ? [rel(p)] : [];
  });
}

describe('the TypeScript projects', () => {
  const all = projects();

  it('are one per layer', () => {
    expect([...all.keys()].sort()).toEqual([
      'bench',
      'client/src',
      'server/src/app',
      'server/src/cli',
      'server/src/engine',
      'server/src/lsp',
      'server/src/sources',
      'server/src/workspace',
      'shared/src',
      'test',
      'testkit',
      'webview',
      'webview/src/model',
    ]);
  });

  it('hold every source file of the repository, each in one project', () => {
    const owners = new Map<string, string[]>();
    for (const [name, project] of all) {
      for (const f of project.fileNames) owners.set(rel(f), [...(owners.get(rel(f)) ?? []), name]);
    }
    const files = sourceFiles(REPO);
    expect(files.length).toBeGreaterThan(300);
    expect(
      files.filter((f) => (owners.get(f) ?? []).length !== 1).map((f) => `${f}: ${owners.get(f)?.join(', ') ?? 'no project'}`),
    ).toEqual([]);
  });
});

describe('the pure projects', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** Compiles `lines` (one `export const` each) with a project's options; the 1-based lines that do not compile. */
  function failingLines(project: string, lines: string[]): number[] {
    const dir = mkdtempSync(path.join(tmpdir(), 'kube-gc-lens-purity-'));
    dirs.push(dir);
    const file = path.join(dir, 'sample.ts');
    writeFileSync(file, lines.map((l, i) => `export const g${i} = ${l};`).join('\n'));
    const options: ts.CompilerOptions = {
      ...parse(path.join(REPO, project, 'tsconfig.json')).options,
      noEmit: true,
      composite: false,
      declaration: false,
      emitDeclarationOnly: false,
      incremental: false,
      rootDir: undefined,
      outDir: undefined,
    };
    const program = ts.createProgram([file], options);
    return [
      ...new Set(
        ts
          .getPreEmitDiagnostics(program)
          .map((d) => (d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0)),
      ),
    ].sort((a, b) => a - b);
  }

  const PURE = '[1, 2].map((n) => Math.max(n, 0)).join(",")';
  const NODE_AND_TIMERS = [
    'process.env.HOME',
    'setTimeout(() => 0, 1)',
    'setInterval(() => 0, 1)',
    'setImmediate(() => 0)',
    'queueMicrotask(() => 0)',
    'require("fs")',
    '__dirname',
    'module.exports',
    'Buffer.from("")',
    'globalThis.process',
    'console.log("")',
  ];
  const NETWORK_AND_PAGE = [
    'fetch("http://example.com")',
    'new XMLHttpRequest()',
    'new WebSocket("ws://example.com")',
    'globalThis.fetch',
    'document.title',
    'window.name',
    'navigator.userAgent',
    'requestAnimationFrame(() => 0)',
    'getComputedStyle',
  ];

  it.each(['server/src/engine', 'shared/src', 'webview/src/model'])(
    '%s: no process, timer, module, network or page global compiles',
    (project) => {
      const lines = [PURE, ...NODE_AND_TIMERS, ...NETWORK_AND_PAGE];
      expect(failingLines(project, lines)).toEqual(lines.map((_, i) => i + 1).slice(1));
    },
  );

  it('webview/src/model: the VS Code webview API is not there either', () => {
    expect(failingLines('webview/src/model', [PURE, 'acquireVsCodeApi()'])).toEqual([2]);
  });

  it('webview (the page) has the DOM, as a check that the samples fail for the reason given', () => {
    expect(failingLines('webview', [PURE, 'document.title', 'requestAnimationFrame(() => 0)'])).toEqual([]);
  });
});
