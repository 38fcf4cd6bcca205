// A terminating Namespace's status.conditions, as kube-controller-manager's namespace deleter writes them
// (pkg/controller/namespace/deletion): observed facts the why-chain reports beside what the simulation leaves
// inside, and the two failures (discovery, group/version parsing) that make every pass of the deleter end in an
// error, so it never removes "kubernetes" from spec.finalizers however empty the namespace is.

import { describe, expect, it } from 'vitest';
import type { NamespaceCondition } from '../../server/src/engine/model';
import type { BlockReason } from '../../server/src/engine/simulation/types';
import { DELETING, HOLD, cm, deploy, manifests, namespace, pod, type ObjectSpec } from '../helpers/manifests';
import { names, scenario } from '../helpers/scenario';

const T = '2026-11-14T09:12:50Z';
const cond = (type: string, status: 'True' | 'False', reason: string, message: string): NamespaceCondition => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: T,
});

/** What the deleter writes after a pass that found a Pod held by a finalizer, with discovery of metrics.k8s.io down. */
const STUCK_CONDITIONS = [
  cond(
    'NamespaceDeletionDiscoveryFailure',
    'True',
    'DiscoveryFailed',
    'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
  ),
  cond('NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'),
  cond('NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'),
  cond('NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: pods. has 1 resource instances'),
  cond(
    'NamespaceFinalizersRemaining',
    'True',
    'SomeFinalizersRemain',
    'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
  ),
];

function terminatingNamespace(conditions: NamespaceCondition[]): ObjectSpec {
  return namespace('team-a', { ...DELETING, extra: { status: { phase: 'Terminating', conditions } } });
}

/** A Pod held by a finalizer nobody removes: content that never goes. */
const HELD = pod('held', 'team-a', { ...DELETING, finalizers: ['example.com/hold'] });

const DELETE_NOTHING: never[] = [];

function namespaceEntry(yaml: string, controllers: 'builtin' | 'gc') {
  const s = scenario(yaml);
  const r = s.simulate(DELETE_NOTHING, { controllers });
  return { result: r, entry: r.stuck.find((e) => e.kind === 'Namespace') };
}

