// What a real control plane (testkit/cluster/controlPlane.ts) holds, read with its own kubectl: the expected values of
// suites that check the product's live answers against the real server's.

import type { ControlPlane } from '../../testkit/cluster/controlPlane';

export interface RealItem {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    resourceVersion?: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  };
  spec?: { finalizers?: string[] };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

/** What the garbage collector watches: every resource that can be listed, watched and deleted, events excepted. */
export function watchedTypes(plane: ControlPlane, context?: string): string[] {
  const args = ['api-resources', '--verbs=list,watch,delete', '-o', 'name', ...(context ? ['--context', context] : [])];
  return plane
    .kubectl(args)
    .split('\n')
    .filter((t) => t && !/^events(\.|$)/.test(t));
}

/** Every object of those types in every namespace, read in full (`kubectl get … -A -o json`): its text and items. */
export function readAll(plane: ControlPlane): { text: string; items: RealItem[] } {
  const text = plane.kubectl(['get', watchedTypes(plane).join(','), '-A', '-o', 'json']);
  return { text, items: (JSON.parse(text) as { items: RealItem[] }).items };
}

/** One object read in full (`kubectl get TYPE/NAME [-n NS] -o json`). */
export function readOne(plane: ControlPlane, ref: string, namespace?: string): RealItem {
  return JSON.parse(plane.kubectl(['get', ref, ...(namespace ? ['-n', namespace] : []), '-o', 'json'])) as RealItem;
}
