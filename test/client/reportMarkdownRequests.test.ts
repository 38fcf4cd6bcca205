// The report page for requests besides DELETE (kubeGcLens/simulateRequests): titled by what was asked, each request
// said as what it is (PATCH, SCALE, RESTORE) with what became of its object, the lists "by this change", and no
// DELETE word where nothing was deleted by request. Reports come from the application layer on small scenarios.

import { describe, expect, it } from 'vitest';
import type { PlanRequest, RequestsReport } from '../../shared/src/protocol';
import { simulateRequestsReport } from '../../server/src/app/requestsReport';
import { commandUri } from '../../client/src/logic/markdown';
import { renderSimulateReport, reportTitle } from '../../client/src/logic/reportMarkdown';
import { cm, deploy, HOLD, manifests, namespace, obj, TERMINATING, workloadSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const OPTIONS = { controllers: 'builtin', finalizerOwners: [] };
const KAFKA_FINALIZER = 'kafka.strimzi.io/finalizer';

const operator = deploy('strimzi-cluster-operator', 'kafka', {
  uid: 'uid-op',
  extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 0 }) },
});
const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', {
  uid: 'uid-kafka',
  finalizers: [KAFKA_FINALIZER],
  ...TERMINATING,
});
const held = cm('held', 'shop', { uid: 'uid-held', finalizers: [HOLD], ...TERMINATING });
const { inventory } = scenario(manifests(namespace('kafka'), namespace('shop'), operator, kafka, held));

const report = (requests: PlanRequest[]): RequestsReport => simulateRequestsReport(inventory, requests, OPTIONS);
const REMOVE: PlanRequest = {
  verb: 'remove-finalizer',
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace: 'shop',
  name: 'held',
  finalizer: HOLD,
};
const SCALE: PlanRequest = {
  verb: 'scale',
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'kafka',
  name: 'strimzi-cluster-operator',
  replicas: 1,
};

/** The link the report gives an object of the scenario. */
const link = (label: string, uid: string, r: RequestsReport) => {
  const loc = r.locations[uid];
  return `[${label}](${commandUri('kubeGcLens.revealLocation', [loc.uri, loc.range])})`;
};

