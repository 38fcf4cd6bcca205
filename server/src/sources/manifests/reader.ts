// One way to read a parsed document, whatever it was parsed into: plain JavaScript values (JSON.parse, the
// fast path), the `yaml` package's nodes (YAML, with positions), or the position tree of the JSON scanner.
// The extractor only ever asks for the few paths it needs, so nothing walks a whole document here.

import { isAlias, isMap, isPair, isScalar, isSeq, type Node, type Pair } from 'yaml';

export type ValueKind = 'map' | 'seq' | 'string' | 'number' | 'boolean' | 'null' | 'other';

/** A path inside a document: mapping keys and sequence indexes. */
export type Path = readonly (string | number)[];

export interface Reader<N> {
  /** Type names in messages: "a mapping"/"a list" for YAML, "an object"/"an array" for JSON. */
  readonly flavour: 'yaml' | 'json';
  kind(n: N | undefined): ValueKind | 'absent';
  /** The value of `key` in a mapping, undefined when the key is absent. Duplicate keys: the last wins. */
  get(n: N, key: string): N | undefined;
  items(n: N): readonly N[];
  /** The entries of a mapping in order; duplicate keys appear once, with the last value. */
  entries(n: N): [string, N][];
  value(n: N): unknown;
  /** The mapping itself when it is already a plain object of strings (lets the JSON path avoid a copy). */
  stringRecord?(n: N): Record<string, string> | undefined;
}

export function typeName(kind: ValueKind | 'absent', flavour: 'yaml' | 'json'): string {
  switch (kind) {
    case 'map':
      return flavour === 'json' ? 'an object' : 'a mapping';
    case 'seq':
      return flavour === 'json' ? 'an array' : 'a list';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'null':
      return 'null';
    case 'absent':
      return 'nothing';
    default:
      return 'a value of another type';
  }
}

export function formatPath(path: Path): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(p)) s += s ? `.${p}` : p;
    else s += `[${JSON.stringify(p)}]`;
  }
  return s || '(document)';
}

// ---------------------------------------------------------------------------------------------------
// Plain values (JSON.parse output)

export const plainReader: Reader<unknown> = {
  flavour: 'json',
  kind(n) {
    if (n === undefined) return 'absent';
    if (n === null) return 'null';
    switch (typeof n) {
      case 'string':
        return 'string';
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'object':
        return Array.isArray(n) ? 'seq' : 'map';
      default:
        return 'other';
    }
  },
  get(n, key) {
    const o = n as Record<string, unknown>;
    return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
  },
  items(n) {
    return n as unknown[];
  },
  entries(n) {
    return Object.entries(n as Record<string, unknown>);
  },
  value(n) {
    return n;
  },
  stringRecord(n) {
    const o = n as Record<string, unknown>;
    for (const k in o) if (typeof o[k] !== 'string') return undefined;
    return o as Record<string, string>;
  },
};

// ---------------------------------------------------------------------------------------------------
// `yaml` package nodes. `null` stands for an empty value (`key:` with nothing after it).

export type YNode = Node | null;

export class YamlReader implements Reader<YNode> {
  readonly flavour = 'yaml' as const;

  /** @param aliasTargets every alias of the document and the node its anchor names. */
  constructor(private readonly aliasTargets: ReadonlyMap<Node, Node>) {}

  deref(n: YNode | undefined): YNode | undefined {
    let cur = n;
    for (let hops = 0; cur && isAlias(cur) && hops < 100; hops++) cur = this.aliasTargets.get(cur) ?? null;
    return cur && isAlias(cur) ? null : cur;
  }

  kind(n0: YNode | undefined): ValueKind | 'absent' {
    if (n0 === undefined) return 'absent';
    const n = this.deref(n0);
    if (!n) return 'null';
    if (isMap(n)) return 'map';
    if (isSeq(n)) return 'seq';
    if (isScalar(n)) {
      const v = n.value;
      switch (typeof v) {
        case 'string':
          return 'string';
        case 'number':
        case 'bigint':
          return 'number';
        case 'boolean':
          return 'boolean';
        default:
          return v === null || v === undefined ? 'null' : 'other';
      }
    }
    return 'other';
  }

  /** The pair of `key` (last one wins), for the ranges of keys. */
  pair(n0: YNode, key: string): Pair<unknown, unknown> | undefined {
    const n = this.deref(n0);
    if (!n || !isMap(n)) return undefined;
    const items = n.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const p = items[i];
      if (this.keyString(p.key) === key) return p;
    }
    return undefined;
  }

  get(n: YNode, key: string): YNode | undefined {
    const p = this.pair(n, key);
    if (!p) return undefined;
    return (p.value ?? null) as YNode;
  }

  items(n0: YNode): readonly YNode[] {
    const n = this.deref(n0);
    if (!n || !isSeq(n)) return [];
    return n.items.map((it) => (isPair(it) ? null : ((it ?? null) as YNode)));
  }

  entries(n0: YNode): [string, YNode][] {
    const n = this.deref(n0);
    if (!n || !isMap(n)) return [];
    const byKey = new Map<string, YNode>();
    for (const p of n.items) {
      const k = this.keyString(p.key);
      if (k === undefined) continue;
      byKey.delete(k); // keep the order of the last occurrence
      byKey.set(k, (p.value ?? null) as YNode);
    }
    return [...byKey];
  }

  value(n0: YNode): unknown {
    const n = this.deref(n0);
    if (!n || !isScalar(n)) return null;
    return typeof n.value === 'bigint' ? Number(n.value) : n.value;
  }

  /** A mapping key as Kubernetes' YAML-to-JSON conversion sees it: scalars as strings. */
  keyString(k: unknown): string | undefined {
    const key = isAlias(k) ? this.deref(k) : k;
    if (isScalar(key)) return key.value === null || key.value === undefined ? undefined : String(key.value);
    if (typeof key === 'string') return key;
    return undefined;
  }

  /** Offsets [start, end) of a node, or of the key when the value is empty. */
  offsets(n: YNode | undefined): [number, number] | undefined {
    const r = n?.range;
    return r ? [r[0], r[1]] : undefined;
  }
}
