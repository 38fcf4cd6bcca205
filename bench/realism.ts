// The live-cluster benchmark's realism check: per kind, how many bytes an object takes in a full LIST and in a
// metadata-only one (PartialObjectMetadataList), in the generated cluster and in REAL cluster dumps
// (../shared/corpus/cluster-dumps, read where it is: nothing of it is copied into the repository). The ratio of the two
// is what a metadata-only path can save at best, kind by kind.
//
// A real apiserver sends metadata.managedFields in both forms. Dumps taken through the API keep them (sonobuoy's);
// dumps made by kubectl or must-gather had them removed by the tool. Both are counted as they are, managedFields
// included where present (in both forms), and the dumps that have them are also shown on their own.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { int, out, table, type Row } from './report';

type J = Record<string, unknown>;

/** Sizes of one kind's objects, as items of a full LIST and of a metadata-only LIST (bytes, UTF-8). */
export class KindSizes {
  full: number[] = [];
  metadata: number[] = [];
  /** The same, for the objects that carry managedFields. */
  managedFull: number[] = [];
  managedMetadata: number[] = [];
  managedFields: number[] = [];
  /** Every object without its managedFields (as a dump made by kubectl shows it). */
  strippedFull: number[] = [];
  strippedMetadata: number[] = [];
  /** Bytes of `status` (0 where there is none): what the kubelet and controllers write. */
  status: number[] = [];
  readonly sources = new Set<string>();

  add(o: J, source?: string): void {
    const sizes = (x: J) => {
      const { apiVersion: _a, kind: _k, ...item } = x;
      return [
        Buffer.byteLength(JSON.stringify(item)),
        Buffer.byteLength(JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: x.metadata })),
      ];
    };
    const [full, metadata] = sizes(o);
    this.full.push(full);
    this.metadata.push(metadata);
    this.status.push(o.status === undefined ? 0 : Buffer.byteLength(JSON.stringify(o.status)));
    const meta = o.metadata as J | undefined;
    const mf = meta?.managedFields;
    if (meta && Array.isArray(mf) && mf.length) {
      this.managedFull.push(full);
      this.managedMetadata.push(metadata);
      this.managedFields.push(Buffer.byteLength(JSON.stringify(mf)));
      const { managedFields: _mf, ...rest } = meta;
      const [f, m] = sizes({ ...o, metadata: rest });
      this.strippedFull.push(f);
      this.strippedMetadata.push(m);
    } else {
      this.strippedFull.push(full);
      this.strippedMetadata.push(metadata);
    }
    if (source) this.sources.add(source);
  }

  get n(): number {
    return this.full.length;
  }

  /**
   * Metadata bytes ÷ full bytes over the objects (a sum, so big objects weigh what they weigh on the wire): all of them
   * as they are, those that carry managedFields, or all of them without managedFields.
   */
  ratio(which: 'as-is' | 'managed' | 'stripped' = 'as-is'): number {
    const [m, f] =
      which === 'managed'
        ? [this.managedMetadata, this.managedFull]
        : which === 'stripped'
          ? [this.strippedMetadata, this.strippedFull]
          : [this.metadata, this.full];
    return sum(m) / sum(f);
  }
}

export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
export const median = (xs: number[]): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function sizesByKind(objects: Iterable<J>): Map<string, KindSizes> {
  const out = new Map<string, KindSizes>();
  for (const o of objects) {
    const kind = String(o.kind);
    let s = out.get(kind);
    if (!s) out.set(kind, (s = new KindSizes()));
    s.add(o);
  }
  return out;
}

/** The corpus folder next to the repository (../shared/corpus/cluster-dumps), if it is there. */
export function dumpsFolder(from: string): string | undefined {
  for (let dir = from; ; dir = join(dir, '..')) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bench'))) {
      const dumps = join(dir, '..', 'shared', 'corpus', 'cluster-dumps');
      return existsSync(dumps) ? dumps : undefined;
    }
    if (join(dir, '..') === dir) return undefined;
  }
}

export interface RealSizes {
  byKind: Map<string, KindSizes>;
  files: number;
  objects: number;
}

/**
 * Every object with a metadata.uid (an object as a server returned it) in the dumps, once per uid (some result sets
 * repeat a cluster), from JSON and YAML files: single objects, `*List`s (whose items may lack their kind) and arrays.
 */
