// `simulate -o dot`: the objects the simulation touched and their owners/dependents, coloured by fate. Strings are
// quoted as `graph -o dot` quotes them (Go's %q): no control character reaches graphviz raw.

import { goQuote as quote } from '../../engine/graph/dotWriter';
import type { Inventory } from '../../engine/inventory';
import type { SimulationResult } from '../../engine/simulation/types';

export function simulateDot(inventory: Inventory, result: SimulationResult): string {
  const fate = new Map<string, string>();
  for (const d of result.deleted) fate.set(d.uid, 'deleted');
  for (const o of result.orphaned) fate.set(o.uid, 'orphaned');
  for (const s of result.stuck) fate.set(s.uid, 'stuck');
  const touched = new Set<string>([...result.steps.map((s) => s.target.uid), ...fate.keys()]);
  const shown = inventory.graph.component(touched);
  for (const uid of touched) shown.add(uid);
  const colour: Record<string, string> = { deleted: '#f4a6a6', orphaned: '#ffe08a', stuck: '#d9a6f4' };
  const lines = ['digraph simulation {', '  rankdir=BT;', '  node [shape=box, style="rounded,filled", fillcolor="#ffffff"];'];
  for (const uid of [...shown].sort()) {
    const node = inventory.graph.get(uid);
    const o = inventory.objects.get(uid);
    const id = node?.identity ?? (o && { kind: o.kind, namespace: o.namespace, name: o.name });
    if (!id) continue;
    const f = fate.get(uid) ?? (node?.virtual ? 'virtual' : 'remains');
    const label = `${id.kind}\n${id.namespace ? id.namespace + '/' : ''}${id.name}\n${f}`;
    lines.push(
      `  ${quote(uid)} [label=${quote(label)}${colour[f] ? `, fillcolor=${quote(colour[f])}` : ''}${f === 'virtual' ? ', style="rounded,dashed"' : ''}];`,
    );
  }
  for (const uid of [...shown].sort()) {
    const o = inventory.objects.get(uid);
    for (const r of o?.ownerReferences ?? []) {
      if (!shown.has(r.uid)) continue;
      const style = [r.controller ? 'penwidth=2' : '', r.blockOwnerDeletion ? '' : 'style=dashed'].filter(Boolean).join(', ');
      lines.push(`  ${quote(uid)} -> ${quote(r.uid)}${style ? ` [${style}]` : ''};`);
    }
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
