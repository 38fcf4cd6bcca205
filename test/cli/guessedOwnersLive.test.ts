// `kubectl gc stuck` on a cluster (the API test server, in process) where a custom finalizer's controller runs nowhere:
// read with every namespace, an unrelated Deployment could be guessed to remove it; the stuck list is the same as
// when only the namespace is read, never emptied by the guess.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { runCli } from '../helpers/cliProcess';
import { deployment, ns, seedShop } from '../cluster/clusterFixtures';

const FINALIZER = 'bank.example.com/close-ledger';
let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'guess-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-guess-live-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'payments' });
  seedShop(server);
  const storefront = deployment('web', 'storefront', 'd-storefront');
  storefront.spec.template.spec.containers[0].image = 'registry.example/storefront:1.4';
  server.add(ns('web', 'ns-web'));
  server.add(storefront);
  server.add({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'ledgers.bank.example.com', uid: 'crd-ledgers' },
    spec: {
      group: 'bank.example.com',
      scope: 'Namespaced',
      names: { plural: 'ledgers', singular: 'ledger', kind: 'Ledger', listKind: 'LedgerList' },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  });
  const deleted = '2026-11-20T09:00:00Z';
  server.add({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'payments', uid: 'ns-payments', creationTimestamp: '2026-11-20T08:00:00Z', deletionTimestamp: deleted },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Terminating' },
  });
  server.add({
    apiVersion: 'bank.example.com/v1',
    kind: 'Ledger',
    metadata: { name: 'main', namespace: 'payments', uid: 'ledger-main', deletionTimestamp: deleted, finalizers: [FINALIZER] },
  });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Item {
  kind: string;
  name: string;
  state: string;
  guess?: string;
}

async function stuck(scope: string[]): Promise<Item[]> {
  const r = await runCli(['stuck', ...scope, '-o', 'json'], { KUBECONFIG: kubeconfig });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { stuck: Item[] }).stuck;
}

describe('stuck with a custom finalizer nobody runs', () => {
  it('lists the Ledger and its Namespace whether every namespace is read (-A) or only payments (-n payments)', async () => {
    const all = await stuck(['-A']);
    const one = await stuck(['-n', 'payments']);
    const listed = (items: Item[]) => items.map((i) => `${i.state} ${i.kind}/${i.name}`).sort();
    expect(listed(one)).toEqual(['stuck Ledger/main', 'stuck Namespace/payments']);
    expect(listed(all)).toEqual(listed(one));
    // Read with every namespace, what a guess may finish says so; no guess is made from the registry host.
    for (const i of all.filter((x) => x.guess !== undefined)) expect(i.guess).not.toMatch(/storefront/);
    expect(server.writes()).toBe(0);
  });

  it('as text, says what is not proven', async () => {
    const r = await runCli(['stuck', '-A'], { KUBECONFIG: kubeconfig });
    expect(r.stdout).toMatch(/^Stuck \(2 of 2 terminating; controllers: builtin\)/);
    // The Deployment whose image path holds the company's word is only a guess: shown as such, under both objects.
    expect(
      r.stdout.match(/\n {4}not proven to finish: finishes if Deployment shop\/web is its controller \(guessed from the words "example"/g),
    ).toHaveLength(2);
  });
});