export function readDumps(dir: string): RealSizes {
  const byKind = new Map<string, KindSizes>();
  const seen = new Set<string>();
  let files = 0;
  const visit = (v: unknown, source: string, listKind?: string, listApiVersion?: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) visit(x, source, listKind, listApiVersion);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as J;
    if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items)) {
      for (const x of o.items) visit(x, source, o.kind.slice(0, -'List'.length), o.apiVersion);
      return;
    }
    const kind = typeof o.kind === 'string' ? o.kind : listKind;
    const uid = (o.metadata as J | undefined)?.uid;
    if (!kind || typeof uid !== 'string' || seen.has(uid)) return;
    seen.add(uid);
    let s = byKind.get(kind);
    if (!s) byKind.set(kind, (s = new KindSizes()));
    s.add(typeof o.kind === 'string' ? o : { apiVersion: listApiVersion, kind, ...o }, source);
  };
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        walk(p);
        continue;
      }
      if (!/\.(json|ya?ml)$/.test(name)) continue;
      const source = relative(dir, p).split(/[\\/]/)[0];
      try {
        const text = readFileSync(p, 'utf8');
        if (name.endsWith('.json')) visit(JSON.parse(text), source);
        else for (const doc of parseAllDocuments(text, { uniqueKeys: false })) visit(doc.toJS({ maxAliasCount: -1 }), source);
        files++;
      } catch {
        // not a dump: skip it
      }
    }
  };
  walk(dir);
  let objects = 0;
  for (const s of byKind.values()) objects += s.n;
  return { byKind, files, objects };
}

/** One kind's sizes, as the realism check prints them (see bench/realism.ts). */
export interface SizeSummary {
  n: number;
  /** Medians, bytes: as an item of a full LIST, of a metadata-only LIST, and of the managedFields alone (where any). */
  full: number;
  metadata: number;
  managedFields: number;
  /** Metadata bytes ÷ full bytes, summed over the objects; over those that carry managedFields; over all without them. */
  ratio: number;
  managedRatio: number;
  strippedRatio: number;
  /** Median full size without managedFields. */
  strippedFull: number;
  nManaged: number;
  fullBytes: number;
  metadataBytes: number;
  strippedFullBytes: number;
  strippedMetadataBytes: number;
  /** Median status bytes, and status bytes ÷ full bytes without managedFields (a ratio of sums). */
  status: number;
  statusShare: number;
  sources: string[];
}

/** The generated (or served) sizes per kind, and the real dumps' where they are. */
export interface Sizes {
  generated: Record<string, SizeSummary>;
  real?: { dir: string; files: number; objects: number; byKind: Record<string, SizeSummary> };
}

export function summarize(sizes: Map<string, KindSizes>): Record<string, SizeSummary> {
  const out: Record<string, SizeSummary> = {};
  for (const [kind, k] of sizes) {
    out[kind] = {
      n: k.n,
      full: median(k.full),
      metadata: median(k.metadata),
      managedFields: median(k.managedFields),
      ratio: k.ratio(),
      managedRatio: k.managedFull.length ? k.ratio('managed') : NaN,
      strippedRatio: k.ratio('stripped'),
      strippedFull: median(k.strippedFull),
      nManaged: k.managedFull.length,
      fullBytes: sum(k.full),
      metadataBytes: sum(k.metadata),
      strippedFullBytes: sum(k.strippedFull),
      strippedMetadataBytes: sum(k.strippedMetadata),
      status: median(k.status),
      statusShare: sum(k.status) / sum(k.strippedFull),
      sources: [...k.sources].sort(),
    };
  }
  return out;
}

// The check as the benches print it

