// The two quick picks of Simulate Delete: which object (the one at the cursor first), then which policy.

import type { ObjectSummary, PolicyChoice } from '../../../shared/src/protocol';
import { locationLabel, describeObject } from './objects';
import { POLICY_LABELS } from './reportMarkdown';

export interface ObjectPickItem {
  label: string;
  description: string;
  uid: string;
}

export interface PolicyPickItem {
  label: string;
  description: string;
  detail: string;
  policy: PolicyChoice;
}

/**
 * Quick-pick labels and descriptions render `$(name)` as an icon; a backslash keeps it literal. Names come from
 * the user's files, so every `$(` is escaped.
 */
export function escapeIcons(s: string): string {
  return s.replace(/\$\(/g, '\\$(');
}

/** Every object, the one at the cursor (if any) first; otherwise the server's order. */
export function objectPickItems(objects: ObjectSummary[], atCursorUid?: string): ObjectPickItem[] {
  const item = (o: ObjectSummary, atCursor: boolean): ObjectPickItem => {
    const notes = [
      o.apiVersion,
      atCursor ? 'at cursor' : undefined,
      o.beingDeleted ? 'terminating' : undefined,
      o.location ? locationLabel(o.location) : undefined,
    ].filter((x): x is string => x !== undefined && x !== '');
    return { label: escapeIcons(describeObject(o)), description: escapeIcons(notes.join(' · ')), uid: o.uid };
  };
  const first = atCursorUid === undefined ? undefined : objects.find((o) => o.uid === atCursorUid);
  const items = first ? [item(first, true)] : [];
  for (const o of objects) if (o !== first) items.push(item(o, false));
  return items;
}

export const POLICY_PICK_ITEMS: readonly PolicyPickItem[] = [
  {
    policy: 'default',
    label: POLICY_LABELS.default,
    description: 'no propagationPolicy',
    detail: "The type's default applies: Background for most kinds, Orphan for v1 ReplicationController and batch/v1 Job.",
  },
  {
    policy: 'Background',
    label: POLICY_LABELS.Background,
    description: 'kubectl delete --cascade=background',
    detail: 'The object goes at once; the garbage collector then deletes its dependents.',
  },
  {
    policy: 'Foreground',
    label: POLICY_LABELS.Foreground,
    description: 'kubectl delete --cascade=foreground',
    detail: 'The object stays, with foregroundDeletion, until its blocking dependents are gone.',
  },
  {
    policy: 'Orphan',
    label: POLICY_LABELS.Orphan,
    description: 'kubectl delete --cascade=orphan',
    detail: 'Only the object goes; its dependents stay and lose their reference to it.',
  },
];

export { isPolicyChoice } from '../../../shared/src/protocol';

// ---------------------------------------------------------------------------------------------------------------
// Simulate Delete on the live cluster

/**
 * What kubeGcLens.simulateDelete deletes: a workspace object by uid (code lenses, the tree: `(uid, policy?)`), or a
 * live object (`({source: 'cluster', uid}, policy?)`: the tree's live section, live virtual documents).
 */
export type SimulateTarget = { source: 'workspace' | 'cluster'; uid: string };

export function parseSimulateTarget(arg: unknown): SimulateTarget | undefined {
  if (typeof arg === 'string') return arg === '' ? undefined : { source: 'workspace', uid: arg };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { source, uid } = arg as Record<string, unknown>;
  if (typeof uid !== 'string' || uid === '') return undefined;
  if (source === 'cluster' || source === 'workspace') return { source, uid };
  return undefined;
}

export interface SourcePickItem {
  label: string;
  description: string;
  source: SimulateTarget['source'];
}

/** Simulate Delete's first question while connected: the workspace's manifests or the live cluster. */
export function sourcePickItems(context: string, atCursor?: string): SourcePickItem[] {
  return [
    {
      label: '$(file-code) Workspace manifests',
      description: atCursor ? escapeIcons(`at cursor: ${atCursor}`) : 'the objects written in this workspace',
      source: 'workspace',
    },
    {
      label: `$(cloud) Live cluster (${escapeIcons(context)})`,
      description: 'the live ownership graph, as listed and watched',
      source: 'cluster',
    },
  ];
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** The live object a manifest describes: same uid, else same group, kind, namespace and name. */
export function matchingLiveObject<T extends ObjectSummary>(
  live: T[],
  manifest: Pick<ObjectSummary, 'apiVersion' | 'kind' | 'namespace' | 'name' | 'uid'>,
): T | undefined {
  return (
    live.find((o) => o.uid === manifest.uid) ??
    live.find(
      (o) =>
        o.kind === manifest.kind &&
        o.namespace === manifest.namespace &&
        o.name === manifest.name &&
        groupOf(o.apiVersion) === groupOf(manifest.apiVersion),
    )
  );
}
