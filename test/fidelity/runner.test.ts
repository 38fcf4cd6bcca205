// The differential check's own logic, without a control plane: the generator is reproducible and covers what
// issue 15 names, and a race the simulation declares excuses only the objects it can reach.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../testkit/cluster/seedCluster';
import { generateScenario, type Scenario } from './generateScenario';
import { raceReach, simulateWorld } from './runScenario';

describe('generateScenario', () => {
  it('gives the same scenario for the same seed', () => {
    expect(generateScenario(4242)).toEqual(generateScenario(4242));
    expect(generateScenario(4242)).not.toEqual(generateScenario(4243));
  });

  it('over many seeds, writes Pods in every phase, scheduled or not, some mounting a claim', () => {
    const pods = Array.from({ length: 300 }, (_, i) => generateScenario(i + 1)).flatMap((s) => s.objects.filter((o) => o.kind === 'Pod'));
    expect(new Set(pods.map((p) => p.status?.phase ?? 'none'))).toEqual(new Set(['none', 'Running', 'Succeeded', 'Failed']));
    expect(pods.some((p) => p.spec.nodeName) && pods.some((p) => !p.spec.nodeName)).toBe(true);
    expect(pods.some((p) => p.spec.volumes?.[0]?.persistentVolumeClaim)).toBe(true);
  });

  it("keeps each seed's objects, references and requests from before phases were generated (their own stream)", () => {
    // Fingerprints taken with the generator as it was before phases: the seeds the regressions name still replay.
    const withoutPhases = (s: Scenario) => JSON.stringify({ ...s, objects: s.objects.map(({ status: _status, ...rest }) => rest) });
    const fingerprint = (seed: number) =>
      createHash('sha256')
        .update(withoutPhases(generateScenario(seed)))
        .digest('hex')
        .slice(0, 16);
    expect([1, 221, 697, 1130].map(fingerprint)).toEqual(['04e02e830f17876a', 'a7c2e214fb7f00bd', 'ab6c7d11663bd16d', '0d3f57a32b49541b']);
  });
});

describe('raceReach', () => {
  const o = (kind: string, name: string, uid: string, owners: string[] = []): Manifest => ({
    apiVersion: 'v1',
    kind,
    metadata: {
      name,
      namespace: 'ns',
      uid,
      ownerReferences: owners.map((u) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: u })),
    },
  });
  const world = [
    o('ConfigMap', 'owner', 'u1'),
    o('ConfigMap', 'dependent', 'u2', ['u1']),
    o('Secret', 'below', 'u3', ['u2']),
    o('ConfigMap', 'owner-2', 'u4'),
    o('ConfigMap', 'elsewhere', 'u5', ['u4']),
  ];

  it('reaches the named object and everything connected to it by ownership, and nothing else', () => {
    const notes = ['Timing-dependent: ConfigMap ns/dependent does not block its owner ConfigMap owner …'];
    expect([...raceReach(world, notes)].sort()).toEqual(['u1', 'u2', 'u3']);
  });

  it('does not take a name for the start of a longer one, nor a note that is not about timing', () => {
    expect(raceReach(world, ['Timing-dependent: ConfigMap ns/owner-2x …']).size).toBe(0);
    expect(raceReach(world, ['Blocked: ConfigMap ns/owner …']).size).toBe(0);
    expect([...raceReach(world, ['Timing-dependent: ConfigMap ns/owner-2 stops waiting'])].sort()).toEqual(['u4', 'u5']);
  });
});

describe('simulateWorld', () => {
  it('knows the fidelity CRDs, as discovery tells the live path: a Widget the GC has just deleted is a dangling owner', () => {
    // Seed 685 in CI: the world was read back after the GC deleted widget w and before it patched the Pod's reference.
    const world: Manifest[] = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'solid', namespace: 'ns', uid: 'u-solid' } },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'p',
          namespace: 'ns',
          uid: 'u-p',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'solid', uid: 'u-solid' },
            { apiVersion: 'fidelity.kube-gc-lens.test/v1', kind: 'Widget', name: 'w', uid: 'u-w' },
          ],
        },
      },
    ];
    const result = simulateWorld(world, [], 'gc');
    expect(result.remaining.find((r) => r.uid === 'u-p')?.ownerReferences.map((r) => r.uid)).toEqual(['u-solid']);
  });
});