const kb = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)} KB` : '—');
const ratio = (r: number): string => (Number.isFinite(r) ? r.toFixed(3) : '—');
const share = (k: SizeSummary): string => `${kb(k.status)}, ${Math.round(k.statusShare * 100)} %`;

/**
 * Per kind (the generated cluster's largest by bytes): the metadata-only share of the bytes, generated beside real
 * dumps, as dumped (managedFields in both forms where the dump kept them) and in the dumps that kept them; then the
 * real per-kind shares weighted by the generated cluster's bytes per kind, comparable with the generated share.
 * `what` says what the generated side is (the real-server bench's is read back from the server).
 */
export function realismCheck(sizes: Sizes, managedFields: boolean, rows: Row[], what = 'generated'): void {
  const gen = sizes.generated;
  const real = sizes.real;
  const kinds = Object.entries(gen)
    .sort((a, b) => b[1].fullBytes - a[1].fullBytes)
    .slice(0, 16)
    .map(([k]) => k);
  const all = Object.values(gen);
  const genRatio = sum(all.map((g) => g.metadataBytes)) / sum(all.map((g) => g.fullBytes));
  if (!real) {
    out('Realism check: ../shared/corpus/cluster-dumps is not there (or --no-realism): nothing to compare the generated sizes with');
    out(`  ${what}: metadata-only ÷ full LIST bytes, all kinds: ${ratio(genRatio)}`);
    out();
    return;
  }
  out(
    `Realism check: bytes per object as an item of a full LIST and of a metadata-only LIST, ${what} beside REAL cluster dumps (${real.dir}: ${int(real.files)} files, ${int(real.objects)} objects with a uid, each once)`,
  );
  out(
    "  managedFields are in both forms on a real apiserver; the dumps taken through the API keep them (sonobuoy's), those made by kubectl or must-gather do not: so the comparison is made twice, without them on either side, then with them on both",
  );
  const rowsOut: string[][] = [];
  for (const k of kinds) {
    const g = gen[k];
    const r = real.byKind[k];
    rowsOut.push([
      k,
      int(g.n),
      kb(g.strippedFull),
      share(g),
      ratio(g.strippedRatio),
      managedFields ? `${kb(g.full)}, ${ratio(g.ratio)}` : '—',
      r ? `${int(r.n)}${r.n < 20 ? '*' : ''}` : '0',
      r ? kb(r.strippedFull) : '—',
      r ? share(r) : '—',
      r ? ratio(r.strippedRatio) : '—',
      r && r.nManaged
        ? `${int(r.nManaged)}${r.nManaged < 5 ? '*' : ''}: ${kb(r.full)}, ${ratio(r.managedRatio)}, ${kb(r.managedFields)}`
        : '—',
      r ? r.sources.join(', ') : '',
    ]);
  }
  table(rowsOut, [
    'kind',
    'generated n',
    'full',
    'status',
    'meta÷full',
    'with managedFields: full, meta÷full',
    'real n',
    'full',
    'status',
    'meta÷full',
    'with managedFields: n, full, meta÷full, managedFields',
    'real sources',
  ]);
  out(
    '  (without managedFields unless said; sizes are medians per object, status its median and share of the bytes, meta÷full a ratio of sums; * fewer than 20 (or 5) real objects)',
  );
  // Like with like, weighted by the generated bytes of the kinds the dumps have enough of.
  const compare = (
    genPick: (g: SizeSummary) => [number, number],
    realPick: (r: SizeSummary) => number,
    enough: (r: SizeSummary) => boolean,
  ) => {
    let genMeta = 0;
    let genFull = 0;
    let realWeighted = 0;
    const used: string[] = [];
    for (const [k, g] of Object.entries(gen)) {
      const r = real.byKind[k];
      if (!r || !enough(r)) continue;
      const [m, f] = genPick(g);
      genMeta += m;
      genFull += f;
      realWeighted += f * realPick(r);
      used.push(k);
    }
    return {
      generated: genMeta / genFull,
      real: realWeighted / genFull,
      share: genFull / sum(all.map((g) => genPick(g)[1])),
      kinds: used.sort(),
    };
  };
  const stripped = compare(
    (g) => [g.strippedMetadataBytes, g.strippedFullBytes],
    (r) => r.strippedRatio,
    (r) => r.n >= 20,
  );
  out(
    `  without managedFields, kinds with ≥ 20 real objects (${Math.round(stripped.share * 100)} % of the generated bytes), weighted by the generated bytes: generated ${ratio(stripped.generated)}, real ${ratio(stripped.real)}`,
  );
  let managed: ReturnType<typeof compare> | undefined;
  if (managedFields) {
    managed = compare(
      (g) => [g.metadataBytes, g.fullBytes],
      (r) => r.managedRatio,
      (r) => r.nManaged >= 5,
    );
    out(
      `  with managedFields, kinds with ≥ 5 real objects that carry them (${managed.kinds.join(', ')}: ${Math.round(managed.share * 100)} % of the generated bytes): generated ${ratio(managed.generated)}, real ${ratio(managed.real)}`,
    );
  }
  out(`  all kinds, as served here: metadata-only ÷ full ${ratio(genRatio)}`);
  rows.push({
    figure: 'realism: metadata-only ÷ full bytes, generated vs real',
    goal: '—',
    result: 'info',
    value: `${ratio(stripped.generated)} vs ${ratio(stripped.real)} without managedFields${managed ? `; ${ratio(managed.generated)} vs ${ratio(managed.real)} with` : ''}`,
  });
  out();
}
