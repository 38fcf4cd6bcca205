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
  readonly sources = new Set<string>();

  add(o: J, source?: string): void {
    const sizes = (x: J) => {
      const { apiVersion: _a, kind: _k, ...item } = x;
      return [Buffer.byteLength(JSON.stringify(item)), Buffer.byteLength(JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: x.metadata }))];
    };
    const [full, metadata] = sizes(o);
    this.full.push(full);
    this.metadata.push(metadata);
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
    const [m, f] = which === 'managed' ? [this.managedMetadata, this.managedFull] : which === 'stripped' ? [this.strippedMetadata, this.strippedFull] : [this.metadata, this.full];
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
