// A custom finalizer's owner is guessed from words specific to it, never from a registry host or a word most workloads
// share; what finishes only if a guess is right is listed with that guess, never dropped from the stuck list.

import { describe, expect, it } from 'vitest';
import { terminatingItems } from '../../server/src/app/stuck';
import { finalizerOwnersFor } from '../../server/src/engine/simulation/startState';
import { imageRepositoryPath } from '../../server/src/engine/simulation/finalizerOwners';
import { deploy, manifests, namespace, obj, TERMINATING, workloadSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const LEDGER = 'bank.example.com/close-ledger';
const payments = namespace('payments', { ...TERMINATING, phase: 'Terminating' });
const ledger = obj('bank.example.com/v1', 'Ledger', 'payments', 'main', { finalizers: [LEDGER], ...TERMINATING });
const workload = (name: string, ns: string, image: string) =>
  deploy(name, ns, { extra: { spec: workloadSpec({ app: name }, [{ name: 'c', image }]) } });

describe('the guess of a custom finalizer’s owner counts only words specific to it', () => {
  it('an image’s registry host is not evidence: registry.example says nothing of what the image runs', () => {
    const s = scenario(manifests(payments, ledger, namespace('web'), workload('storefront', 'web', 'registry.example/storefront:1.4')));
    expect(finalizerOwnersFor(s.inventory).ownerOf(LEDGER)).toMatchObject({ type: 'absent', how: 'unknown' });
  });

  it('a word most workloads share (the company’s image organisation) is not evidence; a specific word still is', () => {
    const company = ['cart', 'search', 'checkout'].map((n) => workload(n, 'web', `docker.io/example/${n}:2`));
    const shared = scenario(manifests(payments, ledger, namespace('web'), ...company));
    expect(finalizerOwnersFor(shared.inventory).ownerOf(LEDGER)).toMatchObject({ type: 'absent', how: 'unknown' });
    const operator = workload('bank-ledger-operator', 'ops', 'docker.io/example/bank-ledger-operator:1');
    const specific = scenario(manifests(payments, ledger, namespace('web'), namespace('ops'), ...company, operator));
    expect(finalizerOwnersFor(specific.inventory).ownerOf(LEDGER)).toMatchObject({
      type: 'workload',
      how: 'guessed',
      workload: { kind: 'Deployment', namespace: 'ops', name: 'bank-ledger-operator' },
      why: 'guessed from the words "bank" shared by "bank.example.com/close-ledger" and Deployment ops/bank-ledger-operator',
    });
  });

  it('reads an image reference as distribution/reference does', () => {
    expect(imageRepositoryPath('quay.io/strimzi/operator:0.40')).toBe('strimzi/operator');
    expect(imageRepositoryPath('localhost:5000/team/app@sha256:abc')).toBe('team/app');
    expect(imageRepositoryPath('example/web:1')).toBe('example/web');
    expect(imageRepositoryPath('busybox')).toBe('busybox');
  });
});

describe('what finishes only if a guess is right', () => {
  it('is listed, the custom resource and its namespace, with the guess as its verdict and the ways out with no guess trusted', () => {
    const gateway = workload('bank-gateway', 'web', 'registry.example/gateway:3');
    const s = scenario(manifests(payments, ledger, namespace('web'), gateway));
    const items = terminatingItems(s.inventory, BUILTIN, undefined);
    expect(items.map((i) => [i.kind, i.name, i.state])).toEqual([
      ['Namespace', 'payments', 'stuck'],
      ['Ledger', 'main', 'stuck'],
    ]);
    const verdict =
      'finishes if Deployment web/bank-gateway is its controller (guessed from the words "bank" shared by "bank.example.com/close-ledger" and Deployment web/bank-gateway)';
    for (const i of items) expect(i.guess).toBe(verdict);
    expect(items.map((i) => i.reason)).toEqual([
      `Not proven to finish: Namespace payments waits for Ledger payments/main, which ${verdict}`,
      `Not proven to finish: Ledger payments/main ${verdict}`,
    ]);
    expect(items[1].blockedBy[0]).toMatchObject({ type: 'finalizer', finalizer: LEDGER, message: verdict });
    expect(items[1].waysOut?.map((w) => w.title)).toContain(`Remove the finalizer ${LEDGER} from Ledger payments/main`);
  });

  it('is not listed twice when nothing but a guess is involved and the guess is configured instead', () => {
    const gateway = workload('bank-gateway', 'web', 'registry.example/gateway:3');
    const s = scenario(manifests(payments, ledger, namespace('web'), gateway));
    const configured = {
      controllers: 'builtin',
      finalizerOwners: [{ finalizer: LEDGER, workload: { kind: 'Deployment', namespace: 'web', name: 'bank-gateway' } }],
    };
    expect(terminatingItems(s.inventory, configured, undefined)).toEqual([]);
  });
});
