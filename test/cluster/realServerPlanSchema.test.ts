// The plan schema (shared/src/wire/planSchema.ts) takes the grace periods the real kube-apiserver (test/controlplane,
// v1.37.2) takes and refuses the ones it refuses: each value is sent as a DELETE's body (DeleteOptions) and given to
// the schema as a plan entry, and the two must agree. A negative one is taken, and the server records it as 1 second
// (k8s.io/apiserver rest.BeforeDelete), which the simulation follows (R1). Skipped only where `go` is missing.
//
// Where the two cannot agree, by construction: a JSON number's spelling is gone once it is parsed, so `30.0` and
// `1e3` (which Go's int64 decoding refuses) are 30 and 1000 to both readers of a plan, and integers past 2^53 − 1
// (which an int64 holds) are refused because they would not be simulated as written. docs/cli.md says so.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPlanEntry } from '../../shared/src/protocol';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane } from '../../testkit/cluster/controlPlane';

if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerPlanSchema.test.ts ${CONTROL_PLANE_SKIP}`);

/** gracePeriodSeconds as written in the DELETE's JSON body. */
const GRACE_PERIODS = ['-5', '-1', '0', '1', '30', '3600', '9007199254740991', '1.5', '0.5', '-2.5', '1e300', '"30"', 'null', 'true'];

let plane: ControlPlane;

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('gracePeriodSeconds: the plan schema and the real kube-apiserver agree', () => {
  beforeAll(async () => {
    plane = await startControlPlane();
    // Pods need their ServiceAccount (the control plane runs no serviceaccount controller).
    plane.kubectl(['create', 'serviceaccount', 'default', '-n', 'default']);
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
  });

  it.each(GRACE_PERIODS)('%s', (written) => {
    const name = `grace-${GRACE_PERIODS.indexOf(written)}`;
    plane.kubectl(['create', 'configmap', name, '-n', 'default']);
    const body = `{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":${written}}`;
    const sent = plane.kubectlResult(['delete', '--raw', `/api/v1/namespaces/default/configmaps/${name}`, '-f', '-'], body);
    const entry = { verb: 'delete', apiVersion: 'v1', kind: 'ConfigMap', name, gracePeriodSeconds: JSON.parse(written) as unknown };
    const schema = checkPlanEntry(entry, ['requests', 0]) ? 'refused' : 'taken';
    const apiserver = sent.status === 0 ? 'taken' : 'refused';
    expect(schema, `${written}: kube-apiserver said ${sent.stderr || sent.stdout.slice(0, 200)}`).toBe(apiserver);
    if (apiserver === 'refused') expect(sent.stderr).toMatch(/BadRequest|cannot unmarshal/);
  });

  it('a negative grace period is recorded as 1 second, as the simulation reads it', () => {
    plane.kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'held', namespace: 'default' },
        // Bound to a node without a kubelet: a graceful DELETE leaves it terminating with its grace period.
        spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
      }),
    );
    const body = '{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":-5}';
    plane.kubectl(['delete', '--raw', '/api/v1/namespaces/default/pods/held', '-f', '-'], body);
    expect(plane.kubectl(['get', 'pod', 'held', '-n', 'default', '-o', 'jsonpath={.metadata.deletionGracePeriodSeconds}'])).toBe('1');
  });
});
