// The items of one resource left out because they are malformed, for the incomplete-preview notes: "3 configmaps in
// team-a have malformed metadata and were left out (the first, "x": why)". Bounded whatever the server sends: up to
// MAX_NAMED named items are kept one by one (a good copy of one, from the watch, clears it); the rest are only counted
// per namespace, so a page of a million nulls costs a counter, not a million entries.

import type { DiscoveredResource } from './discovery';
import type { MalformedItem } from './toKubeObject';

const MAX_NAMED = 1000;

export class MalformedItems {
  private readonly named = new Map<string, MalformedItem>();
  private readonly counted = new Map<string, { count: number; first: MalformedItem }>();

  get size(): number {
    let n = this.named.size;
    for (const c of this.counted.values()) n += c.count;
    return n;
  }

  add(m: MalformedItem): void {
    const key = m.name ? `${m.namespace ?? ''}/${m.name}` : undefined;
    if (key !== undefined && (this.named.has(key) || this.named.size < MAX_NAMED)) {
      this.named.set(key, m);
      return;
    }
    const ns = m.namespace ?? '';
    const c = this.counted.get(ns);
    if (c) c.count++;
    else this.counted.set(ns, { count: 1, first: m });
  }

  /** A good (or deleted) copy of namespace/name: it is no longer left out. */
  clear(namespace: string | undefined, name: string | undefined): void {
    if (name && this.named.size) this.named.delete(`${namespace ?? ''}/${name}`);
  }

  notes(r: DiscoveredResource): string[] {
    const byNamespace = new Map<string, { count: number; first: MalformedItem }>();
    for (const m of this.named.values()) {
      const g = byNamespace.get(m.namespace ?? '');
      if (g) g.count++;
      else byNamespace.set(m.namespace ?? '', { count: 1, first: m });
    }
    for (const [ns, c] of this.counted) {
      const g = byNamespace.get(ns);
      if (g) g.count += c.count;
      else byNamespace.set(ns, { ...c });
    }
    const plural = r.group ? `${r.resource}.${r.group}` : r.resource;
    const singular = r.group ? `${r.singular}.${r.group}` : r.singular;
    return [...byNamespace].map(([namespace, { count: n, first }]) => {
      const what = n === 1 ? `1 ${singular}` : `${n.toLocaleString('en-US')} ${plural}`;
      const lead = n === 1 ? '' : first.name ? 'the first, ' : 'the first: ';
      const example = first.name ? `${lead}"${first.name}": ${first.malformed}` : `${lead}${first.malformed}`;
      return `this preview is incomplete: ${what}${namespace ? ` in ${namespace}` : ''} ${n === 1 ? 'has' : 'have'} malformed metadata and ${n === 1 ? 'was' : 'were'} left out (${example})`;
    });
  }
}
