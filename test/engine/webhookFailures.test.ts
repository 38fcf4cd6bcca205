// R83, R84: a fail-closed webhook the apiserver cannot call, as a dump shows it. A terminating Namespace's
// NamespaceDeletionContentFailure that names the webhook is the apiserver's own report; a webhook whose Service is in
// a namespace being deleted, or missing where the input holds that namespace's Services, is a blocker too; one whose
// namespace the input holds nothing of is not judged. The kubelet's closing DELETE and a user's force delete of a
// Pod go through admission like every other request.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webhookFailuresIn } from '../../server/src/engine/simulation/webhookFailures';
import type { BlockReason } from '../../server/src/engine/simulation/types';
import { DELETING, cm, deploy, manifests, namespace, pod, type ObjectSpec } from '../helpers/manifests';
import { anyGroup, service, webhookConfiguration } from '../helpers/clusterBlockers';
import { names, scenario } from '../helpers/scenario';

const FIXTURES = join(__dirname, '..', 'fixtures', 'webhooks');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const BUILTIN = { controllers: 'builtin' as const, finalizerOwners: [] };
const NOTHING: never[] = [];

const KYVERNO_MISSING =
  'Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": service "kyverno-svc" not found';

const types = (reasons: BlockReason[] = []): string[] => reasons.flatMap((r) => [r.type, ...types(r.blockedBy)]);

