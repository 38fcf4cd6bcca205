// Ways out in the Stuck Objects view (issue 18): children after the why-chain, risk as icon and text, the simulated
// outcome beside; live ones that are one JSON patch offer Remove Finalizer… / Apply Fix…; the confirmation names the
// exact PATCH; writes only with the user's own allowWrites in a trusted workspace.
import { describe, expect, it } from 'vitest';
import type { StuckItem, WayOut } from '../../shared/src/protocol';
import { childrenOf, stuckRoots } from '../../client/src/logic/stuckTree';
import { confirmation, resultText, wayOutAction, withAllowWrites, writesAllowed } from '../../client/src/logic/wayOuts';

const target = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'held', uid: 'u-held' };
const outcome = (summary: string) => ({
  summary,
  counts: { deletedByKind: { ConfigMap: 1 }, orphaned: 0, stuck: 0 },
  deleted: [{ ...target, step: 1, cause: 'request' as const }],
  orphaned: [],
  stuck: [],
  notes: [],
});
const reinstall: WayOut = {
  title: 'Reinstall the operator that removes example.com/hold',
  risk: 'safe',
  command: '# no single kubectl command: reinstall …',
  outcome: outcome('Running the controller of example.com/hold again: 1 object deleted (1 ConfigMap), 0 stuck, 0 orphaned'),
};
const removal: WayOut = {
  title: 'Remove the finalizer example.com/hold from ConfigMap shop/held\nInjected line',
  risk: 'dangerous',
  command: `kubectl patch configmap/held -n shop --type=json -p '[…]'`,
  warning: 'what the controller of example.com/hold was to clean up is left behind',
  patch: {
    target,
    ops: [
      { op: 'test', path: '/metadata/uid', value: 'u-held' },
      { op: 'test', path: '/metadata/finalizers/0', value: 'example.com/hold' },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ],
  },
  outcome: outcome('Removing finalizer example.com/hold from ConfigMap shop/held: 1 object deleted (1 ConfigMap), 0 stuck, 0 orphaned'),
};
const scale: WayOut = {
  ...reinstall,
  title: 'Scale Deployment shop/op up to 1 replica',
  command: `kubectl patch deployment.apps/op -n shop --subresource=scale --type=json -p '[…]'`,
  patch: { target: { ...target, apiVersion: 'apps/v1', kind: 'Deployment', name: 'op' }, subresource: 'scale', ops: [] },
};
const item: StuckItem = {
  ...target,
  syntheticUid: false,
  beingDeleted: true,
  finalizers: ['example.com/hold'],
  ownerCount: 0,
  state: 'stuck',
  reason: 'nobody removes example.com/hold',
  blockedBy: [{ type: 'finalizer', finalizer: 'example.com/hold', message: 'nobody removes it' }],
  since: '2026-11-20T09:00:00Z',
  waysOut: [reinstall, scale, removal],
};

