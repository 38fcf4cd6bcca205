// One pass over a whole YAML document, without recursion: resolves aliases to their anchors, finds
// duplicate mapping keys anywhere, measures how much aliases would expand, and spots unquoted template
// expressions (`name: {{ .Values.x }}` parses as a flow mapping whose key is a flow mapping).

import { isAlias, isMap, isPair, isScalar, isSeq, type Node, type Pair } from 'yaml';

export interface DuplicateKey {
  key: string;
  /** The later occurrence (the one whose value is used). */
  keyNode: Node | undefined;
  map: Node;
}

export interface Audit {
  aliasTargets: Map<Node, Node>;
  /** Aliases whose anchor is not defined before them in this document. */
  unresolved: Node[];
  duplicates: DuplicateKey[];
  templateShape: boolean;
  /** Nodes written in the document. */
  nodes: number;
  /** Nodes the document would have with every alias expanded; Infinity for a circular alias. */
  expanded: number;
}

const keyOf = (k: unknown): string | undefined => {
  if (isScalar(k)) return k.value === null || k.value === undefined ? undefined : String(k.value);
  return undefined;
};

export function auditDocument(root: Node | null | undefined, opts: { lookForTemplates: boolean }): Audit {
  const audit: Audit = { aliasTargets: new Map(), unresolved: [], duplicates: [], templateShape: false, nodes: 0, expanded: 0 };
  if (!root) return audit;
  const anchors = new Map<string, Node>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    if (isAlias(n)) {
      const target = anchors.get(n.source);
      if (target) audit.aliasTargets.set(n, target);
      else audit.unresolved.push(n);
      continue;
    }
    if (isPair(n)) {
      // Key before value, so push the value first.
      stack.push(n.value, n.key);
      continue;
    }
    const node = n as Node;
    audit.nodes++;
    if (node.anchor) anchors.set(node.anchor, node);
    if (isMap(node)) {
      const items = node.items as Pair<unknown, unknown>[];
      if (opts.lookForTemplates && node.flow && items.length && isMap(items[0].key) && (items[0].key as { flow?: boolean }).flow) {
        audit.templateShape = true;
      }
      if (items.length > 1) findDuplicates(node, items, audit.duplicates);
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    } else if (isSeq(node)) {
      const items = node.items;
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
  audit.expanded = audit.aliasTargets.size ? expandedSize(root, audit.aliasTargets) : audit.nodes;
  return audit;
}

function findDuplicates(map: Node, items: Pair<unknown, unknown>[], out: DuplicateKey[]): void {
  if (items.length <= 12) {
    for (let i = 1; i < items.length; i++) {
      const k = keyOf(items[i].key);
      if (k === undefined) continue;
      for (let j = 0; j < i; j++) {
        if (keyOf(items[j].key) === k) {
          out.push({ key: k, keyNode: items[i].key as Node, map });
          break;
        }
      }
    }
    return;
  }
  const seen = new Set<string>();
  for (const p of items) {
    const k = keyOf(p.key);
    if (k === undefined) continue;
    if (seen.has(k)) out.push({ key: k, keyNode: p.key as Node, map });
    else seen.add(k);
  }
}

/** Size of the document with aliases expanded, computed over the node graph without recursion. */
function expandedSize(root: Node, aliasTargets: Map<Node, Node>): number {
  const size = new Map<unknown, number>();
  const inProgress = new Set<unknown>();
  const children = (n: unknown): unknown[] => {
    if (isAlias(n)) return [aliasTargets.get(n)];
    if (isPair(n)) return [n.key, n.value];
    if (isMap(n) || isSeq(n)) return n.items as unknown[];
    return [];
  };
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack[stack.length - 1];
    if (!n || typeof n !== 'object' || size.has(n)) {
      stack.pop();
      continue;
    }
    const kids = children(n);
    if (!inProgress.has(n)) {
      inProgress.add(n);
      for (const k of kids) {
        if (k && typeof k === 'object' && !size.has(k)) {
          if (inProgress.has(k)) return Infinity; // an alias inside its own anchor
          stack.push(k);
        }
      }
      continue;
    }
    let total = isAlias(n) || isPair(n) ? 0 : 1;
    for (const k of kids) total += k && typeof k === 'object' ? (size.get(k) ?? 0) : 0;
    size.set(n, Math.min(total, Number.MAX_SAFE_INTEGER));
    inProgress.delete(n);
    stack.pop();
  }
  return size.get(root) ?? 0;
}

/** The path from the document root to `target`, for messages (found by a search; only used on duplicates). */
export function pathTo(root: Node | null | undefined, target: Node): (string | number)[] {
  if (!root) return [];
  const parent = new Map<unknown, [unknown, string | number]>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (n === target) break;
    if (isMap(n)) {
      for (const p of n.items as Pair<unknown, unknown>[]) {
        const k = keyOf(p.key);
        if (p.value && typeof p.value === 'object' && !parent.has(p.value)) {
          parent.set(p.value, [n, k ?? '?']);
          stack.push(p.value);
        }
      }
    } else if (isSeq(n)) {
      n.items.forEach((it, i) => {
        if (it && typeof it === 'object' && !parent.has(it)) {
          parent.set(it, [n, i]);
          stack.push(it);
        }
      });
    }
  }
  const path: (string | number)[] = [];
  for (let cur: unknown = target; parent.has(cur); ) {
    const [p, seg] = parent.get(cur)!;
    path.unshift(seg);
    cur = p;
  }
  return path;
}
