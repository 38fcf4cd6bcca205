// The built language server in another real editor: headless Neovim (Debian's `neovim` package) with only its
// built-in LSP client (test/editors/nvim/init.lua) opens the export of examples/deployment-export-from-another-cluster
// and sees the same diagnostics the stdio tests (test/lsp/server.test.ts) and the CLI report, hovers an
// ownerReference, and fixes the stale uid with an edit sent through incremental sync. Nothing of VS Code is involved.
// Skipped only when `nvim` is not on PATH (.ci/run installs it).

import { spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SERVER = path.join(ROOT, 'dist/server.js');
const INIT = path.join(__dirname, 'nvim/init.lua');
const EXAMPLE = path.join(ROOT, 'examples/deployment-export-from-another-cluster');

const STALE_UID = 'a476c896-f15e-4804-80d1-e7649d8b63f5';
const DEPLOYMENT_UID = '64b1c1b1-59ad-4af3-a756-871bd6965119';
/** vim.diagnostic.severity.ERROR */
const ERROR = 1;

/** The `nvim` executable on PATH, if any. */
function findNvim(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'nvim');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const NVIM = findNvim();
const SKIP_REASON = 'skipped: `nvim` is not on PATH (apt-get install neovim; .ci/run installs it)';

interface NvimDiagnostic {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  code: string;
  severity: number;
  source: string;
  message: string;
}

/** What init.lua writes to $KGL_OUT. */
interface NvimResult {
  nvim: string;
  api: string;
  logPath: string;
  steps: { name: string; ms: number }[];
  failedStep?: string;
  error?: string;
  filetype?: string;
  textDocumentSync?: { openClose?: boolean; change?: number } | number | null;
  diagnostics?: NvimDiagnostic[];
  hoverKind?: string | null;
  hover?: string | null;
  textBeforeEdit?: string;
  lineAfterEdit?: string;
  diagnosticsAfterEdit?: NvimDiagnostic[];
  diagnosticsAtFailure?: NvimDiagnostic[];
  totalMs: number;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  result?: NvimResult;
  log: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the init.lua scenario in headless Neovim; resolves when Neovim exits (or is killed after `deadlineMs`). */
function runNeovim(scenario: Record<string, unknown>, deadlineMs: number): Promise<Run> {
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), 'kube-gc-nvim-')));
  dirs.push(tmp);
  const workspace = path.join(tmp, 'workspace');
  cpSync(EXAMPLE, workspace, { recursive: true });
  const xdg = path.join(tmp, 'xdg');
  for (const d of ['cache', 'state', 'data', 'config']) mkdirSync(path.join(xdg, d), { recursive: true });
  const out = path.join(tmp, 'result.json');
  const env = {
    ...process.env,
    // `node` in the client's cmd is the Node running the tests.
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    // Keep Neovim's files (lsp.log among them) in the temp folder.
    XDG_CACHE_HOME: path.join(xdg, 'cache'),
    XDG_STATE_HOME: path.join(xdg, 'state'),
    XDG_DATA_HOME: path.join(xdg, 'data'),
    XDG_CONFIG_HOME: path.join(xdg, 'config'),
    KGL_OUT: out,
    KGL_SCENARIO: JSON.stringify({ server: SERVER, workspace, ...scenario }),
  };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const proc = spawn(NVIM!, ['--headless', '--clean', '-n', '-u', INIT], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => {
      stdout += String(d);
    });
    proc.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), deadlineMs);
    proc.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as NvimResult) : undefined;
      const logPath = result?.logPath && existsSync(result.logPath) ? result.logPath : findFile(xdg, 'lsp.log');
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, result, log: logPath ? readFileSync(logPath, 'utf8') : '' });
    });
  });
}

function findFile(dir: string, name: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (found) return found;
    }
  }
  return undefined;
}

/** Everything needed to understand a failure without re-running: the result, Neovim's output, the LSP log's tail. */
function report(run: Run): string {
  const tail = run.log
    .split('\n')
    .slice(-80)
    .map((l) => (l.length > 600 ? `${l.slice(0, 600)}…` : l))
    .join('\n');
  return [
    `nvim exited with ${run.signal ?? run.code} after ${run.ms} ms`,
    `result: ${run.result ? JSON.stringify(run.result, null, 2) : '(none written)'}`,
    `nvim stdout: ${run.stdout || '(empty)'}`,
    `nvim stderr: ${run.stderr || '(empty)'}`,
    `lsp.log (last 80 lines):\n${tail || '(empty)'}`,
  ].join('\n');
}

