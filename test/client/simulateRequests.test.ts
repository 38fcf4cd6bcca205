// What the client does with a "Simulate …" code action's argument and a way out's Open Simulated Report
// (client/src/logic/simulateRequests.ts): which arguments it accepts (the server's, checked like any message), the
// replica count a scale asks for, and which way-out rows open a report.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIMULATE_REQUESTS_COMMAND, type WayOut } from '../../shared/src/protocol';
import {
  OPEN_WAY_OUT_REPORT,
  parseSimulateRequestsArgs,
  replicasProblem,
  scaleRequest,
  targetName,
  wayOutTarget,
} from '../../client/src/logic/simulateRequests';

const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kafka', name: 'strimzi-cluster-operator' };
const REMOVE = { verb: 'remove-finalizer', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'held', finalizer: 'f' } as const;

describe('the Simulate command argument', () => {
  it('takes requests on the workspace (the default) or the live cluster', () => {
    expect(parseSimulateRequestsArgs({ requests: [REMOVE] })).toEqual({ source: 'workspace', requests: [REMOVE] });
    expect(parseSimulateRequestsArgs({ source: 'cluster', requests: [REMOVE] })).toEqual({ source: 'cluster', requests: [REMOVE] });
    expect(parseSimulateRequestsArgs({ source: 'elsewhere', requests: [REMOVE] })).toMatchObject({ source: 'workspace' });
  });

  it('takes a workload to scale, with the count to suggest (0 when it says none that fits)', () => {
    expect(parseSimulateRequestsArgs({ source: 'cluster', scale: DEPLOYMENT, replicas: 1 })).toEqual({
      source: 'cluster',
      scale: DEPLOYMENT,
      replicas: 1,
    });
    const { namespace: _, ...clusterWide } = DEPLOYMENT;
    expect(parseSimulateRequestsArgs({ scale: { ...clusterWide, extra: 'x' } })).toEqual({
      source: 'workspace',
      scale: clusterWide,
      replicas: 0,
    });
    expect(parseSimulateRequestsArgs({ scale: DEPLOYMENT, replicas: -2 })).toMatchObject({ replicas: 0 });
    expect(parseSimulateRequestsArgs({ scale: DEPLOYMENT, replicas: 1.5 })).toMatchObject({ replicas: 0 });
  });

  it('refuses anything else: it may come from a command link', () => {
    for (const bad of [
      undefined,
      null,
      'uid',
      [REMOVE],
      {},
      { requests: [] },
      { requests: REMOVE },
      { requests: [{ ...REMOVE, finalizer: 5 }] },
      { requests: [{ ...REMOVE, verb: 'delete-everything' }] },
      { requests: Array.from({ length: 101 }, () => REMOVE) },
      { scale: 'deploy/web' },
      { scale: { ...DEPLOYMENT, name: '' } },
      { scale: { kind: 'Deployment', name: 'web' } },
    ])
      expect(parseSimulateRequestsArgs(bad), JSON.stringify(bad)).toBeUndefined();
  });

  it('is the command the server names', () => {
    expect(SIMULATE_REQUESTS_COMMAND).toBe('kubeGcLens.simulateRequests');
    const extension = readFileSync(path.resolve(__dirname, '../../client/src/extension.ts'), 'utf8').replace(/\s+/g, '');
    expect(extension).toContain(`registerCommand('${SIMULATE_REQUESTS_COMMAND}'`);
  });
});

describe('the replica count a scale asks for', () => {
  it('is a whole number, 0 or more, at most an int32', () => {
    for (const ok of ['0', '1', ' 3 ', '2147483647']) expect(replicasProblem(ok), ok).toBeUndefined();
    for (const bad of ['', ' ', '-1', '1.5', '1e3', 'two', '0x10', '2147483648'])
      expect(replicasProblem(bad), bad).toMatch(/^(A whole number of replicas, 0 or more|At most 2147483647 replicas)$/);
  });

  it('becomes a plan entry, and the question names the workload', () => {
    expect(scaleRequest(DEPLOYMENT, ' 2 ')).toEqual({ verb: 'scale', ...DEPLOYMENT, replicas: 2 });
    expect(targetName(DEPLOYMENT)).toBe('Deployment kafka/strimzi-cluster-operator');
    expect(targetName({ apiVersion: 'v1', kind: 'Namespace', name: 'kafka' })).toBe('Namespace kafka');
  });
});

describe("a way out's Open Simulated Report", () => {
  const way = (requests?: WayOut['requests']): WayOut => ({
    title: 'Remove the finalizer f from ConfigMap shop/held',
    risk: 'dangerous',
    command: 'kubectl patch …',
    ...(requests ? { requests } : {}),
    outcome: { summary: 's', counts: { deletedByKind: {}, orphaned: 0, stuck: 0 }, deleted: [], orphaned: [], stuck: [], notes: [] },
  });

  it("simulates its requests where it was found; a row without requests (an older server's) opens nothing", () => {
    expect(wayOutTarget(way([REMOVE]), false)).toEqual({ source: 'workspace', requests: [REMOVE] });
    expect(wayOutTarget(way([REMOVE]), true)).toEqual({ source: 'cluster', requests: [REMOVE] });
    expect(wayOutTarget(way(), true)).toBeUndefined();
    expect(wayOutTarget(way([]), true)).toBeUndefined();
    expect(wayOutTarget(undefined, false)).toBeUndefined();
  });

  it("is in every way-out row's context menu, inline too, and hidden from the palette", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
    const menu = pkg.contributes.menus['view/item/context'].filter((e: { command: string }) => e.command === OPEN_WAY_OUT_REPORT);
    expect(menu.map((e: { group: string }) => e.group)).toEqual(['inline@0', 'navigation@0']);
    for (const e of menu) expect(e.when).toBe('view == kubeGcLens.stuckObjects && viewItem =~ /^wayOut/');
    expect(pkg.contributes.menus.commandPalette).toContainEqual({ command: OPEN_WAY_OUT_REPORT, when: 'false' });
    expect(pkg.contributes.commands).toContainEqual(
      expect.objectContaining({ command: OPEN_WAY_OUT_REPORT, title: 'Open Simulated Report' }),
    );
  });
});