function terminating(name: string, message?: string): ObjectSpec {
  const conditions = message
    ? [{ type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed', message }]
    : undefined;
  return namespace(name, {
    ...DELETING,
    extra: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating', ...(conditions ? { conditions } : {}) } },
  });
}

const guard = (rules = [anyGroup(['DELETE'], ['rolebindings'])], svc = { namespace: 'kyverno', name: 'kyverno-svc' }) =>
  webhookConfiguration('Validating', 'kyverno-guard', [{ name: 'validate.kyverno.svc-fail', service: svc, rules }]);

describe('webhook failures in a condition message (ErrCallingWebhook, joined by the namespace deleter)', () => {
  it('names each webhook with what its error says of the backend', () => {
    const refused =
      'failed calling webhook "webhook.cert-manager.io": failed to call webhook: Post "https://cert-manager-webhook.cert-manager.svc:443/validate?timeout=30s": dial tcp 10.96.12.7:443: connect: connection refused';
    const noEndpoints = 'failed calling webhook "v.example.com": failed to call webhook: no endpoints available for service "guard"';
    const message = `Failed to delete all resource types, 3 remaining: Internal error occurred: ${refused}, Internal error occurred: ${noEndpoints}, ${KYVERNO_MISSING.split('remaining: ')[1]}`;
    expect(webhookFailuresIn(message).map((f) => [f.webhook, f.state, f.service])).toEqual([
      ['webhook.cert-manager.io', 'unreachable', undefined],
      ['v.example.com', 'no-endpoints', 'guard'],
      ['validate.kyverno.svc-fail', 'missing', 'kyverno-svc'],
    ]);
    expect(webhookFailuresIn(message)[0].cause).toMatch(/connect: connection refused$/);
  });

  it('a webhook that answered and denied is not a failure to call it', () => {
    expect(webhookFailuresIn('admission webhook "validate.kyverno.svc-fail" denied the request: policy x')).toEqual([]);
  });
});

describe('R83: the Namespace reports the webhook failing', () => {
  it("Kyverno's uninstall as dumped: the namespace is stuck by the webhook its condition names, and check says so as an error", () => {
    const s = scenario(fixture('kyverno-uninstall.yaml'));
    const r = s.simulate(NOTHING, BUILTIN);
    expect(names(r.stuck)).toEqual(['Namespace/kyverno']);
    const reasons = r.stuck[0].blockedBy;
    expect(reasons.map((x) => [x.type, x.object?.name])).toEqual([['blocking-webhook', 'kyverno-resource-validating-webhook-cfg']]);
    expect(reasons[0].message).toContain('service "kyverno-svc" not found');
    const finding = s.findings().find((f) => f.code === 'blocking-webhook')!;
    expect(finding.severity).toBe('error');
    expect(finding.message).toContain('Namespace kyverno reports NamespaceDeletionContentFailure');
    expect(finding.message).toContain('It holds Namespace kyverno now.');
  });

  it('content the input does not hold stays while the named webhook fails, even when it does not intercept the finalize', () => {
    const yaml = manifests(terminating('kyverno', KYVERNO_MISSING), guard());
    const r = scenario(yaml).simulate(NOTHING, BUILTIN);
    expect(names(r.stuck)).toEqual(['Namespace/kyverno']);
    expect(r.stuck[0].blockedBy[0].message).toMatch(/rejects the namespace controller's DELETEs of the namespace's content/);
    const ignore = {
      verb: 'set-webhook-failure-policy' as const,
      target: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        namespace: '',
        name: 'kyverno-guard',
      },
      webhook: 'validate.kyverno.svc-fail',
      failurePolicy: 'Ignore' as const,
    };
    expect(names(scenario(yaml).simulate([ignore], BUILTIN).deleted)).toEqual(['Namespace/kyverno']);
  });

  it('a webhook the input does not hold: the reported failure is taken to persist, and said so', () => {
    const r = scenario(manifests(terminating('kyverno', KYVERNO_MISSING))).simulate(NOTHING, BUILTIN);
    expect(names(r.stuck)).toEqual(['Namespace/kyverno']);
    expect(r.stuck[0].blockedBy[0].message).toMatch(/no configuration of webhook validate.kyverno.svc-fail is in the input/);
    expect(r.notes.join('\n')).toMatch(/Assumed: Namespace kyverno stays Terminating/);
  });

  it('a report of another webhook, or of a Service the webhook no longer calls, accuses nobody', () => {
    // The Service's namespace is not in the input: only the report could accuse the webhook.
    const other = KYVERNO_MISSING.replace('validate.kyverno.svc-fail', 'other.example.com');
    const moved = guard(undefined, { namespace: 'kyverno', name: 'kyverno-svc-v2' });
    for (const yaml of [manifests(terminating('team-a', other), guard()), manifests(terminating('team-a', KYVERNO_MISSING), moved)]) {
      const s = scenario(yaml);
      expect(s.findings().filter((f) => f.code === 'blocking-webhook')).toEqual([]);
    }
  });
});

describe("R83: a webhook's Service where nothing can serve it", () => {
  it('in a namespace being deleted, with nothing ready known there: a blocker, and no restore is offered there', () => {
    const yaml = manifests(terminating('kyverno'), cm('c', 'kyverno'), guard([anyGroup(['DELETE'], ['configmaps'])]));
    const r = scenario(yaml).simulate(NOTHING, BUILTIN);
    expect(names(r.stuck)).toEqual(['Namespace/kyverno']);
    expect(types(r.stuck[0].blockedBy)).toContain('blocking-webhook');
    const hook = JSON.stringify(r.stuck[0].blockedBy);
    expect(hook).toContain('which is being deleted, so nothing there can serve it again');
    expect(hook).not.toContain('Restore the Pods');
    expect(hook).not.toContain('Recreate Service');
  });

  it("missing where the input holds its namespace's Services: a blocker", () => {
    const yaml = manifests(
      terminating('team-a'),
      cm('c', 'team-a'),
      service('other', 'kyverno'),
      guard([anyGroup(['DELETE'], ['configmaps'])]),
    );
    const s = scenario(yaml);
    expect(names(s.simulate(NOTHING, BUILTIN).stuck)).toEqual(['Namespace/team-a']);
    expect(s.findings().find((f) => f.code === 'blocking-webhook')?.message).toContain('its Service kyverno/kyverno-svc does not exist');
  });

  it('in an emptied namespace (the input holds it and its Pods, none running there): a blocker', () => {
    const yaml = (running: boolean) =>
      manifests(
        terminating('team-a'),
        cm('c', 'team-a'),
        namespace('kyverno'),
        service('kyverno-svc', 'kyverno'),
        pod('web', 'shop', { phase: 'Running' }),
        ...(running ? [pod('kyverno-0', 'kyverno', { phase: 'Running' })] : []),
        guard([anyGroup(['DELETE'], ['configmaps'])]),
      );
    const s = scenario(yaml(false));
    expect(names(s.simulate(NOTHING, BUILTIN).stuck)).toEqual(['Namespace/team-a']);
    expect(s.findings().find((f) => f.code === 'blocking-webhook')?.message).toContain(
      'has no Pod to serve it (the input holds none running in namespace kyverno)',
    );
    expect(names(scenario(yaml(true)).simulate(NOTHING, BUILTIN).stuck)).toEqual([]);
  });

  it('a namespace with a workload that runs Pods but none in the input is applied from manifests, not emptied: not judged', () => {
    const yaml = (replicas: number) =>
      manifests(
        terminating('team-a'),
        cm('c', 'team-a'),
        namespace('kyverno'),
        service('kyverno-svc', 'kyverno'),
        deploy('kyverno', 'kyverno', { extra: { spec: { replicas } } }),
        pod('web', 'shop', { phase: 'Running' }),
        guard([anyGroup(['DELETE'], ['configmaps'])]),
      );
    expect(names(scenario(yaml(1)).simulate(NOTHING, BUILTIN).stuck)).toEqual([]);
    expect(
      scenario(yaml(1))
        .findings()
        .filter((f) => f.code === 'blocking-webhook'),
    ).toEqual([]);
    // Scaled to zero, it runs nothing: the namespace is emptied.
    expect(names(scenario(yaml(0)).simulate(NOTHING, BUILTIN).stuck)).toEqual(['Namespace/team-a']);
  });

  it('a partial dump that holds nothing of its namespace: not judged (nothing says whether it answers)', () => {
    const s = scenario(manifests(terminating('team-a'), cm('c', 'team-a'), guard([anyGroup(['DELETE'], ['configmaps'])])));
    expect(names(s.simulate(NOTHING, BUILTIN).deleted)).toEqual(['ConfigMap/c', 'Namespace/team-a']);
    expect(s.findings().filter((f) => f.code === 'blocking-webhook')).toEqual([]);
  });
});

describe('R84: every request a deletion needs goes through admission', () => {
  it("a Pod in its grace period: the why-chain names the webhook that rejects the kubelet's DELETE, and a force delete is rejected", () => {
    const s = scenario(fixture('pod-behind-webhook.yaml'));
    const r = s.simulate(NOTHING, BUILTIN);
    expect(types(r.stuck[0].blockedBy)).toEqual(['blocking-webhook', 'graceful-termination']);
    const force = { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-0', gracePeriodSeconds: 0 };
    const forced = s.simulate([force], BUILTIN);
    expect(names(forced.stuck)).toEqual(['Pod/web-0']);
    expect(forced.steps.find((x) => x.action === 'reject' && x.request === 0)?.detail).toMatch(
      /^500: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": service "kyverno-svc" not found/,
    );
  });
});
