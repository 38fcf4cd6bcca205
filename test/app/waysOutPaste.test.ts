// Every way out's printed command, pasted into bash and zsh (and at their prompts, history expansion on) with
// stand-ins for kubectl and jq: for hostile names (control characters, quotes, `$`, `!`, unicode, a leading dash),
// kubectl is given exactly the object the way out names, and its patch holds the ops the way out would send.

import { describe, expect, it } from 'vitest';
import type { WayOut } from '../../shared/src/protocol';
import { waysOut } from '../../server/src/app/waysOut';
import { bref, cm, deploy, manifests, namespace, obj, pod, TERMINATING, workloadSpec, type ObjectSpec } from '../helpers/manifests';
import { anyGroup, apiService, endpointSlice, service, webhookConfiguration } from '../helpers/clusterBlockers';
import { checkPasted, type Printed } from '../helpers/printedCommands';
import { scenario } from '../helpers/scenario';
import { HOSTILE, MISSING_SHELLS, PASTE_SHELLS, paste, REAL_JQ } from '../helpers/shellWords';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const STRICT = { controllers: 'gc', finalizerOwners: [] };
const stuckNs = (name: string) =>
  namespace(name, { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });

/** The ways out of every kind, for objects named with `bad`: the stuck object's uid and the input. */
function worlds(bad: string): { docs: ObjectSpec[]; uid: string; options: typeof BUILTIN }[] {
  const ns = bad || 'ns';
  const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', ns, `my${bad}`, { finalizers: [`kafka.strimzi.io/finalizer`], ...TERMINATING });
  const operator = deploy('strimzi-cluster-operator', ns, {
    extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 0 }) },
  });
  const owner = cm(`owner${bad}`, ns, { finalizers: ['foregroundDeletion'], ...TERMINATING });
  const dependent = cm(`dep${bad}`, ns, { owners: [bref(owner)], finalizers: [`example.com/${bad}`], ...TERMINATING });
  const p = pod(`web${bad}`, ns, { nodeName: 'gone-node', deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 });
  const team = stuckNs(`team${bad}`);
  const held = cm(`held${bad}`, team.name, { finalizers: [`example.com/hold${bad}`], ...TERMINATING });
  // Blockers outside ownership: an add-on APIService whose Service has no ready Pods (a Deployment named like it),
  // and a webhook that fails closed without a backend and rejects the finalizer's removal.
  const svc = { namespace: ns, name: `metrics${bad}` };
  const blockers = [
    apiService(`v1.x${bad}.example.com`, svc, { status: 'False', reason: 'MissingEndpoints' }),
    service(svc.name, svc.namespace),
    endpointSlice(svc.name, svc.namespace, 0),
    deploy(svc.name, svc.namespace),
    webhookConfiguration('Validating', `guard${bad}`, [
      { name: `hook${bad}`, service: { namespace: ns, name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
    ]),
    endpointSlice('other', ns, 1),
  ];
  const team2 = stuckNs(`blocked${bad}`);
  const held2 = cm(`held${bad}`, team2.name, { finalizers: [`example.com/hold${bad}`], ...TERMINATING });
  // An APIService with no Deployment behind it, a webhook that rejects a finalizer's removal: each deleted.
  const api = stuckNs(`api${bad}`);
  const apiSvc = { namespace: ns, name: `api${bad}` };
  const lone = [
    apiService(`v1.y${bad}.example.com`, apiSvc, { status: 'False', reason: 'MissingEndpoints' }),
    service(apiSvc.name, apiSvc.namespace),
    endpointSlice(apiSvc.name, apiSvc.namespace, 0),
  ];
  const guarded = cm(`guarded${bad}`, ns, { finalizers: [`example.com/hold${bad}`], ...TERMINATING });
  const guard = webhookConfiguration('Mutating', `cfg${bad}`, [
    { name: `hook${bad}`, service: { namespace: ns, name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
  ]);
  return [
    { docs: [api, ...lone], uid: api.uid, options: BUILTIN },
    { docs: [guarded, guard, endpointSlice('other', ns, 1)], uid: guarded.uid, options: BUILTIN },
    { docs: [namespace(ns), operator, kafka], uid: kafka.uid, options: BUILTIN },
    { docs: [owner, dependent], uid: owner.uid, options: STRICT },
    { docs: [p], uid: p.uid, options: STRICT },
    { docs: [team, held], uid: team.uid, options: BUILTIN },
    { docs: [team2, held2, ...blockers], uid: team2.uid, options: BUILTIN },
  ];
}

const GET_JSON = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'x' },
  spec: { finalizers: ['kubernetes', 'example.com/other'] },
};
// What the finalize command sends: the Namespace as kubectl get gave it, without `kubernetes` (jq's work).
const REPLACED = REAL_JQ ? { ...GET_JSON, spec: { finalizers: ['example.com/other'] } } : GET_JSON;

const NAMES = HOSTILE.filter((h) => !h.includes('/'));
const ways: WayOut[] = NAMES.flatMap((bad) =>
  worlds(bad).flatMap(({ docs, uid, options }) => waysOut(scenario(manifests(...docs)).inventory, uid, options)),
);

describe('printed commands of ways out, pasted', () => {
  it('cover every kind of command a way out prints, for every hostile name', () => {
    const printed = ways.filter((w) => !w.command.startsWith('#'));
    expect(printed.length).toBeGreaterThan(NAMES.length * 10);
    for (const w of ways) expect(w.command, w.title).not.toMatch(/^# not printed/);
  });

  it.each(PASTE_SHELLS.map((s) => [s.name, s]))('%s gives kubectl exactly the objects each way out names', (_, shell) => {
    const calls = paste(
      shell,
      ways.map((w) => w.command),
      JSON.stringify(GET_JSON),
    );
    const seen = new Set<Printed>();
    ways.forEach((w, i) => checkPasted(w, calls[i], REPLACED).forEach((p) => seen.add(p)));
    expect([...seen].sort()).toEqual(
      [
        'delete',
        'finalize',
        'force-delete',
        'lines',
        'patch',
        'remove-finalizer',
        'remove-owner-reference',
        'scale',
        'scale-backend',
        'set-webhook-failure-policy',
        'steps',
      ].sort(),
    );
  });

  for (const missing of MISSING_SHELLS) it.skip(`${missing} gives kubectl exactly the objects: not checked, ${missing} is not installed`);
  if (!REAL_JQ) it.skip('the finalize command removes `kubernetes` from spec.finalizers: not checked, jq is not installed');
});

describe('names no command line carries', () => {
  it('withhold the command with a note, and keep the way out (the editor sends its patch by name, not by argv)', () => {
    for (const bad of ['a\0b', 'a\ud800b']) {
      const owner = cm(`owner${bad}`, 'shop', { finalizers: ['foregroundDeletion'], ...TERMINATING });
      const dependent = cm('dep', 'shop', { owners: [bref(owner)], finalizers: ['example.com/hold'], ...TERMINATING });
      const found = waysOut(scenario(manifests(owner, dependent)).inventory, owner.uid, STRICT);
      const foreground = found.find((w) => w.title.startsWith('Remove the finalizer foregroundDeletion'))!;
      expect(foreground.command).toMatch(/^# 'not printed as a command: a name in it holds a NUL or a lone UTF-16 surrogate/);
      expect(foreground.patch?.target.name).toBe(`owner${bad}`);
      // The others name objects a command line carries.
      expect(found.find((w) => w.title.startsWith('Remove the finalizer example.com/hold'))!.command).toMatch(/^kubectl patch /);
    }
  });
});
