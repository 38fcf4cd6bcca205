// The engine boundary, checked from the source text (no ESLint involved): server/src/engine/** imports nothing but
// other engine files, and touches no process, timer or network global. Objects in, results out.
// Imports are read with TypeScript's own pre-processor (ts.preProcessFile), which skips comments and strings and
// sees `import`, `export ... from`, `import x = require()`, `require()`, `import()` and `import('x').T`.
// Globals are found on the syntax tree, so a mention in a comment or a string literal is not a use.
import ts from 'typescript';
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface Violation {
  /** Absolute path of the checked file. */
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  kind: 'import' | 'global';
  /** The import specifier, or the global as used (`process.`, `setTimeout(`, ...). */
  subject: string;
  reason: string;
}

/**
 * Packages the engine may import. Empty on purpose: a package resolves outside server/src/engine (node_modules).
 * Add one only if it is pure computation (no I/O, no timers, no process) and say why here.
 */
export const ENGINE_ALLOWED_PACKAGES: ReadonlySet<string> = new Set<string>([]);

/** Globals the engine must not use: process state, module loading, timers, network. */
export const ENGINE_BANNED_GLOBALS: ReadonlySet<string> = new Set([
  'process', 'require', 'module', 'exports', '__dirname', '__filename',
  'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask',
  'fetch', 'XMLHttpRequest', 'WebSocket',
]);

/** Objects through which the globals above can also be reached (`globalThis.process`). */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);

const NODE_BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '').split('/')[0]));

const SOURCE_FILE = /\.(ts|tsx|mts|cts)$/;

/** Every TypeScript file under `dir`, recursively, sorted. */
export function listSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSourceFiles(p));
    else if (entry.isFile() && SOURCE_FILE.test(entry.name)) out.push(p);
  }
  return out.sort();
}

/** The package name of a bare specifier: `@scope/name` or `name`. */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Why `spec`, imported from `fromFile`, is not allowed in the engine; undefined when it is fine. */
export function whyBanned(spec: string, fromFile: string, engineRoot: string): string | undefined {
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const target = path.resolve(path.dirname(fromFile), spec);
    const rel = path.relative(engineRoot, target);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
      return `resolves outside server/src/engine, to ${path.relative(path.resolve(engineRoot, '../../..'), target) || target}`;
    }
    return undefined;
  }
  if (spec === 'vscode' || spec.startsWith('vscode-') || spec.startsWith('@vscode/')) {
    return 'VS Code and LSP libraries belong to the client and server/src/lsp';
  }
  if (spec.startsWith('@kubernetes/')) return 'the cluster is reached by server/src/sources, never by the engine';
  if (spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0])) {
    return 'Node built-in module: no file system, network, process, timers or streams in the engine';
  }
  if (!ENGINE_ALLOWED_PACKAGES.has(packageName(spec))) {
    return 'a package resolves outside server/src/engine (node_modules); add it to ENGINE_ALLOWED_PACKAGES only if it is pure computation';
  }
  return undefined;
}