const at = (d: NvimDiagnostic) => `${d.code}@${d.lnum + 1}:${d.col + 1}`;

if (!NVIM) console.warn(`test/editors/neovim.test.ts ${SKIP_REASON}`);

describe("Neovim's built-in LSP client", () => {
  it('gets the same diagnostics, a hover on the ownerReference and incremental edits from kube-gc-lens-server', async (ctx) => {
    if (!NVIM) ctx.skip(SKIP_REASON);
    const run = await runNeovim(
      {
        file: 'checkout-export.yaml',
        timeoutMs: 15_000,
        expect: { count: 2 },
        // checkout-export.yaml:111:12, the ReplicaSet's ownerReferences[0].uid (0-based here).
        hover: { line: 110, character: 11 },
        edit: {
          line: 110,
          startCol: 11,
          endCol: 11 + STALE_UID.length,
          before: STALE_UID,
          text: DEPLOYMENT_UID,
          goneCode: 'owner-uid-mismatch',
          count: 1,
        },
      },
      45_000,
    );
    const r = run.result;
    const why = report(run);
    expect(r?.error, why).toBeUndefined();
    expect(run.code, why).toBe(0);
    expect(
      r!.steps.map((s) => s.name),
      why,
    ).toEqual(['open', 'initialize', 'diagnostics', 'hover', 'edit', 'shutdown']);
    expect(r!.filetype).toBe('yaml');

    // The same findings, at the same places, as test/lsp/server.test.ts and examples/README.md (1-based there;
    // Neovim's lnum/col are 0-based).
    expect(r!.diagnostics!.map(at), why).toEqual(['owner-uid-mismatch@111:12', 'dangling-owner@584:12']);
    expect(r!.diagnostics!.map((d) => [d.lnum, d.col])).toEqual([
      [110, 11],
      [583, 11],
    ]);
    expect(r!.diagnostics!.map((d) => [d.end_lnum, d.end_col])).toEqual([
      [110, 11 + 36],
      [583, 11 + 36],
    ]);
    for (const d of r!.diagnostics!) {
      expect(d.severity, why).toBe(ERROR);
      expect(d.source, why).toBe('kube-gc-lens');
    }
    const [mismatch, dangling] = r!.diagnostics!;
    expect(mismatch.message).toContain(STALE_UID);
    expect(mismatch.message).toContain(DEPLOYMENT_UID);
    expect(dangling.message).toContain('checkout-5b8c9d7f4');

    // Hover on the stale uid: the owner the reference names, and the Deployment that really exists, with its uid
    // and where it is defined (the server escapes Markdown punctuation, `/` included).
    expect(r!.hoverKind, why).toBe('markdown');
    expect(r!.hover, why).toMatch(/\*\*Owner:\*\* Deployment storefront\\?\/checkout/);
    expect(r!.hover, why).toContain(`\`${STALE_UID}\``);
    expect(r!.hover, why).toMatch(new RegExp(`Deployment storefront\\\\?/checkout exists with another uid, \`${DEPLOYMENT_UID}\``));
    expect(r!.hover, why).toContain('checkout-export.yaml#L17');

    // The edit went out as an incremental change (the server asks for it; Neovim sends a range) and the server
    // re-analysed: only the dangling owner is left.
    expect(r!.textDocumentSync).toMatchObject({ change: 2 });
    expect(r!.textBeforeEdit).toBe(STALE_UID);
    expect(r!.lineAfterEdit).toBe(`      uid: ${DEPLOYMENT_UID}`);
    const didChanges = run.log.split('\n').filter((l) => l.includes('textDocument/didChange'));
    expect(didChanges.length, why).toBeGreaterThan(0);
    expect(
      didChanges.every((l) => /range\s*=/.test(l)),
      why,
    ).toBe(true);
    expect(r!.diagnosticsAfterEdit!.map(at), why).toEqual(['dangling-owner@584:12']);

    // Nothing but LSP on the server's stdout: Neovim logs anything it cannot read (INVALID_SERVER_JSON,
    // INVALID_SERVER_MESSAGE, …) as an `on_error` of the client.
    expect(run.log, why).not.toMatch(/on_error|INVALID_SERVER/);
    console.log(
      `Neovim ${r!.nvim} (${r!.api}): ${r!.steps.map((s) => `${s.name} ${s.ms} ms`).join(', ')}; nvim total ${r!.totalMs} ms, process ${run.ms} ms`,
    );
  }, 60_000);
});
