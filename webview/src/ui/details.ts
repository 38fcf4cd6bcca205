// The details side panel of the selected node: identity, state, owners, dependents, finalizers, findings, where it
// is written (Reveal), and Simulate Delete with a policy; for a collapsed group, its members. Under a simulation,
// what happens to it there. All text through textContent.

import type { GraphIndex } from '../model/graphIndex';
import { dependentsOf, ownersOf } from '../model/graphIndex';
import type { PlaybackFrame } from '../model/playback';
import type { GraphNodeData, PolicyChoice, SimulateReport } from '../model/protocolTypes';
import { describeObject, STATE_LABELS, type GraphView, type ViewNode } from '../model/viewModel';
import { nodeOverlay } from '../model/scene';
import { omittedText } from '../model/scope';
import { h, replaceChildren } from './dom';

export interface DetailsActions {
  select(id: string): void;
  reveal(uid: string): void;
  simulate(uid: string, policy: PolicyChoice): void;
  toggleGroup(id: string): void;
}

const LISTED = 50;
const POLICIES: [PolicyChoice, string][] = [
  ['default', 'API default policy'],
  ['Background', 'Background'],
  ['Foreground', 'Foreground'],
  ['Orphan', 'Orphan'],
];

export class DetailsPanel {
  readonly element: HTMLElement;
  private key = '';
  private policy: PolicyChoice = 'default';

  constructor(private readonly actions: DetailsActions) {
    this.element = h('aside', { class: 'details', 'aria-label': 'Details of the selected object', tabindex: '-1' });
  }

  update(
    index: GraphIndex | undefined,
    view: GraphView | undefined,
    selected: string | undefined,
    report: SimulateReport | undefined,
    frame: PlaybackFrame | undefined,
  ): void {
    const node = selected ? view?.byId.get(selected) : undefined;
    const key = `${selected}\u0000${node ? JSON.stringify(node.tags) + node.name + node.findings : ''}\u0000${index ? index.order.length : 0}\u0000${view?.edges.length}\u0000${frame?.index}\u0000${report?.target.uid}`;
    if (key === this.key) return;
    this.key = key;
    if (!index || !view || !node) {
      replaceChildren(
        this.element,
        h(
          'p',
          { class: 'hint' },
          selected && view
            ? 'The selected object is not shown (filtered out or gone).'
            : 'Select an object (click it, or use the arrow keys) to see its details.',
        ),
      );
      return;
    }
    replaceChildren(this.element, ...(node.members ? this.group(index, node) : this.object(index, view, node, report, frame)));
  }

  private object(
    index: GraphIndex,
    view: GraphView,
    node: ViewNode,
    report: SimulateReport | undefined,
    frame: PlaybackFrame | undefined,
  ): Node[] {
    const o = node.object!;
    const out: Node[] = [];
    out.push(h('h2', {}, h('span', { class: 'kind' }, o.kind), ' ', h('span', { class: 'name' }, o.name)));
    const state = [STATE_LABELS[node.status], ...node.tags.slice(1).map((t) => STATE_LABELS[t])].join(' · ');
    out.push(h('p', { class: `state st-${node.status}` }, state));
    if (o.stuck) out.push(h('p', { class: 'stuck-reason' }, `Why it cannot finish: ${o.stuck}`));
    out.push(
      h(
        'dl',
        { class: 'identity' },
        h('dt', {}, 'API version'),
        h('dd', {}, o.apiVersion),
        h('dt', {}, 'Namespace'),
        h('dd', {}, o.namespace || '(cluster-scoped)'),
        h('dt', {}, 'uid'),
        h('dd', { class: 'uid' }, o.uid),
        h('dt', {}, 'Written in'),
        h('dd', {}, o.location ? whereWritten(o) : o.state === 'virtual' ? 'nowhere: only referenced' : 'unknown'),
      ),
    );
    const actions = h('div', { class: 'actions' });
    if (o.location) {
      const reveal = h('button', { type: 'button', class: 'primary' }, 'Reveal in manifest');
      reveal.addEventListener('click', () => this.actions.reveal(o.uid));
      actions.append(reveal);
    }
    if (o.state !== 'virtual') {
      const select = h(
        'select',
        { 'aria-label': 'Propagation policy' },
        ...POLICIES.map(([p, label]) => h('option', { value: p, selected: p === this.policy }, label)),
      );
      select.addEventListener('change', () => {
        this.policy = select.value as PolicyChoice;
      });
      const simulate = h('button', { type: 'button' }, 'Simulate delete');
      simulate.addEventListener('click', () => this.actions.simulate(o.uid, this.policy));
      actions.append(h('span', { class: 'simulate' }, select, simulate));
    }
    out.push(actions);

    if (report && frame) out.push(...this.inSimulation(o, report, frame, node));

    // A live graph's scope (or its limit) can leave some out: counted, so "None" is never said of them.
    const owners = ownersOf(index, o.uid);
    const ownersOut = o.omitted?.owners ?? 0;
    out.push(h('h3', {}, `Owners (${owners.length + ownersOut})`));
    if (owners.length || !ownersOut)
      out.push(
        owners.length
          ? this.links(
              owners.map((e) => [e.to, edgeFlags(e.controller, e.blockOwnerDeletion)]),
              view,
            )
          : h('p', { class: 'none' }, 'None: nothing collects it.'),
      );
    if (ownersOut) out.push(h('p', { class: 'omitted' }, omittedText(ownersOut, 'owner')));
    const dependents = dependentsOf(index, o.uid);
    const dependentsOut = o.omitted?.dependents ?? 0;
    out.push(h('h3', {}, `Dependents (${dependents.length + dependentsOut})`));
    if (dependents.length || !dependentsOut)
      out.push(
        dependents.length
          ? this.links(
              dependents.map((e) => [e.from, edgeFlags(e.controller, e.blockOwnerDeletion)]),
              view,
            )
          : h('p', { class: 'none' }, 'None.'),
      );
    if (dependentsOut) out.push(h('p', { class: 'omitted' }, omittedText(dependentsOut, 'dependent')));
    out.push(h('h3', {}, `Finalizers (${o.finalizers.length})`));
    out.push(
      o.finalizers.length
        ? h('ul', { class: 'finalizers' }, ...o.finalizers.map((f) => h('li', {}, h('code', {}, f))))
        : h('p', { class: 'none' }, 'None.'),
    );
    const findings = o.findingMessages ?? o.findings.map((code) => ({ code, message: '' }));
    out.push(h('h3', {}, `Findings (${findings.length})`));
    out.push(
      findings.length
        ? h('ul', { class: 'findings' }, ...findings.map((f) => h('li', {}, h('code', {}, f.code), f.message ? ` ${f.message}` : '')))
        : h('p', { class: 'none' }, 'None.'),
    );
    return out;
  }