/** Checks one engine file. `file` must be an absolute path (it need not exist: `text` is what is checked). */
export function checkEngineSource(file: string, text: string, engineRoot: string): Violation[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const at = (pos: number) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(pos);
    return { line: line + 1, column: character + 1 };
  };
  const violations: Violation[] = [];
  const info = ts.preProcessFile(text, true, true);

  for (const ref of [...info.importedFiles, ...info.referencedFiles]) {
    const reason = whyBanned(ref.fileName, file, engineRoot);
    if (reason) violations.push({ file, ...at(ref.pos), kind: 'import', subject: ref.fileName, reason });
  }
  for (const ref of info.typeReferenceDirectives) {
    violations.push({ file, ...at(ref.pos), kind: 'import', subject: `/// <reference types="${ref.fileName}" />`,
      reason: 'type reference directives pull ambient (Node, DOM) declarations into the engine' });
  }
  for (const ref of info.libReferenceDirectives) {
    if (/^es(next|\d+)/i.test(ref.fileName)) continue;
    violations.push({ file, ...at(ref.pos), kind: 'import', subject: `/// <reference lib="${ref.fileName}" />`,
      reason: 'only ECMAScript libs: DOM and worker libs declare timers and network globals' });
  }

  const declared = declaredNames(sf);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (!arg || !ts.isStringLiteralLike(arg)) {
        violations.push({ file, ...at(node.getStart(sf)), kind: 'import', subject: node.getText(sf),
          reason: 'import() with a computed specifier cannot be checked' });
      }
    }
    if (ts.isIdentifier(node) && ENGINE_BANNED_GLOBALS.has(node.text) && !declared.has(node.text) && isGlobalReference(node)) {
      violations.push({ file, ...at(node.getStart(sf)), kind: 'global', subject: usage(node), reason: globalReason(node.text) });
    }
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && ts.isIdentifier(node.expression)
      && GLOBAL_OBJECTS.has(node.expression.text) && !declared.has(node.expression.text)) {
      const name = ts.isPropertyAccessExpression(node) ? node.name.text
        : ts.isStringLiteralLike(node.argumentExpression) ? node.argumentExpression.text : undefined;
      if (name === undefined || ENGINE_BANNED_GLOBALS.has(name)) {
        violations.push({ file, ...at(node.getStart(sf)), kind: 'global', subject: node.getText(sf),
          reason: name === undefined ? 'computed access to the global object cannot be checked' : globalReason(name) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return violations.sort((a, b) => a.line - b.line || a.column - b.column);
}

function scriptKind(file: string): ts.ScriptKind {
  return file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

function globalReason(name: string): string {
  if (name === 'process') return 'the engine reads no environment, arguments or process state: pass options in';
  if (/^(set|clear)(Timeout|Interval|Immediate)$|^queueMicrotask$/.test(name)) return 'timers: the engine runs synchronously on the simulated clock';
  if (name === 'fetch' || name === 'XMLHttpRequest' || name === 'WebSocket') return 'network: the engine gets objects, it does not fetch them';
  return 'module loading and file locations belong outside the engine';
}

/** `process.`, `setTimeout(`, or the bare name, as the global is used. */
function usage(node: ts.Identifier): string {
  const p = node.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === node) return `${node.text}${ts.isPropertyAccessExpression(p) ? '.' : '['}`;
  if (ts.isCallExpression(p) && p.expression === node) return `${node.text}(`;
  return node.text;
}

/** Whether an identifier names a variable (as opposed to a property, a member or a declaration's own name). */
function isGlobalReference(node: ts.Identifier): boolean {
  const p = node.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === node) return false;
  if (ts.isQualifiedName(p) && p.right === node) return false;
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodDeclaration(p)
    || ts.isMethodSignature(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p) || ts.isEnumMember(p))
    && p.name === node) return false;
  if ((ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && p.propertyName === node) return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return false;
  if (ts.isTypeReferenceNode(p)) return false; // a type named like the global (e.g. an interface `process`)
  return true;
}

/** Every name the file declares (variables, parameters, functions, classes, imports...): those shadow a global. */
function declaredNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const addBinding = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const el of name.elements) if (ts.isBindingElement(el)) addBinding(el.name);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) addBinding(node.name);
    else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isFunctionExpression(node)
      || ts.isClassExpression(node) || ts.isEnumDeclaration(node)) && node.name) names.add(node.name.text);
    else if (ts.isImportClause(node) && node.name) names.add(node.name.text);
    else if (ts.isNamespaceImport(node) || ts.isImportSpecifier(node) || ts.isImportEqualsDeclaration(node)) names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return names;
}

/** "server/src/engine/x.ts:3:1 imports 'fs': reason" — how a test failure names the file and the import. */
export function formatViolation(v: Violation, repoRoot: string): string {
  const where = `${path.relative(repoRoot, v.file).split(path.sep).join('/')}:${v.line}:${v.column}`;
  return v.kind === 'import' ? `${where} imports '${v.subject}': ${v.reason}` : `${where} uses the global \`${v.subject}\`: ${v.reason}`;
}
