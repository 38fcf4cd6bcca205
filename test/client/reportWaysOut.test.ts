// The Simulate Delete report's ways out (issue 18): under what the DELETE newly leaves stuck, safest first, each with
// its risk, its command in a code block nothing in it can close, and its simulated outcome; hostile text stays text.

import { describe, expect, it } from 'vitest';
import type { ObjectIdentity } from '../../server/src/engine/model';
import type { WayOut } from '../../shared/src/protocol';
import { codeBlock } from '../../client/src/logic/markdown';
import { renderSimulateReport } from '../../client/src/logic/reportMarkdown';
import { simulateReportOf } from '../../testkit/reports/simulateReports';

const ns: ObjectIdentity = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'kafka', uid: 'uid-ns' };
const outcome = (summary: string): WayOut['outcome'] => ({
  summary,
  counts: { deletedByKind: {}, orphaned: 0, stuck: 0 },
  deleted: [],
  orphaned: [],
  stuck: [],
  notes: [],
});
const restore: WayOut = {
  title: 'Restore Deployment kafka/strimzi-cluster-operator, the controller that removes kafka.strimzi.io/finalizer',
  risk: 'safe',
  command: '# no single kubectl command: reinstall Deployment kafka/strimzi-cluster-operator from its manifests or Helm chart',
  outcome: outcome(
    'Running the controller of kafka.strimzi.io/finalizer again: 3 objects deleted (2 Kafkas, 1 Namespace), 0 stuck, 0 orphaned',
  ),
};
const finalize: WayOut = {
  title: 'Finalize namespace kafka without waiting for its content',
  risk: 'dangerous',
  command: 'kubectl replace --raw /api/v1/namespaces/kafka/finalize -f - # ```\n</code><script>x</script>',
  warning: 'its content may stay in etcd',
  infrastructure: 'a control-plane namespace',
  outcome: outcome('Removing finalizer kubernetes from Namespace kafka: 1 object deleted (1 Namespace), 0 stuck, 0 orphaned'),
};

function report(waysOut: WayOut[] | undefined) {
  const r = simulateReportOf({
    target: ns,
    policy: 'default',
    controllers: 'builtin',
    result: {
      deleted: [],
      orphaned: [],
      stuck: [{ ...ns, finalizers: [], reason: 'Namespace kafka stays Terminating', blockedBy: [] }],
      steps: [],
      notes: [],
    },
    locations: {},
    counts: { deletedByKind: {}, orphaned: 0, stuck: 1 },
    outcome: 'stuck',
    title: 'Delete: stays Terminating',
  });
  if (waysOut) r.stuck[0].waysOut = waysOut;
  return r;
}

describe('the report lists the ways out of what the DELETE leaves stuck', () => {
  it('safest first: risk and title, the command in a code block, the simulated outcome, the warnings', () => {
    const md = renderSimulateReport(report([restore, finalize]));
    expect(md).toContain(
      [
        '- Namespace kafka',
        '  - Namespace kafka stays Terminating',
        '  - **Ways out after this DELETE** \\(safest first\\, each simulated\\; nothing is sent\\: run the command yourself\\)',
        '    1. **safe**: Restore Deployment kafka/strimzi-cluster-operator\\, the controller that removes kafka\\.strimzi\\.io/finalizer',
        '       ```',
        '       # no single kubectl command: reinstall Deployment kafka/strimzi-cluster-operator from its manifests or Helm chart',
        '       ```',
        '       - Simulated: Running the controller of kafka\\.strimzi\\.io/finalizer again\\: 3 objects deleted \\(2 Kafkas\\, 1 Namespace\\)\\, 0 stuck\\, 0 orphaned',
        '    2. **dangerous**: Finalize namespace kafka without waiting for its content',
        '       ````',
        '       kubectl replace --raw /api/v1/namespaces/kafka/finalize -f - # ```',
        '       </code><script>x</script>',
        '       ````',
        '       - Simulated: Removing finalizer kubernetes from Namespace kafka\\: 1 object deleted \\(1 Namespace\\)\\, 0 stuck\\, 0 orphaned',
        '       - **Infrastructure:** a control-plane namespace',
        '       - **Warning:** its content may stay in etcd',
        '',
      ].join('\n'),
    );
  });

  it('nothing without ways out', () => {
    expect(renderSimulateReport(report(undefined))).not.toContain('Ways out');
    expect(renderSimulateReport(report([]))).not.toContain('Ways out');
  });

  it('a code block is closed only by its own fence', () => {
    expect(codeBlock('a ``` b', '  ')).toEqual(['  ````', '  a ``` b', '  ````']);
    // A way out of several steps: a line each, all inside the list item.
    expect(codeBlock('# reinstall the operator\nkubectl patch x', '    ')).toEqual([
      '    ```',
      '    # reinstall the operator',
      '    kubectl patch x',
      '    ```',
    ]);
  });
});
