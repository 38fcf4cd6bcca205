// The catalogue of well-known finalizers: every entry well formed and citing its source, found for the object
// that holds it, and its controller recognised by its workload signature before the word guess.

import { describe, expect, it } from 'vitest';
import { catalogueEntry, FINALIZER_ACTIONS, FINALIZER_CATALOGUE } from '../../server/src/engine/simulation/finalizerCatalogue';
import { FinalizerOwners } from '../../server/src/engine/simulation/finalizerOwners';
import { deploy, manifests, namespace, workloadSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const PROJECTS = [
  'Argo CD',
  'Flux',
  'Crossplane',
  'cert-manager',
  'Rook',
  'Longhorn',
  'Strimzi',
  'Gatekeeper',
  'Rancher',
  'KubeVirt',
  'Istio',
  'Knative',
  'Velero',
  'external-secrets',
  'Karpenter',
  'AWS Load Balancer Controller',
  'Prometheus Operator',
  'OLM',
  'CloudNativePG',
];

describe('the finalizer catalogue', () => {
  it('every entry has a source path in a repository, a valid action, and says what it does and leaves behind', () => {
    for (const e of FINALIZER_CATALOGUE) {
      const where = `catalogue entry ${e.finalizer} (${e.project})`;
      expect(FINALIZER_ACTIONS, where).toContain(e.action);
      expect(e.source.repo, where).toMatch(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/);
      expect(e.source.path, where).toMatch(/^[\w./-]+\.(go|java)$/);
      if (e.source.commit !== undefined) expect(e.source.commit, where).toMatch(/^[0-9a-f]{40}$/);
      for (const text of [e.does, e.leavesBehind, e.controller]) expect(text.trim().length, where).toBeGreaterThan(0);
      for (const a of e.appliesTo ?? []) expect(a, where).toMatch(/^[a-z0-9.-]*\/(\*|[A-Z]\w*)$/);
    }
  });

  it('covers the projects whose finalizers most often hold deletions (MetalLB adds none)', () => {
    const covered = new Set(FINALIZER_CATALOGUE.map((e) => e.project.replace(/ \(.*\)$/, '')));
    for (const p of PROJECTS) expect(covered, p).toContain(p);
  });

  it('finds the entry for the object that holds it: one finalizer, a controller per kind', () => {
    const f = 'finalizers.fluxcd.io';
    expect(catalogueEntry(f, { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization' })?.action).toBe('cascade-deletes');
    expect(catalogueEntry(f, { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository' })?.action).toBe('nothing');
    expect(
      catalogueEntry('resources-finalizer.argocd.argoproj.io', { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject' })?.action,
    ).toBe('nothing');
    // A pattern: Rook names the finalizer after the kind.
    expect(catalogueEntry('cephblockpool.ceph.rook.io', { apiVersion: 'ceph.rook.io/v1', kind: 'CephBlockPool' })?.project).toBe('Rook');
    expect(catalogueEntry('example.com/hold', { apiVersion: 'v1', kind: 'ConfigMap' })).toBeUndefined();
  });

  it("recognises a catalogued finalizer's controller by its usual name and image, before the word guess", () => {
    const image = 'ghcr.io/fluxcd/kustomize-controller:v1.3.0';
    const s = scenario(
      manifests(
        namespace('flux-system'),
        // Shares the words "fluxcd" with the finalizer: the guess would pick it.
        deploy('fluxcd-notification-controller', 'flux-system', {
          extra: { spec: workloadSpec({ app: 'n' }, [{ name: 'm', image: 'ghcr.io/fluxcd/notification-controller:v1' }]) },
        }),
        deploy('kustomize-controller', 'flux-system', { extra: { spec: workloadSpec({ app: 'k' }, [{ name: 'manager', image }]) } }),
      ),
    );
    const owners = new FinalizerOwners((kind) => s.inventory.ofKind(kind));
    const owner = owners.ownerOf('finalizers.fluxcd.io', { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization' });
    expect(owner).toMatchObject({ type: 'workload', how: 'catalogued', workload: { name: 'kustomize-controller' } });
    expect(owner.type === 'workload' && owner.why).toBe("Flux's kustomize-controller runs in it");
    // Nothing in the input runs it: the guess, as before.
    const none = new FinalizerOwners(() => []);
    expect(none.ownerOf('finalizers.fluxcd.io').type).toBe('absent');
  });
});
