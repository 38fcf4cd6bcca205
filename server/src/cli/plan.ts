// `--plan FILE`: a sequence of requests, each applied after the previous one settles, or all back to back (R63) with
// `"arrival": "back-to-back"`. A plan may also say who acts and which version's behaviour to follow, as
// --controllers and --kube-version do. Its shape is the wire module's plan schema (shared/src/wire/planSchema.ts, the
// editor's kubeGcLens/simulateRequests checks its entries with the same words); this reads the file's YAML or JSON
// into a value that schema can check, bounded first (size, nesting, aliases) and with duplicate keys refused, and
// locates every refusal at the file's line and column (a usage error: exit 2).

import { LineCounter, isAlias, isNode, isPair, isScalar, isSeq, parseDocument, visit, type Document } from 'yaml';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  PLAN_ARRIVALS,
  planPathText,
  planProblemText,
  readPlanDocument,
  type PlanDocument,
  type PlanPath,
} from '../../../shared/src/protocol';
import { UsageError } from './args';
import { InputError } from './input';
import { parseControllers } from '../engine/simulation/controllerSet';
import { parseKubeVersion } from '../engine/simulation/kubeVersion';
import { findTooDeep } from '../sources/manifests/yamlDepth';
import { MAX_YAML_DEPTH } from '../sources/manifests/parseManifest';

export const ARRIVALS = PLAN_ARRIVALS;
/** A plan holds at most 100 requests; this leaves room for comments and long names, and bounds what is parsed. */
export const MAX_PLAN_BYTES = 4 * 1024 * 1024;
/** The `yaml` package's bound on alias expansion (its default): a plan has no need of more. */
export const MAX_PLAN_ALIASES = 100;

export type Plan = PlanDocument;

/** The plan file's text, at most MAX_PLAN_BYTES read (a pipe, as `--plan <(…)` gives, is read until it ends). */
export function readPlanText(file: string): string {
  const cannot = (why: string) => new InputError(`error: cannot read plan ${file}: ${why}`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw cannot((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  try {
    const st = fstatSync(fd);
    const tooLarge = () => cannot(`it is larger than the ${MAX_PLAN_BYTES / 2 ** 20} MB limit of a plan`);
    if (st.isDirectory()) throw cannot('it is a folder');
    if (st.isFile() && st.size > MAX_PLAN_BYTES) throw tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_PLAN_BYTES) throw tooLarge();
      chunks.push(buf.subarray(0, n));
    }
    return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks, total));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw cannot((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  } finally {
    closeSync(fd);
  }
}

export function parsePlan(text: string, file: string): Plan {
  // The `yaml` package recurses once per level: 100,000 `[` would overflow the stack before it said anything.
  const deepAt = findTooDeep(text, 0, text.length, MAX_YAML_DEPTH);
  if (deepAt >= 0)
    throw new UsageError(
      `${file}:${positionText(text, deepAt)}: the plan is nested more than ${MAX_YAML_DEPTH} levels deep, so it was not read (a plan needs 4)`,
    );
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return `${file}:${pos.line}:${pos.col}`;
  };
  if (doc.errors.length) {
    const e = doc.errors[0];
    if (e.code === 'DUPLICATE_KEY')
      throw new UsageError(
        `${at(e.pos[0])}: ${duplicateKeyText(doc, e.pos[0])} is given twice: which value is meant cannot be told, so the plan is refused`,
      );
    if (e.code === 'MULTIPLE_DOCS')
      throw new UsageError(`${at(e.pos[0])}: a plan is one YAML document; a second one starts here, so the plan is refused`);
    throw new UsageError(`${at(e.pos[0])}: the plan is not valid YAML or JSON: ${e.message.split('\n')[0]}`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_PLAN_ALIASES });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    const alias = firstAlias(doc);
    throw new UsageError(
      `${alias !== undefined ? at(alias) : file}: the plan's aliases expand too far (more than ${MAX_PLAN_ALIASES} aliased values: an alias bomb), so it was not read`,
    );
  }
  const read = readPlanDocument(data, {
    controllers: (v) => {
      const parsed = parseControllers(v);
      return 'error' in parsed ? parsed.error : undefined;
    },
    kubeVersion: (v) => parseKubeVersion(v) !== undefined,
  });
  if ('problem' in read) throw new UsageError(`${locate(doc, lineCounter, file, read.problem.path)}: ${planProblemText(read.problem)}`);
  return read.plan;
}

/** `line:col` of an offset, without a parse (the nesting is refused before one). */
function positionText(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `${line}:${offset - lineStart + 1}`;
}

/** The path of the key written at `offset` ("requests[0].verb"), or the key alone when it cannot be followed. */
function duplicateKeyText(doc: Document, offset: number): string {
  let text: string | undefined;
  visit(doc, {
    Pair(_, pair, ancestors) {
      if (!isNode(pair.key) || pair.key.range?.[0] !== offset) return undefined;
      const path: PlanPath = [];
      const chain = [...ancestors, pair];
      chain.forEach((node, i) => {
        if (isPair(node)) path.push(isScalar(node.key) ? String(node.key.value) : '?');
        else if (isSeq(node) && chain[i + 1]) path.push(node.items.indexOf(chain[i + 1] as never));
      });
      text = planPathText(path);
      return visit.BREAK;
    },
  });
  return text ?? 'a key';
}

function firstAlias(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_, node) {
      if (isAlias(node) && node.range) offset = node.range[0];
      return visit.BREAK;
    },
  });
  return offset;
}

/** `file:line:col` of the deepest node of `path` the document holds (a missing field: its entry). */
function locate(doc: Document, lineCounter: LineCounter, file: string, path: PlanPath): string {
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = lineCounter.linePos(node.range[0]);
      return `${file}:${pos.line}:${pos.col}`;
    }
  }
  return file;
}