describe('the report of a change', () => {
  it('is titled by what was asked, says the request and its outcome, and lists what it released "by this change"', () => {
    const r = report([REMOVE]);
    expect(reportTitle(r)).toBe(`Simulate: Removing finalizer ${HOLD} from ConfigMap shop/held`);
    expect(reportTitle(r, { cluster: 'kind-dev' })).toBe(`Simulate on kind-dev: Removing finalizer ${HOLD} from ConfigMap shop/held`);
    const md = renderSimulateReport(r, { graphLink: true });
    const held = link('ConfigMap shop/held', 'uid-held', r);
    expect(md.split('\n').slice(0, 6)).toEqual([
      '# Simulate\\: Removing finalizer example\\.com/hold from ConfigMap shop/held',
      '',
      '**Removing finalizer example\\.com/hold from ConfigMap shop/held\\: 1 object deleted \\(1 ConfigMap\\)\\, 0 stuck\\, 0 orphaned**',
      '',
      `- **Request:** PATCH ${held}: remove finalizer \`example.com/hold\`; it is deleted`,
      expect.stringMatching(/^- \*\*Controllers:\*\* builtin: /),
    ]);
    expect(md).toContain(`## Deleted by this change (1)\n\n**ConfigMap \\(1\\)**\n\n- ${held}: step `);
    expect(md).toContain('## Left stuck by this change (0)');
    expect(md).toContain('## Orphaned by this change (0)');
    // What the GC does anyway (the Kafka stays stuck), said of this change; no DELETE was asked, none is named.
    expect(md).toContain('without this change too: 0 deleted, 1 stuck, 0 orphaned</summary>');
    expect(md).not.toMatch(/DELETE/);
    // The graph plays deletions out: a change has no such link.
    expect(md).not.toContain('Show in Graph');
    expect(md).toContain(`## Notes\n\n- Removing ${HOLD.replace(/\./g, '\\.')}\\:`);
  });

  it('a scale: SCALE with the count, and the object that stays', () => {
    const r = report([SCALE]);
    const md = renderSimulateReport(r);
    expect(md).toContain(`- **Request:** SCALE ${link('Deployment kafka/strimzi-cluster-operator', 'uid-op', r)} to 1 replica; it stays\n`);
    expect(md).toContain('## Deleted by this change (1)\n\n**Kafka \\(1\\)**');
  });

  it('several requests: numbered, in order, the lists "by these requests"; a DELETE among them said as one', () => {
    const r = report([
      SCALE,
      { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', name: 'kafka', propagationPolicy: 'Foreground' },
      { verb: 'restore-controller', finalizer: 'example.com/other' },
    ]);
    expect(reportTitle(r)).toBe(
      'Simulate: Scaling Deployment kafka/strimzi-cluster-operator to 1 replica, then deleting Namespace kafka, then running the controller of example.com/other again',
    );
    const md = renderSimulateReport(r);
    const lines = md.split('\n');
    const at = lines.indexOf('- **Requests**, each after the previous one:');
    expect(lines[at + 1]).toBe(`  1. SCALE ${link('Deployment kafka/strimzi-cluster-operator', 'uid-op', r)} to 1 replica; it is deleted`);
    expect(lines[at + 2]).toMatch(/^ {2}2\. DELETE \[Namespace kafka\]\(command:.*\), propagationPolicy Foreground; it is deleted$/);
    expect(lines[at + 3]).toBe('  3. RESTORE the controller that removes `example.com/other` (it runs again)');
    expect(md).toContain('## Deleted by these requests (');
    expect(md).toContain('Request 1:');
    expect(md).toContain('Request 3:');
  });

  it('what the requests newly leave stuck: its ways out "after these requests"', () => {
    const running = deploy('strimzi-cluster-operator', 'kafka', {
      uid: 'uid-op',
      extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 1 }) },
    });
    const live = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { uid: 'uid-kafka', finalizers: [KAFKA_FINALIZER] });
    const scene = scenario(manifests(namespace('kafka'), running, live)).inventory;
    const r = simulateRequestsReport(
      scene,
      [
        { ...SCALE, replicas: 0 },
        { verb: 'delete', apiVersion: 'kafka.strimzi.io/v1beta2', kind: 'Kafka', namespace: 'kafka', name: 'my-cluster' },
      ],
      OPTIONS,
    );
    expect(r.counts.stuck).toBe(1);
    const md = renderSimulateReport(r);
    expect(md).toContain('## Left stuck by these requests (1)');
    expect(md).toContain('  - **Ways out after these requests** \\(safest first');
    expect(md).toContain('kubectl patch deployment.apps/strimzi-cluster-operator -n kafka --subresource=scale --type=json -p');
  });

  it('an object the input does not hold: the request, rejected, without a link', () => {
    const r = report([{ ...REMOVE, name: 'gone' }]);
    expect(renderSimulateReport(r)).toContain(
      `- **Request:** PATCH ConfigMap shop/gone: remove finalizer \`example.com/hold\`; rejected by the apiserver\n`,
    );
  });

  it('renders hostile names and finalizers as text', () => {
    const r = report([{ ...REMOVE, name: '[x](command:evil)', finalizer: '`</code><img src=x>' }]);
    const md = renderSimulateReport(r);
    expect(md).toContain(
      '- **Request:** PATCH ConfigMap shop/\\[x\\]\\(command\\:evil\\): remove finalizer `` `</code><img src=x> ``; rejected by the apiserver\n',
    );
    expect(md).not.toContain('](command:evil)');
    // No raw `<` but in a code span (and our own collapsed sections).
    const ours = md.replace('`` `</code><img src=x> ``', '').replace(/^(<details>|<\/details>|<summary>[^<]*<\/summary>)$/gm, '');
    expect(ours).not.toMatch(/(^|[^\\])</m);
  });
});
