// Namespace blockers outside ownership, live (issue 18): the APIServices and webhook configurations are read in full
// only once something is terminating (or before a simulation), then the Service and EndpointSlices of only the
// Services they name, with GET requests only; the why-chain names them, and the facts follow the watch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveCluster } from '../../server/src/sources/cluster/liveCluster';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { ACCEPT_OBJECTS } from '../../server/src/sources/cluster/apiClient';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { anyGroup, apiService, endpointSlice, service, webhookConfiguration } from '../helpers/clusterBlockers';
import { objectYaml, type ObjectSpec } from '../helpers/manifests';
import { configMap, ns } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
const open: LiveCluster[] = [];

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'blockers-token', watchBookmarkIntervalMs: 200 });
  dir = mkdtempSync(join(tmpdir(), 'kgl-blockers-'));
  kubeconfig = server.writeKubeconfig(dir);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.stop()));
  for (const o of server.objects()) {
    const m = o.metadata as { namespace?: string; name: string };
    server.remove({ apiVersion: o.apiVersion as string, kind: o.kind as string, namespace: m.namespace, name: m.name });
  }
  server.resetLog();
});

function connect(watch: boolean): LiveCluster {
  const live = new LiveCluster({ target: resolveTarget({ kubeconfig, allowExec: false }), rediscoverMs: 0, watch });
  open.push(live);
  return live;
}

const raw = (s: ObjectSpec) => parse(objectYaml(s)) as Record<string, unknown>;

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function seedBlockers(): void {
  server.add(
    raw(
      apiService(
        'v1beta1.metrics.k8s.io',
        { namespace: 'monitoring', name: 'prometheus-adapter' },
        { status: 'False', reason: 'MissingEndpoints' },
      ),
    ),
  );
  server.add(raw(apiService('v1beta1.healthy.example.com', { namespace: 'addons', name: 'healthy' }, { status: 'True' })));
  server.add(ns('monitoring', 'ns-monitoring'));
  server.add(raw(service('prometheus-adapter', 'monitoring')));
  server.add(raw(endpointSlice('prometheus-adapter', 'monitoring', 0)));
  server.add(ns('addons', 'ns-addons'));
  server.add(raw(service('healthy', 'addons')));
  server.add(raw(endpointSlice('healthy', 'addons', 1)));
  server.add(
    raw(
      webhookConfiguration('Validating', 'guard', [
        {
          name: 'v.guard.example.com',
          service: { namespace: 'guard', name: 'guard-webhook' },
          rules: [anyGroup(['DELETE'], ['configmaps'])],
        },
      ]),
    ),
  );
}

const fullReads = () =>
  server.requests
    .filter(
      (r) =>
        r.accept === ACCEPT_OBJECTS &&
        ['apiservices', 'validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'services', 'endpointslices'].includes(
          r.resource ?? '',
        ),
    )
    .map(
      (r) =>
        `${r.verb} ${r.resource}${r.namespace ? ` in ${r.namespace}` : ''}${r.query.labelSelector ? ` ${r.query.labelSelector}` : ''}${r.query.fieldSelector ? ` ${r.query.fieldSelector}` : ''}`,
    )
    .sort();

