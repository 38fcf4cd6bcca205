// `kubectl gc stuck -f` on a dump with blockers outside ownership (issue 18): the blockers' fixes are ways out, each
// simulated; an infrastructure webhook (a Service in kube-system) is labelled so and never deleted, while an APIService
// served by a Service is an add-on's whatever its name (R85); nothing is restored in a namespace being deleted (R86);
// hostile names stay one shell word in the commands and are escaped in the text.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StuckItem } from '../../shared/src/protocol';
import { DELETING, cm, manifests, namespace } from '../helpers/manifests';
import { anyGroup, apiService, endpointSlice, service, webhookConfiguration } from '../helpers/clusterBlockers';
import { shellWords } from '../helpers/shellWords';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'kgl-blocker-ways-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stuck(yaml: string, json: boolean): { text: string; items: StuckItem[] } {
  const file = join(dir, `dump-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  const r = spawnSync(process.execPath, [CLI, 'stuck', '-f', file, '--controllers=builtin', ...(json ? ['-o', 'json'] : [])], {
    encoding: 'utf8',
  });
  return { text: r.stdout, items: json ? (JSON.parse(r.stdout) as { stuck: StuckItem[] }).stuck : [] };
}

const terminating = namespace('team-a', { ...DELETING, extra: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } } });

describe('stuck: blocker fixes as ways out', () => {
  it("metrics-server's APIService from kube-system may be deleted (R85); a kube-system webhook is never deleted, labelled infrastructure", () => {
    const yaml = manifests(
      terminating,
      cm('c', 'team-a', { ...DELETING, finalizers: ['example.com/cleanup'] }),
      apiService(
        'v1beta1.metrics.k8s.io',
        { namespace: 'kube-system', name: 'metrics-server' },
        { status: 'False', reason: 'MissingEndpoints' },
      ),
      webhookConfiguration('Validating', 'platform-guard', [
        {
          name: 'platform.example.com',
          service: { namespace: 'kube-system', name: 'guard' },
          rules: [anyGroup(['UPDATE'], ['configmaps'])],
        },
      ]),
      service('metrics-server', 'kube-system'),
      endpointSlice('metrics-server', 'kube-system', 0),
    );
    const { items } = stuck(yaml, true);
    const ways = items.flatMap((i) => i.waysOut ?? []);
    expect(ways.some((w) => w.title.startsWith('Restore the Pods behind Service kube-system/metrics-server'))).toBe(true);
    for (const w of ways) expect(w.command).not.toMatch(/kubectl delete validatingwebhookconfiguration\//);
    expect(
      ways.find((w) => w.title.startsWith('Restore the Pods behind Service kube-system/metrics-server'))!.infrastructure,
    ).toBeUndefined();
    // Among the webhook's and the finalizer's fixes, the APIService's deletion comes as one step of a chain.
    const del = ways.find((w) => w.command.includes(' && kubectl delete apiservice/v1beta1.metrics.k8s.io && '))!;
    expect(del.warning).toMatch(/; metrics\.k8s\.io\/v1beta1 is no longer served: kubectl top and HorizontalPodAutoscalers/);
    const ignore = ways.find((w) => w.title.endsWith('set failurePolicy: Ignore on webhook platform.example.com'))!;
    expect(ignore.infrastructure).toMatch(/kube-system, a control-plane namespace/);
    const { text } = stuck(yaml, false);
    expect(text).toContain('Ways out');
    expect(text).not.toContain("Kubernetes' own API groups");
    expect(text).toContain(' && kubectl delete apiservice/v1beta1.metrics.k8s.io && ');
  });

  it('R86, R90: prometheus-adapter in namespace monitoring, being deleted: never restored there; its stale APIService deleted first, or the add-on reinstalled elsewhere', () => {
    const adapter = { namespace: 'monitoring', name: 'prometheus-adapter' };
    const yaml = manifests(
      namespace('monitoring', { ...DELETING, extra: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } } }),
      apiService('v1beta1.metrics.k8s.io', adapter, { status: 'False', reason: 'MissingEndpoints' }),
      service(adapter.name, adapter.namespace),
      endpointSlice(adapter.name, adapter.namespace, 0),
    );
    const ns = stuck(yaml, true).items.find((i) => i.kind === 'Namespace' && i.name === 'monitoring')!;
    expect(ns.waysOut!.map((w) => `[${w.risk}] ${w.title.replace(/ \(.*/, '')}`)).toEqual([
      '[safe] Delete APIService v1beta1.metrics.k8s.io: its add-on is gone or going, as its Service monitoring/prometheus-adapter is in namespace monitoring, which is being deleted; it serves nothing now',
      '[safe] Reinstall the add-on that serves APIService v1beta1.metrics.k8s.io in another namespace and point the APIService at its Service there',
      '[dangerous] Finalize namespace monitoring without waiting for its content',
    ]);
    const { text } = stuck(yaml, false);
    expect(text).not.toContain('Restore the Pods behind Service monitoring/prometheus-adapter');
    const at = text.indexOf('2. [safe] Reinstall the add-on');
    expect(text.slice(at).split('\n').slice(1, 4)).toEqual([
      '         # no single kubectl command: reinstall the add-on that serves APIService v1beta1.metrics.k8s.io in another namespace, not monitoring',
      '         # then point spec.service of APIService v1beta1.metrics.k8s.io at its Service there, unless its manifests register it again: kubectl edit apiservice/v1beta1.metrics.k8s.io',
      '         ! until the add-on runs in its new namespace and APIService v1beta1.metrics.k8s.io names its Service there, v1beta1.metrics.k8s.io stays unavailable',
    ]);
  });

  it('an add-on with a hostile name: its deletion is offered as one shell word, and the text escapes it', () => {
    const bad = 'x$(touch /tmp/pwned)\n';
    const hook = webhookConfiguration('Validating', `guard${bad}`, [
      { name: 'v.example.com', service: { namespace: 'guard', name: 'gone' }, rules: [anyGroup(['DELETE'], ['configmaps'])] },
    ]);
    const yaml = manifests(terminating, cm('c', 'team-a'), hook, endpointSlice('other', 'guard', 1));
    const ns = stuck(yaml, true).items.find((i) => i.kind === 'Namespace')!;
    const del = ns.waysOut!.find((w) => w.title.startsWith('Delete ValidatingWebhookConfiguration'))!;
    expect(shellWords(del.command)).toEqual(['delete', `validatingwebhookconfiguration/guard${bad}`]);
    expect(del.outcome.deleted.map((d) => d.name)).toContain('team-a');
    const { text } = stuck(yaml, false);
    expect(text).not.toContain('$(touch /tmp/pwned)\n');
  });

  it('a way out of three steps, two without a command: one line per step in the text, the comments first', () => {
    const hook = webhookConfiguration('Validating', 'guard', [
      { name: 'v.example.com', service: { namespace: 'guard', name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
    ]);
    const metrics = { namespace: 'monitoring', name: 'metrics-api' };
    const yaml = manifests(
      terminating,
      cm('c', 'team-a', { ...DELETING, finalizers: ['example.com/cleanup'] }),
      apiService('v1beta1.metrics.example.com', metrics, { status: 'False', reason: 'MissingEndpoints' }),
      service(metrics.name, metrics.namespace),
      endpointSlice(metrics.name, metrics.namespace, 0),
      hook,
      endpointSlice('other', 'guard', 1),
    );
    const ns = stuck(yaml, true).items.find((i) => i.kind === 'Namespace')!;
    const steps = ns.waysOut!.find((w) => w.title.split(', then: ').length === 3)!;
    expect(steps.outcome.deleted.map((d) => d.name).sort()).toEqual(['c', 'team-a']);
    const { text } = stuck(yaml, false);
    const at = text.indexOf(steps.title);
    expect(text.slice(at).split('\n').slice(1, 4)).toEqual([
      "         # 'no single kubectl command: reinstall the add-on that serves Service guard/gone (the Service and its Pods)'",
      '         # no single kubectl command: reinstall or scale up the workload behind Service monitoring/metrics-api',
      `         $ kubectl patch configmap/c -n team-a --type=json -p '[{"op":"test","path":"/metadata/uid","value":"uid-c"},{"op":"test","path":"/metadata/finalizers/0","value":"example.com/cleanup"},{"op":"remove","path":"/metadata/finalizers/0"}]'`,
    ]);
  });
});
