// The language server's performance report (`npm run bench` runs it after the engine report; alone:
// `node dist/lspBench.js`). A generated 10,000-object cluster is spread over YAML files (10 documents per file,
// grouped by namespace) in a temporary workspace; the built server (dist/server.js --stdio) is driven as an
// editor drives it, and every figure is measured at the client, so it includes JSON-RPC and the pipe:
//   - time to first complete diagnostics (initialize → status "ready" with every document published),
//   - diagnostics after a one-line edit (a uid typed wrong, then fixed): median and p95 (goal p95 ≤ 20 ms),
//   - hover on an ownerReference: p95 (goal ≤ 5 ms),
//   - code lens resolve: p95,
//   - the server's peak RSS.
// A report, not a test: it prints figures and exits 0 whether goals are met or not (2 if something throws).
// Options: --objects=N --per-file=N --edits=N --hovers=N; --folder=PATH opens that folder instead of a generated one
// (the must-gather: --folder=../shared/corpus/cluster-dumps/openshift-must-gather-aws; its first file with an
// ownerReference is the one edited); --cold-only stops after the first complete diagnostics.

import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CodeLensRequest, CodeLensResolveRequest, HoverRequest, type CodeLens, type Diagnostic } from 'vscode-languageserver-protocol';
import { generatedCluster, writeYamlWorkspace } from './yamlWorkspace';
import { ms, out, pct } from './lspFigures';
import { LspSession, uriOf } from '../testkit/lsp/lspSession';

const GOAL_EDIT_P95_MS = 20;
const GOAL_HOVER_P95_MS = 5;

