// Who removes a finalizer. Built-in finalizers belong to known controllers; a custom finalizer belongs to
// the workload configured for it, or else to our best guess: the workload whose name, namespace, labels or
// images share the most words with the finalizer's domain (and with CRD groups sharing that domain). A guess counts
// only words specific to one workload: not an image's registry host, nor a word most workloads share (a company's
// domain, its image organisation). A finalizer of the catalogue (finalizerCatalogue.ts) belongs first to the workload
// its controller's signature recognises.

import { describe, isGcFinalizer, type KubeObject, type ObjectIdentity, identityOf } from '../model';
import {
  catalogueDependsOnKind,
  catalogueEntries,
  catalogueEntry,
  controllerOf,
  hasCatalogueName,
  runsCatalogueImage,
} from './finalizerCatalogue';
import type { FinalizerOwnerRule } from './types';

export type FinalizerOwner =
  | { type: 'gc' } // orphan, foregroundDeletion
  | { type: 'builtin'; controller: string; kcm?: string } // a kube-controller-manager (kcm: its --controllers name) or apiserver controller
  | { type: 'workload'; workload: ObjectIdentity; how: 'configured' | 'catalogued' | 'guessed'; why: string }
  | { type: 'external'; how: 'configured' | 'restored' }
  | { type: 'absent'; how: 'configured' | 'unknown'; why: string; guessed?: ObjectIdentity }; // guessed: not trusted

/** Finalizers that Kubernetes' own controllers remove: which one does, and its kube-controller-manager name. */
const BUILTIN_FINALIZERS: Record<string, { controller: string; kcm?: string }> = {
  'kubernetes.io/pvc-protection': { controller: 'pvc-protection-controller', kcm: 'persistentvolumeclaim-protection-controller' },
  'kubernetes.io/pv-protection': { controller: 'pv-protection-controller', kcm: 'persistentvolume-protection-controller' },
  'customresourcecleanup.apiextensions.k8s.io': { controller: 'apiextensions-apiserver' },
  'batch.kubernetes.io/job-tracking': { controller: 'job-controller', kcm: 'job-controller' },
  // A CSI external-provisioner's (R81): assumed to run in a real cluster, never part of a kube-controller-manager list.
  'external-provisioner.volume.kubernetes.io/finalizer': { controller: 'external-provisioner' },
  // The cloud-controller-manager's, not kube-controller-manager's.
  'service.kubernetes.io/load-balancer-cleanup': { controller: 'service-controller' },
  'kubernetes.io/legacy-token-invalidation': {
    controller: 'legacy-serviceaccount-token-cleaner',
    kcm: 'legacy-serviceaccount-token-cleaner-controller',
  },
  'resource.kubernetes.io/delete-protection': { controller: 'resourceclaim-controller', kcm: 'resourceclaim-controller' },
};

export const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/**
 * How a user names a finalizer's owner, said where no owner is known or one is guessed: each front end its own (the
 * CLI its --finalizer-owner flag); this default is the editor's setting.
 */
export const DEFAULT_FINALIZER_OWNER_HINT = 'set kubeGcLens.finalizerOwners';

const STOP_WORDS = new Set([
  'io',
  'com',
  'org',
  'net',
  'sh',
  'dev',
  'cloud',
  'x',
  'k8s',
  'kubernetes',
  'finalizer',
  'finalizers',
  'operator',
  'controller',
  'controllers',
  'core',
  'www',
  'apps',
  'app',
  'api',
  'cleanup',
  'protection',
  'v1',
  'latest',
  'docker',
  'quay',
  'gcr',
  'ghcr',
  'registry',
  'ecr',
  'amazonaws',
  'azurecr',
  'image',
  'images',
  'system',
  'default',
  'manager',
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w) && !/^v?\d+$/.test(w));
}

/**
 * An image reference's repository path, without its registry host, tag or digest: where an image is stored says
 * nothing of what it runs. The first component is a host when it holds a `.` or a `:`, or is `localhost` (the
 * reference grammar of distribution/reference).
 */
export function imageRepositoryPath(image: string): string {
  const path = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  const slash = path.indexOf('/');
  if (slash < 0) return path;
  const first = path.slice(0, slash);
  return /[.:]/.test(first) || first === 'localhost' ? path.slice(slash + 1) : path;
}

