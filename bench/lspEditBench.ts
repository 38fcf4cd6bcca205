// Edits of one big multi-document file (`npm run bench` runs it after the language server's report; alone:
// `node dist/lspEditBench.js`). A `helm template`-like stream of 1, 2 and 5 MB (bench/helmTemplate.ts) is opened
// in the built server (dist/server.js --stdio, no workspace folder: the open document is the workspace), and every
// figure is measured at the client:
//   - open + first hover: didOpen, then a hover, until the hover's answer (the file read for the first time);
//   - N one-character edits + hover: a burst of didChange (one character typed each), then a hover, until its answer
//     (goal: under half the open's time);
//   - edit → diagnostics: one character of an owner reference's uid changed (the finding appears) or put back (it
//     goes), until the diagnostics say so: median and p95 (goal p95 ≤ 20 ms up to 1 MB).
// A report, not a test: it prints figures and exits 0 whether goals are met or not (2 if something throws).
// Options: --sizes=1,2,5 (MB) --timeout=S (per step; a step that takes longer is reported as unanswered)
// --diagnostic-edits=N (per size).

import { join } from 'node:path';
import { HoverRequest, type Diagnostic } from 'vscode-languageserver-protocol';
import { ms, out, pct } from './lspFigures';
import { LspSession } from '../testkit/lsp/lspSession';
import { helmStream } from './helmTemplate';

const GOAL_EDIT_P95_MS = 20;
/** Up to this size the edit → diagnostics goal applies; larger files are recorded. */
const GOAL_EDIT_UP_TO_MB = 1;
const GOAL_EDITS_SHARE_OF_OPEN = 0.5;