interface Options {
  objects: number;
  perFile: number;
  edits: number;
  hovers: number;
  folder?: string;
  coldOnly: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { objects: 10_000, perFile: 10, edits: 200, hovers: 500, coldOnly: false };
  for (const a of argv) {
    if (a === '--cold-only') {
      o.coldOnly = true;
      continue;
    }
    if (a.startsWith('--folder=')) {
      o.folder = resolve(a.slice('--folder='.length));
      continue;
    }
    const m = /^--([a-z-]+)=(\d+)$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a} (options: --objects=N --per-file=N --edits=N --hovers=N --folder=PATH --cold-only)`);
    const n = Number(m[2]);
    if (m[1] === 'objects') o.objects = n;
    else if (m[1] === 'per-file') o.perFile = n;
    else if (m[1] === 'edits') o.edits = n;
    else if (m[1] === 'hovers') o.hovers = n;
    else throw new Error(`unknown option --${m[1]}`);
  }
  return o;
}

/** The first YAML file (sorted) of a folder with an ownerReference's uid. */
function firstFileWithOwner(dir: string): string | undefined {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    const found = statSync(p).isDirectory()
      ? firstFileWithOwner(p)
      : /\.ya?ml$/.test(e) && /^\s*ownerReferences:\s*\n(\s*-?\s*\w+:.*\n)*?\s*-?\s*uid: /m.test(readFileSync(p, 'utf8'))
        ? p
        : undefined;
    if (found) return found;
  }
  return undefined;
}

async function run(opts: Options): Promise<void> {
  const folder = opts.folder;
  out(
    folder
      ? `Language server: the folder ${folder}, built server over stdio`
      : `Language server: ${opts.objects.toLocaleString('en-US')} objects, ${opts.perFile} documents per YAML file, built server over stdio`,
  );
  const { dir, podFile } = folder
    ? { dir: folder, podFile: firstFileWithOwner(folder) ?? '' }
    : writeYamlWorkspace(generatedCluster(opts.objects), opts.perFile);
  const session = new LspSession({ folder: dir, serverPath: join(__dirname, 'server.js') });
  try {
    const t0 = performance.now();
    await session.initialize();
    const firstMs = performance.now() - t0;
    const files = session.status?.files ?? 0;
    out(
      `  first complete diagnostics        ${ms(firstMs)}  (${files.toLocaleString('en-US')} files, ${session.status?.objects.toLocaleString('en-US')} objects, ${session.status?.findings} findings)`,
    );
    if (opts.coldOnly) return;
    if (!podFile) throw new Error('no file with an ownerReference to edit');

    // One-line edits on an open document: break an owner uid (the owner then exists with another uid), then fix it, alternately.
    const uri = uriOf(podFile);
    const text = readFileSync(podFile, 'utf8');
    await session.open(uri, text); // consistent: no findings, so nothing is published for it yet
    const lines = text.split('\n');
    // The uid inside the first ownerReferences block (deeper than the key), not the object's own metadata.uid.
    const refsAt = lines.findIndex((l) => /^\s*ownerReferences:/.test(l));
    const refsIndent = refsAt < 0 ? 0 : lines[refsAt].search(/\S/);
    const uidLine = refsAt < 0 ? -1 : lines.findIndex((l, i) => i > refsAt && /^\s*uid: /.test(l) && l.search(/\S/) > refsIndent);
    if (uidLine < 0) throw new Error('no ownerReference uid in the Pod file');
    const original = lines[uidLine];
    const col = original.indexOf('uid: ') + 5;
    const editTimes: number[] = [];
    for (let i = 0; i < opts.edits; i++) {
      const broken = i % 2 === 0;
      const value = broken ? '00000000-0000-0000-0000-000000000000' : original.slice(col);
      const wanted = (d: Diagnostic[]) => d.some((x) => x.code === 'owner-uid-mismatch') === broken;
      const a = performance.now();
      await session.edit(
        uri,
        { start: { line: uidLine, character: col }, end: { line: uidLine, character: lines[uidLine].length } },
        value,
      );
      lines[uidLine] = original.slice(0, col) + value;
      session.diagnostics.delete(uri);
      await session.diagnosticsFor(uri, wanted);
      editTimes.push(performance.now() - a);
    }
    out(
      `  diagnostics after a one-line edit median ${ms(pct(editTimes, 50))}, p95 ${ms(pct(editTimes, 95))}  (goal p95 ≤ ${GOAL_EDIT_P95_MS} ms; ${opts.edits} edits)`,
    );

    const hoverTimes: number[] = [];
    for (let i = 0; i < opts.hovers; i++) {
      const a = performance.now();
      const h = await session.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: { line: uidLine, character: col + 2 },
      });
      hoverTimes.push(performance.now() - a);
      if (!h) throw new Error('no hover on an ownerReference uid');
    }
    out(
      `  hover on an ownerReference        median ${ms(pct(hoverTimes, 50))}, p95 ${ms(pct(hoverTimes, 95))}  (goal p95 ≤ ${GOAL_HOVER_P95_MS} ms; ${opts.hovers} hovers)`,
    );

    const lenses = (await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    const resolveTimes: number[] = [];
    for (let r = 0; r < 20; r++) {
      for (const lens of lenses) {
        if (lens.command) continue;
        const a = performance.now();
        const resolved: CodeLens = await session.connection.sendRequest(CodeLensResolveRequest.type, lens);
        resolveTimes.push(performance.now() - a);
        if (!resolved.command) throw new Error('a resolved code lens has no command');
      }
    }
    if (resolveTimes.length)
      out(
        `  code lens resolve                 median ${ms(pct(resolveTimes, 50))}, p95 ${ms(pct(resolveTimes, 95))}  (${resolveTimes.length} resolves)`,
      );
    const rss = session.peakRssBytes();
    if (rss) out(`  server peak RSS                   ${(rss / 2 ** 20).toFixed(0)} MB`);
    out();
    out('Summary (language server)');
    out(
      `  edit → diagnostics p95  ${ms(pct(editTimes, 95))}  goal ≤ ${GOAL_EDIT_P95_MS} ms  ${pct(editTimes, 95) <= GOAL_EDIT_P95_MS ? 'PASS' : 'MISS'}`,
    );
    out(
      `  hover p95               ${ms(pct(hoverTimes, 95))}  goal ≤ ${GOAL_HOVER_P95_MS} ms  ${pct(hoverTimes, 95) <= GOAL_HOVER_P95_MS ? 'PASS' : 'MISS'}`,
    );
  } finally {
    await session.dispose();
    if (!folder) rmSync(dir, { recursive: true, force: true });
  }
}

run(parseArgs(process.argv.slice(2))).then(
  () => {
    process.exitCode = 0;
  },
  (e: unknown) => {
    out(`lsp bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 2;
  },
);
