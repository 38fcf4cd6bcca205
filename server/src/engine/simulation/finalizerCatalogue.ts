// Well-known finalizers: who removes each, what that controller does first, and what removing it by hand leaves
// behind. The entries are data read from each project's own source (finalizerCatalogueData.ts, each citing the
// file that removes it); this module only finds the entry of a finalizer on an object.

import { splitApiVersion } from '../model';
import { FINALIZER_CATALOGUE_DATA } from './finalizerCatalogueData/index';

/** What the controller does before it removes the finalizer. */
export type FinalizerAction = 'nothing' | 'cleans-cluster' | 'deletes-external' | 'cascade-deletes';

export const FINALIZER_ACTIONS: readonly FinalizerAction[] = ['nothing', 'cleans-cluster', 'deletes-external', 'cascade-deletes'];

export interface CatalogueWorkload {
  /** Parts of the image repository (no registry or tag needed): `argoproj/argocd`, `upbound/provider-`. */
  readonly images: readonly string[];
  /** The usual Deployment, StatefulSet or DaemonSet names. */
  readonly names?: readonly string[];
}

export interface FinalizerCatalogueEntry {
  /** The finalizer; `*` stands for any run of characters (`*.ceph.rook.io`, `controller.cattle.io/*`). */
  readonly finalizer: string;
  /** `group/Kind` (`*` for any kind of the group; `/Node` for a core kind) of the objects it means this on. */
  readonly appliesTo?: readonly string[];
  readonly project: string;
  /** The controller that removes it, as its project names it. */
  readonly controller: string;
  readonly workload: CatalogueWorkload;
  readonly action: FinalizerAction;
  /** What the controller does before removing it: a phrase after "it" ("deletes every resource …"). */
  readonly does: string;
  /** What changes that (a variant of the finalizer, a field of the object). */
  readonly variants?: string;
  /** What removing it by hand leaves behind. */
  readonly leavesBehind: string;
  /** The code that removes it. */
  readonly source: { readonly repo: string; readonly path: string; readonly commit?: string };
}

export const DESTRUCTIVE_ACTIONS: ReadonlySet<FinalizerAction> = new Set(['deletes-external', 'cascade-deletes']);

/** The catalogue, typed: its data holds nothing but entries. */
export const FINALIZER_CATALOGUE: readonly FinalizerCatalogueEntry[] = FINALIZER_CATALOGUE_DATA;

const patternCache = new Map<string, RegExp>();

function matches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp('^' + pattern.split('*').map(escapeRegExp).join('.*') + '$');
    patternCache.set(pattern, re);
  }
  return re.test(value);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function appliesTo(entry: FinalizerCatalogueEntry, of: { apiVersion: string; kind: string } | undefined): boolean {
  if (!entry.appliesTo) return true;
  if (!of) return false;
  const { group } = splitApiVersion(of.apiVersion);
  return entry.appliesTo.some((a) => {
    const slash = a.lastIndexOf('/');
    return a.slice(0, slash) === group && (a.slice(slash + 1) === '*' || a.slice(slash + 1) === of.kind);
  });
}

/**
 * The catalogue's entry for `finalizer` on an object of `of`'s kind: an exact name before a pattern, and without
 * `of` only an entry that holds for every kind. Undefined for a finalizer the catalogue does not know.
 */
export function catalogueEntry(
  finalizer: string,
  of?: { apiVersion: string; kind: string },
  catalogue: readonly FinalizerCatalogueEntry[] = FINALIZER_CATALOGUE,
): FinalizerCatalogueEntry | undefined {
  const fits = (e: FinalizerCatalogueEntry) => matches(e.finalizer, finalizer) && appliesTo(e, of);
  return catalogue.find((e) => e.finalizer === finalizer && fits(e)) ?? catalogue.find((e) => e.finalizer.includes('*') && fits(e));
}

/** Whether the catalogue has an entry for `finalizer` that depends on the object's kind. */
export function catalogueDependsOnKind(finalizer: string, catalogue: readonly FinalizerCatalogueEntry[] = FINALIZER_CATALOGUE): boolean {
  return catalogue.some((e) => e.appliesTo !== undefined && matches(e.finalizer, finalizer));
}

/** Every entry that could hold for `finalizer`, whatever the kind: the workloads that may remove it. */
export function catalogueEntries(
  finalizer: string,
  catalogue: readonly FinalizerCatalogueEntry[] = FINALIZER_CATALOGUE,
): FinalizerCatalogueEntry[] {
  return catalogue.filter((e) => matches(e.finalizer, finalizer));
}

/** Whether a workload has the usual name of the entry's controller. */
export const hasCatalogueName = (entry: FinalizerCatalogueEntry, name: string): boolean => entry.workload.names?.includes(name) === true;

/** Whether a workload runs the image of the entry's controller (several components of a project may share it). */
export function runsCatalogueImage(entry: FinalizerCatalogueEntry, images: readonly string[]): boolean {
  return images.some((image) => {
    const repository = image.replace(/@sha256:.*$/, '').replace(/:[^/:]*$/, '');
    return entry.workload.images.some((part) => repository.includes(part));
  });
}

/** "Argo CD's application controller", for sentences. */
export const controllerOf = (e: FinalizerCatalogueEntry) => `${e.project}'s ${e.controller}`;