describe('ways out in the Stuck Objects view', () => {
  it('lists them after the why-chain, with risk, title and simulated outcome', () => {
    const [root] = stuckRoots([item]);
    const children = childrenOf(root);
    expect(children.map((c) => [c.contextValue, c.icon, c.label])).toEqual([
      ['reason', 'lock', expect.stringContaining('example.com/hold')],
      ['wayOut', 'pass', 'Way out (safe): Reinstall the operator that removes example.com/hold'],
      ['wayOut', 'pass', 'Way out (safe): Scale Deployment shop/op up to 1 replica'],
      ['wayOut', 'flame', 'Way out (dangerous): Remove the finalizer example.com/hold from ConfigMap shop/held\nInjected line'],
    ]);
    const way = children[3];
    expect(way.description).toBe(removal.outcome.summary);
    expect(way.tooltip.split('\n')).toEqual([
      'Remove the finalizer example.com/hold from ConfigMap shop/held',
      'Injected line (dangerous)',
      `Simulated: ${removal.outcome.summary}`,
      'Deleted: ConfigMap shop/held',
      'Warning: what the controller of example.com/hold was to clean up is left behind',
      `Command: ${removal.command}`,
    ]);
    expect(way).toMatchObject({ wayOut: removal, stuckUid: 'u-held' });
  });

  it('offers sending only live ways out that are one JSON patch: Remove Finalizer… or Apply Fix…', () => {
    const [root] = stuckRoots([item], { live: { now: Date.parse('2026-11-21T09:00:00Z') } });
    expect(childrenOf(root).map((c) => c.contextValue)).toEqual(['reason', 'wayOut', 'wayOut.live.fix', 'wayOut.live.finalizer']);
    expect([reinstall, scale, removal].map(wayOutAction)).toEqual([undefined, 'apply-fix', 'remove-finalizer']);
  });

  it('a live way out carries the kube-system uid of the cluster its row was computed on (sent back with it)', () => {
    const [live] = stuckRoots([{ ...item, clusterUid: 'ks-a' }], { live: { now: Date.parse('2026-11-21T09:00:00Z') } });
    expect(live.clusterUid).toBe('ks-a');
    expect(
      childrenOf(live)
        .filter((n) => n.wayOut)
        .map((n) => n.clusterUid),
    ).toEqual(['ks-a', 'ks-a', 'ks-a']);
    // A workspace row has no cluster.
    expect(stuckRoots([{ ...item, clusterUid: 'ks-a' }])[0].clusterUid).toBeUndefined();
  });

  it('confirms with the simulated consequences and the exact PATCH', () => {
    const c = confirmation(removal, 'kind-dev');
    expect(c.button).toBe('Remove Finalizer');
    expect(c.detail).toContain(`Simulated: ${removal.outcome.summary}`);
    expect(c.detail).toContain('Warning: what the controller');
    expect(c.detail).toContain(
      `PATCH ConfigMap shop/held (application/json-patch+json): [{"op":"test","path":"/metadata/uid","value":"u-held"},{"op":"test","path":"/metadata/finalizers/0","value":"example.com/hold"},{"op":"remove","path":"/metadata/finalizers/0"}]`,
    );
    expect(c.detail).toMatch(/dry run first/);
    expect(c.detail).toContain('fail if the object is not the one shown (uid u-held) or changed since it was read');
    expect(confirmation(scale, 'kind-dev')).toMatchObject({ button: 'Apply Fix' });
    expect(confirmation(scale, 'kind-dev').detail).toContain('PATCH Deployment shop/op/scale');
  });

  it("a webhook's failurePolicy set to Ignore (test ops, then replace) is Apply Fix…; restoring its Service's Pods is copied only", () => {
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      namespace: '',
      name: 'guard',
      uid: 'u-guard',
    };
    const ignore: WayOut = {
      ...reinstall,
      title: 'Let requests through while its backend is down: set failurePolicy: Ignore on webhook v.guard.example.com',
      risk: 'caution',
      command: `kubectl patch validatingwebhookconfiguration/guard --type=json -p '[…]'`,
      patch: {
        target: config,
        ops: [
          { op: 'test', path: '/webhooks/0/name', value: 'v.guard.example.com' },
          { op: 'test', path: '/webhooks/0/failurePolicy', value: 'Fail' },
          { op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' },
        ],
      },
    };
    const restore: WayOut = {
      ...reinstall,
      title: 'Recreate Service guard/gone and the Pods behind it',
      command: '# no single kubectl command: …',
    };
    const [root] = stuckRoots([{ ...item, waysOut: [restore, ignore] }], { live: { now: Date.parse('2026-11-21T09:00:00Z') } });
    expect(childrenOf(root).map((c) => c.contextValue)).toEqual(['reason', 'wayOut', 'wayOut.live.fix']);
    const c = confirmation(ignore, 'kind-dev');
    expect(c.button).toBe('Apply Fix');
    expect(c.detail).toContain(
      `PATCH ValidatingWebhookConfiguration guard (application/json-patch+json): [{"op":"test","path":"/webhooks/0/name","value":"v.guard.example.com"},{"op":"test","path":"/webhooks/0/failurePolicy","value":"Fail"},{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]`,
    );
  });

  it('says that the object changed since it was shown when the apiserver refused its preconditions, and that the view is refreshed', () => {
    const message = 'ConfigMap shop/held changed since you looked: … (The apiserver answered 422: …)';
    const r = resultText(removal, { ok: false, stage: 'dry-run', status: 422, message, sent: [], objectChanged: true });
    expect(r).toBe(`Nothing changed by "${removal.title}": ${message} The Stuck Objects view is refreshed.`);
  });

  it("says a refusal in the cluster's words", () => {
    const r = resultText(removal, { ok: false, stage: 'dry-run', status: 403, message: 'configmaps "held" is forbidden', sent: [] });
    expect(r).toMatch(/^The dry run was refused \(403\).*: configmaps "held" is forbidden$/s);
  });

  it("allows writes only with the user's own true, in a trusted workspace", () => {
    expect(writesAllowed({ defaultValue: false, globalValue: true }, true)).toBe(true);
    expect(writesAllowed({ defaultValue: false, globalValue: true }, false)).toBe(false);
    expect(writesAllowed({ defaultValue: false, workspaceValue: true }, true)).toBe(false);
    expect(writesAllowed({ defaultValue: false, workspaceFolderValue: true }, true)).toBe(false);
    expect(writesAllowed({ defaultValue: false, globalValue: 'true' }, true)).toBe(false);
    expect(writesAllowed(undefined, true)).toBe(false);
    expect(withAllowWrites({ cluster: { stuckAfterMinutes: 3, allowWrites: true }, severity: {} }, false)).toEqual({
      cluster: { stuckAfterMinutes: 3, allowWrites: false },
      severity: {},
    });
    expect(withAllowWrites(null, true)).toEqual({ cluster: { allowWrites: true } });
  });
});