describe("a Namespace's status conditions in its why-chain", () => {
  it('are read from the manifest, every one in stored order', () => {
    const s = scenario(manifests(terminatingNamespace(STUCK_CONDITIONS)));
    expect(s.inventory.find('', 'Namespace', '', 'team-a')!.facts.namespaceConditions).toEqual(STUCK_CONDITIONS);
  });

  it('builtin: the namespace-content reason carries the conditions that hold (status True), beside what is left inside', () => {
    const { entry } = namespaceEntry(manifests(terminatingNamespace(STUCK_CONDITIONS), HELD), 'builtin');
    expect(entry).toBeDefined();
    const content = entry!.blockedBy.find((b) => b.type === 'namespace-content') as BlockReason;
    expect(content.conditions).toEqual([STUCK_CONDITIONS[0], STUCK_CONDITIONS[3], STUCK_CONDITIONS[4]]);
    // What the simulation leaves is still the engine's own account, with the object named.
    expect(content.message).toMatch(/^NamespaceContentRemaining: Some resources are remaining: pods has 1 resource instances/);
    // The condition read is quoted as the controller wrote it, its stray dot after a core resource kept.
    expect(content.conditions?.map((c) => c.message)).toContain('Some resources are remaining: pods. has 1 resource instances');
    expect(content.blockedBy?.map((b) => b.object?.name)).toEqual(['held']);
  });

  it('what is left is worded as the real deleter words its conditions, sorted, but for its stray dot after a core resource', () => {
    const yaml = manifests(
      terminatingNamespace([]),
      HELD,
      deploy('web', 'team-a', { ...DELETING, finalizers: ['b.example.com/keep'] }),
      cm('a', 'team-a', { ...DELETING, finalizers: [HOLD] }),
      cm('b', 'team-a', { ...DELETING, finalizers: ['b.example.com/keep'] }),
    );
    const content = namespaceEntry(yaml, 'builtin').entry!.blockedBy.find((b) => b.type === 'namespace-content')!;
    // The real controller writes "configmaps. has 1 resource instances" (`%s.%s` with the core group's ""), found on
    // kube-controller-manager v1.37.2; this sentence is the simulation's own, so core resources go without the dot.
    expect(content.message).toBe(
      'NamespaceContentRemaining: Some resources are remaining: configmaps has 2 resource instances, ' +
        'deployments.apps has 1 resource instances, pods has 1 resource instances. NamespaceFinalizersRemaining: Some content in the ' +
        'namespace has finalizers remaining: b.example.com/keep in 2 resource instances, example.com/hold in 2 resource instances',
    );
  });

  it('strict (gc): the namespace-controller reason carries them too', () => {
    const { entry } = namespaceEntry(manifests(terminatingNamespace(STUCK_CONDITIONS), HELD), 'gc');
    const reason = entry!.blockedBy.find((b) => b.type === 'namespace-controller')!;
    expect(reason.conditions?.map((c) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
  });

  it('no conditions, or none that hold: no conditions field (the JSON contract only grows where there is something)', () => {
    const allClear = STUCK_CONDITIONS.map((c) => ({ ...c, status: 'False' }));
    for (const conditions of [[], allClear]) {
      const { entry } = namespaceEntry(manifests(terminatingNamespace(conditions), HELD), 'builtin');
      expect(entry!.blockedBy.every((b) => !('conditions' in b))).toBe(true);
    }
  });
});

describe('the namespace controller and a reported discovery failure', () => {
  it('NamespaceDeletionDiscoveryFailure True: the content goes, the Namespace stays Terminating, and the note says why', () => {
    const conditions = [STUCK_CONDITIONS[0]];
    const s = scenario(manifests(terminatingNamespace(conditions), pod('web', 'team-a', { nodeName: 'node-1' })));
    const r = s.simulate(DELETE_NOTHING, { controllers: 'builtin' });
    expect(names(r.deleted)).toEqual(['Pod/web']);
    expect(names(r.stuck)).toEqual(['Namespace/team-a']);
    expect(r.stuck[0].blockedBy).toEqual([
      {
        type: 'namespace-controller',
        finalizer: 'kubernetes',
        controller: 'namespace-controller',
        message: expect.stringMatching(
          /^its content is gone, but the namespace controller reports NamespaceDeletionDiscoveryFailure \(DiscoveryFailed\): Discovery failed for some groups, 1 failing: .*metrics\.k8s\.io\/v1beta1; each of its passes ends in that error, so it never removes "kubernetes" from spec\.finalizers until the failure clears$/,
        ),
        conditions,
      },
    ]);
    expect(r.notes).toContainEqual(
      expect.stringMatching(
        /^Assumed: Namespace team-a stays Terminating while its namespace controller keeps reporting NamespaceDeletionDiscoveryFailure/,
      ),
    );
  });

  it('NamespaceDeletionGroupVersionParsingFailure True blocks the same way', () => {
    const conditions = [
      cond('NamespaceDeletionGroupVersionParsingFailure', 'True', 'GroupVersionParsingFailed', 'unexpected GroupVersion string: /v1/x'),
    ];
    const r = scenario(manifests(terminatingNamespace(conditions))).simulate(DELETE_NOTHING, { controllers: 'builtin' });
    expect(names(r.stuck)).toEqual(['Namespace/team-a']);
    expect(r.stuck[0].blockedBy[0]).toMatchObject({ type: 'namespace-controller', conditions });
  });

  it('the all-clear (False) conditions, and a content failure alone, do not: the empty Namespace is finalized and removed', () => {
    const failure = cond(
      'NamespaceDeletionContentFailure',
      'True',
      'ContentDeletionFailed',
      'Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook',
    );
    for (const conditions of [STUCK_CONDITIONS.map((c) => ({ ...c, status: 'False' })), [failure]]) {
      const r = scenario(manifests(terminatingNamespace(conditions))).simulate(DELETE_NOTHING, { controllers: 'builtin' });
      expect(names(r.deleted)).toEqual(['Namespace/team-a']);
      expect(r.stuck).toEqual([]);
    }
  });
});