describe('namespace blockers, read from a live cluster', () => {
  it('nothing terminating: nothing read in full', async () => {
    seedBlockers();
    server.resetLog();
    const live = connect(true);
    await live.start();
    expect(fullReads()).toEqual([]);
    expect(server.writes()).toBe(0);
  });

  it('a terminating Namespace: the blockers, then only the named Services, read in full with GET; the why-chain names both', async () => {
    seedBlockers();
    server.add({
      ...ns('team-a', 'ns-team-a'),
      metadata: { name: 'team-a', uid: 'ns-team-a', deletionTimestamp: '2026-11-26T08:00:00Z' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    server.add(configMap('team-a', 'left', 'cm-left'));
    server.resetLog();
    const live = connect(false);
    await live.start();
    expect(await live.readPodSpecs([])).toEqual([]);
    expect(fullReads()).toEqual([
      'list apiservices',
      'list endpointslices in guard kubernetes.io/service-name=guard-webhook',
      'list endpointslices in monitoring kubernetes.io/service-name=prometheus-adapter',
      'list mutatingwebhookconfigurations',
      'list services in guard metadata.name=guard-webhook',
      'list services in monitoring metadata.name=prometheus-adapter',
      'list validatingwebhookconfigurations',
    ]);
    expect(Object.keys(server.countByVerb()).filter((v) => !['list', 'discovery', 'get'].includes(v))).toEqual([]);
    expect(server.writes()).toBe(0);
    const r = simulate(live.inventory, [], { controllers: 'builtin' });
    const nsEntry = r.stuck.find((e) => e.kind === 'Namespace')!;
    const types = JSON.stringify(nsEntry.blockedBy);
    expect(types).toContain(
      'APIService v1beta1.metrics.k8s.io is unavailable (its Service monitoring/prometheus-adapter has no ready endpoints)',
    );
    expect(types).toContain(
      "ValidatingWebhookConfiguration guard's webhook v.guard.example.com intercepts the DELETE of ConfigMap team-a/left",
    );
    expect(types).toContain('its Service guard/guard-webhook does not exist');
  });

  it('watching: a blocker read in full follows the watch (the APIService becomes Available)', async () => {
    seedBlockers();
    server.add({
      ...ns('team-a', 'ns-team-a'),
      metadata: { name: 'team-a', uid: 'ns-team-a', deletionTimestamp: '2026-11-26T08:00:00Z' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    const live = connect(true);
    await live.start();
    const metrics = () => [...live.inventory.objects.values()].find((o) => o.name === 'v1beta1.metrics.k8s.io');
    expect(metrics()?.facts.apiService?.available?.status).toBe('False');
    expect(metrics()?.facts.apiService?.service?.state).toBe('no-endpoints');
    server.update(raw(apiService('v1beta1.metrics.k8s.io', { namespace: 'monitoring', name: 'prometheus-adapter' }, { status: 'True' })));
    await until('the APIService read again', () => metrics()?.facts.apiService?.available?.status === 'True');
    await live.terminatingPodsRead();
    expect(simulate(live.inventory, [], { controllers: 'builtin' }).stuck).toEqual([]);
    expect(server.writes()).toBe(0);
  });

  it('watching: a webhook configuration created, or a named Service deleted, while something is terminating is read before the stuck list', async () => {
    seedBlockers();
    server.add({
      ...ns('team-a', 'ns-team-a'),
      metadata: { name: 'team-a', uid: 'ns-team-a', deletionTimestamp: '2026-11-26T08:00:00Z' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    server.add(configMap('team-a', 'left', 'cm-left'));
    const live = connect(true);
    await live.start();
    await live.terminatingPodsRead();
    const reasons = () =>
      JSON.stringify(simulate(live.inventory, [], { controllers: 'builtin' }).stuck.find((e) => e.kind === 'Namespace')?.blockedBy);
    expect(reasons()).not.toContain('late-guard');
    // A new configuration was never read in full: its webhooks are unknown until it is (found on the real control plane).
    server.add(
      raw(
        webhookConfiguration('Validating', 'late-guard', [
          { name: 'v.late.example.com', service: { namespace: 'late', name: 'gone' }, rules: [anyGroup(['DELETE'], ['configmaps'])] },
        ]),
      ),
    );
    await until('the new configuration watched', () => [...live.inventory.objects.values()].some((o) => o.name === 'late-guard'));
    await live.terminatingPodsRead();
    expect(reasons()).toContain(
      "ValidatingWebhookConfiguration late-guard's webhook v.late.example.com intercepts the DELETE of ConfigMap team-a/left",
    );
    // A Service an unavailable APIService names, deleted: not read in full itself, so only a new read tells.
    server.remove({ apiVersion: 'v1', kind: 'Service', namespace: 'monitoring', name: 'prometheus-adapter' });
    await until(
      'the Service gone',
      () => ![...live.inventory.objects.values()].some((o) => o.kind === 'Service' && o.name === 'prometheus-adapter'),
    );
    await live.terminatingPodsRead();
    expect(reasons()).toContain(
      'APIService v1beta1.metrics.k8s.io is unavailable (its Service monitoring/prometheus-adapter does not exist)',
    );
    expect(server.writes()).toBe(0);
  });
});
