// The ways out of a stuck object as the editor shows them (plain text: tree tooltips and modal dialogs render no
// markdown), and what it may do with one: copy its command, or, for a live object, send its PATCH when the user
// allowed writes (kubeGcLens.cluster.allowWrites, user settings only, never in Restricted Mode) and confirmed.

import type { ApplyWayOutResult, ObjectIdentity, WayOut } from '../../../shared/src/protocol';
import type { SettingInspection } from './workspaceTrust';

export const ALLOW_WRITES_KEY = 'allowWrites';

/** What sending a way out is called: removing a finalizer, or another fix (an ownerReference, a scale). */
export type WayOutAction = 'remove-finalizer' | 'apply-fix';

/** The action the editor offers for a way out, or undefined when it only prints a command (a comment, a DELETE…). */
export function wayOutAction(w: WayOut): WayOutAction | undefined {
  if (!w.patch) return undefined;
  return w.patch.ops.some((o) => o.op === 'remove' && o.path.startsWith('/metadata/finalizers/')) ? 'remove-finalizer' : 'apply-fix';
}

/**
 * Whether writes are on: only the user's own value (a workspace cannot turn them on; the setting is
 * application-scoped, and its workspace value is ignored here even where VS Code lets one through), and never in
 * an untrusted workspace.
 */
export function writesAllowed(inspection: SettingInspection | undefined, trusted: boolean): boolean {
  return trusted && inspection?.globalValue === true;
}

const kindName = (o: ObjectIdentity) => `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/** A list of names, the first few then how many more. */
function names(objects: ObjectIdentity[], max = 8): string {
  const shown = objects.slice(0, max).map(kindName).join(', ');
  return objects.length > max ? `${shown} and ${objects.length - max} more` : shown;
}

/** The simulated consequences, one line each (the tooltip and the confirmation). */
function outcomeLines(w: WayOut): string[] {
  const o = w.outcome;
  return [
    `Simulated: ${o.summary}`,
    ...(o.deleted.length ? [`Deleted: ${names(o.deleted)}`] : []),
    ...(o.orphaned.length ? [`Orphaned: ${names(o.orphaned)}`] : []),
    ...(o.stuck.length ? [`Still stuck: ${names(o.stuck)}`] : []),
    ...(w.warning ? [`Warning: ${w.warning}`] : []),
    ...(w.infrastructure ? [`Infrastructure: ${w.infrastructure}`] : []),
  ];
}

export function wayOutTooltip(w: WayOut): string {
  return [`${w.title} (${w.risk})`, ...outcomeLines(w), `Command: ${w.command}`].join('\n');
}

/** The PATCH as the dialog names it: the object (and subresource), then the JSON patch. */
export function patchText(w: WayOut): string {
  if (!w.patch) return '';
  const sub = w.patch.subresource ? `/${w.patch.subresource}` : '';
  return `PATCH ${kindName(w.patch.target)}${sub} (application/json-patch+json): ${JSON.stringify(w.patch.ops)}`;
}

/** The modal confirmation: what is sent, where, and what the simulation says it does. */
export function confirmation(w: WayOut, context: string): { message: string; detail: string; button: string } {
  const action = wayOutAction(w);
  return {
    message: `${w.title}?`,
    detail: [
      `On the live cluster ${context}, risk: ${w.risk}.`,
      ...outcomeLines(w),
      '',
      `Sends a server-side dry run first (nothing changes if the cluster refuses it), then: ${patchText(w)}`,
      `Its test ops make it fail if the object is not the one shown (uid ${w.patch?.target.uid ?? '?'}) or changed since it was read.`,
    ].join('\n'),
    button: action === 'remove-finalizer' ? 'Remove Finalizer' : 'Apply Fix',
  };
}

/** One line for the Output channel and the notification after the server answered. */
export function resultText(w: WayOut, r: ApplyWayOutResult): string {
  if (r.ok) return r.message;
  if (r.stage === 'refused') return `Not sent: ${r.message}`;
  if (r.objectChanged) return `Nothing changed by "${w.title}": ${r.message} The Stuck Objects view is refreshed.`;
  const what = r.stage === 'dry-run' ? 'The dry run was refused' : 'The PATCH was refused';
  return `${what} (${r.status}), nothing changed by "${w.title}": ${r.message}`;
}

/**
 * The `kubeGcLens` section as the language server receives it (workspace/configuration): `cluster.allowWrites` is
 * replaced with what writesAllowed() says, whatever VS Code merged from the workspace's settings.
 */
export function withAllowWrites(section: unknown, allowed: boolean): unknown {
  const s = section && typeof section === 'object' && !Array.isArray(section) ? (section as Record<string, unknown>) : {};
  const cluster = s.cluster && typeof s.cluster === 'object' && !Array.isArray(s.cluster) ? (s.cluster as Record<string, unknown>) : {};
  return { ...s, cluster: { ...cluster, [ALLOW_WRITES_KEY]: allowed } };
}