  private inSimulation(o: GraphNodeData, report: SimulateReport, frame: PlaybackFrame, node: ViewNode): Node[] {
    const overlay = nodeOverlay(node, frame);
    const r = report;
    const lines: string[] = [];
    const deleted = r.deleted.find((d) => d.uid === o.uid);
    if (deleted) lines.push(`Deleted: leaves storage at step ${deleted.step} (#${frame.removalOrder.get(o.uid)} to go).`);
    const orphaned = r.orphaned.find((d) => d.uid === o.uid);
    if (orphaned) lines.push(`Orphaned: its reference to uid ${orphaned.ownerUID} is removed; it stays.`);
    const stuck = r.stuck.find((d) => d.uid === o.uid);
    if (stuck) lines.push(`Stuck: ${stuck.reason}`);
    if (!lines.length) lines.push(overlay.affected ? 'Touched by the simulation.' : 'Not touched by this simulation.');
    return [h('h3', {}, 'In this simulation'), h('ul', { class: 'simulation' }, ...lines.map((l) => h('li', {}, l)))];
  }

  private group(index: GraphIndex, node: ViewNode): Node[] {
    const owner = node.groupOwner ? index.nodes.get(node.groupOwner) : undefined;
    const expand = h('button', { type: 'button', class: 'primary' }, 'Expand');
    expand.addEventListener('click', () => this.actions.toggleGroup(node.id));
    const members = node.members!;
    const out: (Node | string)[] = [
      h('h2', {}, h('span', { class: 'name' }, node.name)),
      h('p', { class: 'state' }, node.description),
      owner ? h('p', {}, `Dependents of ${describeObject(owner)} with no dependents of their own, collapsed.`) : '',
      h('div', { class: 'actions' }, expand),
      h('h3', {}, `Members (${members.length})`),
      h(
        'ul',
        { class: 'members' },
        ...members.slice(0, LISTED).map((uid) => {
          const m = index.nodes.get(uid)!;
          return h('li', {}, `${m.name} · ${STATE_LABELS[m.stuck ? 'stuck' : m.state]}`);
        }),
        members.length > LISTED ? h('li', { class: 'more' }, `and ${members.length - LISTED} more`) : '',
      ),
    ];
    return out.filter((x): x is Node => typeof x !== 'string');
  }

  private links(items: [string, string][], view: GraphView): HTMLElement {
    const list = h('ul', { class: 'links' });
    for (const [uid, flags] of items.slice(0, LISTED)) {
      const target = view.shownAs.get(uid);
      const n = view.byId.get(target ?? '');
      const label = n?.object ? describeObject(n.object) : n ? `${n.name} (collapsed)` : uid;
      const button = h('button', { type: 'button', class: 'link', disabled: !target }, label);
      if (target) button.addEventListener('click', () => this.actions.select(target));
      list.append(h('li', {}, button, flags ? h('span', { class: 'flags' }, ` ${flags}`) : ''));
    }
    if (items.length > LISTED) list.append(h('li', { class: 'more' }, `and ${items.length - LISTED} more`));
    return list;
  }
}

function edgeFlags(controller: boolean, block: boolean): string {
  return [controller ? 'controller' : '', block ? 'blockOwnerDeletion' : ''].filter(Boolean).join(', ');
}

function whereWritten(o: GraphNodeData): string {
  const uri = o.location!.uri;
  const path = uri.replace(/[?#].*$/, '');
  let file = path.slice(path.lastIndexOf('/') + 1);
  try {
    file = decodeURIComponent(file);
  } catch {
    // keep it encoded
  }
  return uri.startsWith('kube-gc-lens-live:') ? `live object (${file})` : `${file}:${o.location!.range.start.line + 1}`;
}