/** The texts of a workload a guess reads, each with its weight: name 3, images 2, naming labels and namespace 1. */
function workloadTexts(w: KubeObject): [string, number][] {
  const texts: [string, number][] = [[w.name, 3]];
  for (const image of w.facts.images ?? []) texts.push([imageRepositoryPath(image), 2]);
  for (const [k, v] of Object.entries(w.labels ?? {})) if (/name|part-of|app|component/.test(k)) texts.push([v, 1]);
  if (w.namespace) texts.push([w.namespace, 1]);
  return texts;
}

/**
 * Words that most candidate workloads share (in three or more, and in more than half of them): no evidence that one
 * of them removes a finalizer. Two workloads sharing a word is no pattern: it may be the very word that names them.
 */
function commonWords(candidates: readonly KubeObject[]): Set<string> {
  const counts = new Map<string, number>();
  for (const w of candidates) {
    const own = new Set(workloadTexts(w).flatMap(([text]) => words(text)));
    for (const word of own) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const common = new Set<string>();
  for (const [word, n] of counts) if (n >= 3 && n * 2 > candidates.length) common.add(word);
  return common;
}

export class FinalizerOwners {
  private readonly cache = new Map<string, FinalizerOwner>();
  private readonly workloads: KubeObject[];
  private readonly crdGroups: { group: string; kind: string }[];
  private common?: Set<string>;

  /** `ofKind` lists the objects of one kind (an index, so this does not scan the input). */
  constructor(
    ofKind: (kind: string) => Iterable<KubeObject>,
    private readonly rules: FinalizerOwnerRule[] = [],
    /** Front-end words: "pass --finalizer-owner …", "set kubeGcLens.finalizerOwners". */
    readonly hint: string = DEFAULT_FINALIZER_OWNER_HINT,
    /** false: a guessed owner is reported but counts as nobody (SimulationOptions.trustGuesses). */
    private readonly trustGuesses = true,
  ) {
    this.workloads = [];
    this.crdGroups = [];
    for (const kind of WORKLOAD_KINDS) for (const o of ofKind(kind)) if (o.apiVersion === 'apps/v1') this.workloads.push(o);
    for (const o of ofKind('CustomResourceDefinition'))
      if (o.facts.crd) this.crdGroups.push({ group: o.facts.crd.group, kind: o.facts.crd.kind });
    this.workloads.sort((a, b) => (a.namespace + '/' + a.name).localeCompare(b.namespace + '/' + b.name));
  }

  /**
   * A copy for one simulation that restores a controller: the instance is cached per input and shared by every
   * simulation of it, so a restore must not reach the others (the workloads' scoring is shared, not redone).
   */
  scoped(): FinalizerOwners {
    return Object.assign(Object.create(FinalizerOwners.prototype) as FinalizerOwners, this, { cache: new Map(this.cache) });
  }

  /** The controller that removes `finalizer` runs again, from now on (a user's restore-controller request; see scoped). */
  restore(finalizer: string): void {
    this.cache.set(finalizer, { type: 'external', how: 'restored' });
  }

  /** Whether some finalizer resolved so far has a guessed owner that is trusted (a simulation may rest on it). */
  hasTrustedGuess(): boolean {
    for (const owner of this.cache.values()) if (owner.type === 'workload' && owner.how === 'guessed') return true;
    return false;
  }

  /** `of`: the object that holds it, for a catalogued finalizer whose controller depends on the object's kind. */
  ownerOf(finalizer: string, of?: { apiVersion: string; kind: string }): FinalizerOwner {
    const restored = this.cache.get(finalizer);
    if (restored?.type === 'external' && restored.how === 'restored') return restored;
    const key = of && catalogueDependsOnKind(finalizer) ? `${finalizer}\0${of.apiVersion}\0${of.kind}` : finalizer;
    let owner = this.cache.get(key);
    if (!owner) this.cache.set(key, (owner = this.resolve(finalizer, of)));
    return owner;
  }

  private resolve(finalizer: string, of?: { apiVersion: string; kind: string }): FinalizerOwner {
    if (isGcFinalizer(finalizer)) return { type: 'gc' };
    const rule = this.rules.find((r) =>
      r.finalizer.endsWith('*') ? finalizer.startsWith(r.finalizer.slice(0, -1)) : r.finalizer === finalizer,
    );
    if (rule) {
      if (rule.running === false) return { type: 'absent', how: 'configured', why: 'configured as not running' };
      if (rule.external) return { type: 'external', how: 'configured' };
      if (rule.workload) {
        const w = this.workloads.find(
          (o) => o.kind === rule.workload!.kind && o.namespace === rule.workload!.namespace && o.name === rule.workload!.name,
        );
        if (!w) return { type: 'absent', how: 'configured', why: `configured workload ${describe(rule.workload)} is not in the input` };
        return { type: 'workload', workload: identityOf(w), how: 'configured', why: `configured for ${rule.finalizer}` };
      }
    }
    const builtin = Object.hasOwn(BUILTIN_FINALIZERS, finalizer) ? BUILTIN_FINALIZERS[finalizer] : undefined;
    if (builtin) return { type: 'builtin', ...builtin };
    const catalogued = this.catalogued(finalizer, of);
    if (catalogued) return catalogued;
    const guess = this.guess(finalizer);
    if (this.trustGuesses || guess.type !== 'workload') return guess;
    return { type: 'absent', how: 'unknown', why: guess.why, guessed: guess.workload };
  }

  /** The workload the catalogue's signature (image, usual name) recognises as the finalizer's controller. */
  private catalogued(finalizer: string, of: { apiVersion: string; kind: string } | undefined): FinalizerOwner | undefined {
    const exact = catalogueEntry(finalizer, of);
    // Without the object, any controller the catalogue names for the finalizer. Its usual name first: a project's
    // components often share one image.
    const entries = exact ? [exact] : catalogueEntries(finalizer);
    for (const recognises of [
      (entry: (typeof entries)[number], o: KubeObject) =>
        hasCatalogueName(entry, o.name) && runsCatalogueImage(entry, o.facts.images ?? []),
      (entry: (typeof entries)[number], o: KubeObject) => hasCatalogueName(entry, o.name),
      (entry: (typeof entries)[number], o: KubeObject) => runsCatalogueImage(entry, o.facts.images ?? []),
    ])
      for (const entry of entries) {
        const w = this.workloads.find((o) => recognises(entry, o));
        if (w) return { type: 'workload', workload: identityOf(w), how: 'catalogued', why: `${controllerOf(entry)} runs in it` };
      }
    return undefined;
  }

  /** The documented default guess (README, "Which controller removes a custom finalizer"). */
  private guess(finalizer: string): FinalizerOwner {
    const slash = finalizer.indexOf('/');
    const domain = slash < 0 ? finalizer : finalizer.slice(0, slash);
    const wanted = new Set(words(domain));
    // CRD groups in the finalizer's domain add their kinds' words (an operator is often named after them).
    for (const crd of this.crdGroups) {
      if (crd.group === domain || domain.endsWith('.' + crd.group) || crd.group.endsWith('.' + domain)) {
        for (const w of words(crd.kind)) wanted.add(w);
      }
    }
    if (wanted.size === 0) return { type: 'absent', how: 'unknown', why: `no words to match in "${finalizer}"` };
    const customKinds = new Set(this.crdGroups.map((c) => c.kind));
    // A workload owned by a custom resource is an operand the operator made, not the operator.
    const candidates = this.workloads.filter((w) => !w.ownerReferences.some((r) => customKinds.has(r.kind)));
    this.common ??= commonWords(candidates);
    for (const word of this.common) wanted.delete(word);
    if (wanted.size === 0)
      return { type: 'absent', how: 'unknown', why: `every word of "${domain}" is one most workloads share (${this.hint} to name it)` };
    let best: { w: KubeObject; score: number; hits: string[] } | undefined;
    for (const w of candidates) {
      const hits = new Set<string>();
      let score = 0;
      for (const [text, weight] of workloadTexts(w))
        for (const word of words(text))
          if (wanted.has(word) && !hits.has(`${weight}:${word}`)) {
            hits.add(`${weight}:${word}`);
            score += weight;
          }
      if (score === 0) continue;
      // Prefer the workload that looks like a controller when scores tie.
      const controllerish = /operator|controller|manager/.test(w.name) ? 2 : 0;
      if (!best || score + controllerish > best.score)
        best = { w, score: score + controllerish, hits: [...hits].map((h) => h.split(':')[1]) };
    }
    if (!best) {
      return { type: 'absent', how: 'unknown', why: `no workload in the input matches "${domain}" (${this.hint} to name it)` };
    }
    return {
      type: 'workload',
      workload: identityOf(best.w),
      how: 'guessed',
      why: `guessed from the words ${[...new Set(best.hits)].map((h) => `"${h}"`).join(', ')} shared by "${finalizer}" and ${describe(best.w)}`,
    };
  }
}
