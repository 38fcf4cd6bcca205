// What the catalogue of well-known finalizers changes in a stuck object's ways out: a controller that deletes what
// it manages (or external resources) before removing its finalizer is never a safe restore, and removing such a
// finalizer by hand is then the way that keeps those objects, said with what it leaves behind, and listed first for
// an object that goes only with its namespace or CRD (R89).

import type { WayOutRisk } from '../../../shared/src/protocol';
import { CRD_CLEANUP_FINALIZER, splitApiVersion, type KubeObject } from '../engine/model';
import type { Inventory } from '../engine/inventory';
import { catalogueEntry, controllerOf, DESTRUCTIVE_ACTIONS, type FinalizerCatalogueEntry } from '../engine/simulation/finalizerCatalogue';

/** The catalogue's entry for a finalizer on `o`, when the catalogue knows it. */
export const catalogued = (o: KubeObject, finalizer: string): FinalizerCatalogueEntry | undefined => catalogueEntry(finalizer, o);

export interface RestoreAdvice {
  risk: WayOutRisk;
  /** Said after the restore's title: what the controller then does. */
  then?: string;
  warning?: string;
}

/** A restored controller's risk: dangerous when it then deletes workloads or external resources, said so. */
export function restoreAdvice(o: KubeObject, finalizer: string): RestoreAdvice {
  const entry = catalogued(o, finalizer);
  if (!entry || !DESTRUCTIVE_ACTIONS.has(entry.action)) return { risk: 'safe' };
  const unless = entry.variants ? ` (${entry.variants})` : '';
  return {
    risk: 'dangerous',
    then: `once it runs, ${controllerOf(entry)} ${entry.does} before removing ${finalizer}`,
    warning: `not a neutral fix: once restored, ${controllerOf(entry)} ${entry.does}${unless}; to keep what it would delete, remove ${finalizer} by hand instead (${entry.leavesBehind})`,
  };
}

/**
 * Removing a catalogued finalizer by hand: caution when its controller would have done nothing of consequence, or
 * would have deleted what it manages (removing it keeps those in place); otherwise dangerous, as for any finalizer.
 */
export function removalRisk(o: KubeObject, finalizer: string): WayOutRisk | undefined {
  const entry = catalogued(o, finalizer);
  if (!entry) return undefined;
  // The CRD's own: its custom resources do not keep running, they stay in etcd out of sight.
  if (finalizer === CRD_CLEANUP_FINALIZER) return 'dangerous';
  return entry.action === 'nothing' || entry.action === 'cascade-deletes' ? 'caution' : 'dangerous';
}

/** What removing a catalogued finalizer by hand leaves behind, or undefined for a finalizer the catalogue does not know. */
export function leftBehind(o: KubeObject, finalizer: string): string | undefined {
  const entry = catalogued(o, finalizer);
  if (!entry) return undefined;
  return entry.action === 'nothing'
    ? `${controllerOf(entry)} ${entry.does}: removing it leaves ${entry.leavesBehind}`
    : `left behind: ${entry.leavesBehind} (${controllerOf(entry)} ${entry.does} before removing it)`;
}

/**
 * Whether `o` goes only because its namespace or its CRD is being deleted: what its controller then destroys was not
 * asked for by name (R89). An object deleted by itself asked for it, and its controller finishing is what was asked.
 */
export function collateral(
  inventory: Inventory,
  o: KubeObject,
  object: (uid: string) => KubeObject | undefined,
  closed: (namespace: string | undefined) => boolean,
): boolean {
  if (o.namespace && closed(o.namespace)) return true;
  const { group } = splitApiVersion(o.apiVersion);
  const plural = group ? inventory.kinds.lookup(group, o.kind)?.plural : undefined;
  const crd = plural ? inventory.find('apiextensions.k8s.io', 'CustomResourceDefinition', '', `${plural}.${group}`) : undefined;
  return crd !== undefined && object(crd.uid)?.deletionTimestamp !== undefined;
}