interface Options {
  sizes: number[];
  timeoutS: number;
  diagnosticEdits: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sizes: [1, 2, 5], timeoutS: 300, diagnosticEdits: 60 };
  for (const a of argv) {
    const m = /^--([a-z-]+)=([\d.,]+)$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a} (options: --sizes=1,2,5 --timeout=S --diagnostic-edits=N)`);
    if (m[1] === 'sizes') o.sizes = m[2].split(',').map(Number);
    else if (m[1] === 'timeout') o.timeoutS = Number(m[2]);
    else if (m[1] === 'diagnostic-edits') o.diagnosticEdits = Number(m[2]);
    else throw new Error(`unknown option --${m[1]}`);
  }
  return o;
}

/** Resolves with the promise's value, or undefined after `seconds`. */
async function within<T>(seconds: number, p: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), seconds * 1000)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Row {
  figure: string;
  value: string;
  goal: string;
  result: 'PASS' | 'MISS' | 'info';
}

async function measure(mb: number, opts: Options, rows: Row[]): Promise<void> {
  const stream = helmStream(mb * 1024 * 1024);
  const label = `${mb} MB, ${stream.documents.toLocaleString('en-US')} documents`;
  out(`Language server, one ${label} (built server over stdio)`);
  const session = new LspSession({ serverPath: join(__dirname, 'server.js'), transport: 'stdio' });
  const uri = `file:///bench/helm-${mb}mb.yaml`;
  const hover = () =>
    session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: stream.nameAt }) as Promise<unknown>;
  try {
    await session.initialize();
    const t = performance.now();
    await session.open(uri, stream.text);
    const first = await within(opts.timeoutS, hover());
    const openMs = performance.now() - t;
    if (!first) throw new Error(first === undefined ? `no hover within ${opts.timeoutS} s of the open` : 'no hover on the owner');
    out(`  open + first hover                ${ms(openMs)}`);

    // A burst: one character typed at a time in a ConfigMap's data value, then a hover.
    const burst = async (edits: number): Promise<number | undefined> => {
      const start = performance.now();
      for (let i = 0; i < edits; i++) {
        const at = { line: stream.dataAt.line, character: stream.dataAt.character + i };
        await session.edit(uri, { start: at, end: at }, 'x');
      }
      const answer = await within(opts.timeoutS, hover());
      const took = performance.now() - start;
      // Put the text back in one edit, answered before the next step.
      const from = stream.dataAt;
      await session.edit(uri, { start: from, end: { line: from.line, character: from.character + edits } }, '');
      await within(opts.timeoutS, hover());
      return answer === undefined ? undefined : took;
    };
    const edits = mb >= 5 ? [1, 10, 200] : [1, 10];
    let stalled = false;
    for (const n of edits) {
      if (stalled) break;
      const took = await burst(n);
      stalled = took === undefined;
      const figure = `${label}: ${n} one-character edit${n > 1 ? 's' : ''} + hover`;
      const value = took === undefined ? `no answer within ${opts.timeoutS} s` : ms(took);
      out(`  ${`${n} one-character edit${n > 1 ? 's' : ''} + hover`.padEnd(34)}${value}`);
      if (n === 10 || n === 200) {
        const share = took === undefined ? undefined : took / openMs;
        rows.push({
          figure,
          value: took === undefined ? value : `${value} (${(share! * 100).toFixed(0)}% of the open's ${ms(openMs)})`,
          goal: `< ${GOAL_EDITS_SHARE_OF_OPEN * 100}% of the open`,
          result: share !== undefined && share < GOAL_EDITS_SHARE_OF_OPEN ? 'PASS' : 'MISS',
        });
      }
    }
    rows.push({ figure: `${label}: open + first hover`, value: ms(openMs), goal: '—', result: 'info' });

    // Edit → diagnostics: the uid's last character changed, then put back, alternately.
    const times: number[] = [];
    let answered = true;
    for (let i = 0; i < (stalled ? 0 : opts.diagnosticEdits) && answered; i++) {
      const broken = i % 2 === 0;
      const at = stream.uidAt;
      const a = performance.now();
      session.diagnostics.delete(uri);
      await session.edit(uri, { start: at, end: { line: at.line, character: at.character + 1 } }, broken ? 'f' : stream.uidChar);
      const wanted = (d: Diagnostic[]) => d.some((x) => x.code === 'owner-uid-mismatch') === broken;
      answered =
        (await within(
          opts.timeoutS,
          session.diagnosticsFor(uri, wanted).then(() => true),
        )) === true;
      if (answered) times.push(performance.now() - a);
    }
    const p95 = times.length ? pct(times, 95) : Infinity;
    const value = stalled
      ? 'not measured (the server did not answer an edit burst)'
      : answered
        ? `median ${ms(pct(times, 50))}, p95 ${ms(p95)} (${times.length} edits)`
        : `no diagnostics within ${opts.timeoutS} s (after ${times.length} edits)`;
    out(`  edit → diagnostics                ${value}`);
    rows.push({
      figure: `${label}: edit → diagnostics p95`,
      value: answered && !stalled ? ms(p95) : value,
      goal: mb <= GOAL_EDIT_UP_TO_MB ? `≤ ${GOAL_EDIT_P95_MS} ms` : '—',
      result: mb <= GOAL_EDIT_UP_TO_MB ? (answered && !stalled && p95 <= GOAL_EDIT_P95_MS ? 'PASS' : 'MISS') : 'info',
    });
    const rss = session.peakRssBytes();
    if (rss) {
      out(`  server peak RSS                   ${(rss / 2 ** 20).toFixed(0)} MB`);
      rows.push({ figure: `${label}: server peak RSS`, value: `${(rss / 2 ** 20).toFixed(0)} MB`, goal: '—', result: 'info' });
    }
    out();
  } finally {
    await session.dispose();
  }
}

async function run(opts: Options): Promise<void> {
  const rows: Row[] = [];
  for (const mb of opts.sizes) await measure(mb, opts, rows);
  out('Summary (edits of one big file)');
  const width = Math.max(...rows.map((r) => r.figure.length));
  for (const r of rows) out(`  ${r.figure.padEnd(width)}  ${r.value}  goal ${r.goal}  ${r.result}`);
}

run(parseArgs(process.argv.slice(2))).then(
  () => {
    process.exitCode = 0;
  },
  (e: unknown) => {
    out(`lsp edit bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 2;
  },
);
