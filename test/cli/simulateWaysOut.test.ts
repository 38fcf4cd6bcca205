// `kubectl gc simulate` (issue 18): what the request newly leaves stuck is listed with its ways out as a user has them
// after the request, each simulated from there; the text shows the safest (`-o wide` all), the JSON every one.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/src/protocol';
import { MAX_REPORT_ENTRIES_WITH_WAYS_OUT } from '../../server/src/app/reportWaysOut';
import { runCli } from '../helpers/cliProcess';
import { bref, cm, HOLD, manifests, namespace } from '../helpers/manifests';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const dir = mkdtempSync(join(tmpdir(), 'kgl-simulate-ways-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, yaml: string): string {
  const path = join(dir, name);
  writeFileSync(path, yaml);
  return path;
}

/** The lines of one stuck entry's block in the text: from its ⧗ line to the next entry or section. */
function block(text: string, entry: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes(`⧗ ${entry}`));
  expect(start, entry).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && (/⧗|^\S|^ {2}\S/.test(l) || l === ''));
  return lines.slice(start, end).join('\n');
}

describe('simulate: ways out of what the request leaves stuck', () => {
  it('text: the safest under each stuck entry, the rest with -o wide; none under what was stuck anyway', async () => {
    const { stdout, code } = await runCli(['simulate', '-f', EXAMPLES, 'namespace/kafka', '--show-settling']);
    expect(code).toBe(0);
    const ns = block(stdout, 'Namespace kafka');
    expect(ns).toContain('      Ways out after the request (safest first, each simulated; nothing is sent: run the command yourself)');
    expect(ns).toContain(
      '        1. [safe] Reinstall the operator of Deployment kafka/strimzi-cluster-operator in another namespace, watching namespace kafka ' +
        '(namespace kafka is being deleted: nothing new can be created in it)\n' +
        "           # 'no single kubectl command: install the operator of Deployment kafka/strimzi-cluster-operator in another namespace (kafka is being deleted), watching namespace kafka'\n" +
        '           → Running the controller of kafka.strimzi.io/finalizer again, for Kafka kafka/my-cluster: 3 objects deleted (2 Kafkas, 1 Namespace), 0 stuck, 0 orphaned\n' +
        '        … 1 more way out (-o wide lists them all)',
    );
    expect(ns).not.toContain('2. [dangerous]');
    expect(block(stdout, 'Kafka kafka/audit-cluster')).toContain(
      '1. [safe] Reinstall the operator of Deployment kafka/strimzi-cluster-operator in another namespace',
    );
    // Stuck before the request too: `kubectl gc stuck` gives its ways out.
    expect(block(stdout, 'Namespace legacy-mq')).not.toContain('Ways out');
    expect(block(stdout, 'RabbitmqCluster legacy-mq/orders')).not.toContain('Ways out');

    const wide = await runCli(['simulate', '-f', EXAMPLES, 'namespace/kafka', '-o', 'wide']);
    const all = block(wide.stdout, 'Namespace kafka');
    expect(all).toContain(
      '        2. [dangerous] Finalize namespace kafka without waiting for its content (remove spec.finalizers kubernetes)',
    );
    expect(all).toContain(
      `           $ kubectl get namespace/kafka -o json | jq '.spec.finalizers -= ["kubernetes"]' | kubectl replace --raw /api/v1/namespaces/kafka/finalize -f -`,
    );
    expect(all).not.toContain('more way out');
  });

  it('JSON: waysOut on what the request newly leaves stuck, its commands as the objects are after the DELETE', async () => {
    const owner = cm('owner', 'shop');
    const input = file('foreground.yaml', manifests(owner, cm('held', 'shop', { owners: [bref(owner)], finalizers: [HOLD] })));
    const { stdout, code } = await runCli([
      'simulate',
      '-f',
      input,
      '-n',
      'shop',
      'configmap/owner',
      '--cascade=foreground',
      '--controllers=gc',
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.version).toBe(2);
    const stuck = report.stuck.find((e) => e.name === 'owner')!;
    expect(stuck.cause).toBe('request');
    // foregroundDeletion is there only once the DELETE is sent: the way out removes it from where it then is.
    const release = stuck.waysOut!.find((w) => w.title === 'Remove the finalizer foregroundDeletion from ConfigMap shop/owner')!;
    expect(release).toMatchObject({ risk: 'caution' });
    expect(release.command).toBe(
      `kubectl patch configmap/owner -n shop --type=json -p '[{"op":"test","path":"/metadata/uid","value":"uid-owner"},{"op":"test","path":"/metadata/finalizers/0","value":"foregroundDeletion"},{"op":"remove","path":"/metadata/finalizers/0"}]'`,
    );
    expect(release.outcome.summary).toBe(
      'Removing finalizer foregroundDeletion from ConfigMap shop/owner: 1 object deleted (1 ConfigMap), 0 stuck, 0 orphaned',
    );
    // Its outcome's stuck entries carry no ways out of their own.
    expect(release.outcome.stuck.map((e) => e.name)).toEqual(['held']);
    expect(JSON.stringify(release.outcome)).not.toContain('"waysOut"');
  });

  it(`ways out for the first ${MAX_REPORT_ENTRIES_WITH_WAYS_OUT} objects left stuck; a note says how many more have none`, async () => {
    const many = MAX_REPORT_ENTRIES_WITH_WAYS_OUT + 2;
    const held = Array.from({ length: many }, (_, i) => cm(`held-${String(i).padStart(2, '0')}`, 'team', { finalizers: [HOLD] }));
    const input = file('many.yaml', manifests(namespace('team'), ...held));
    const { stdout } = await runCli(['simulate', '-f', input, 'namespace/team', '-o', 'json']);
    const report = JSON.parse(stdout) as Report;
    const caused = report.stuck.filter((e) => e.cause === 'request');
    expect(caused).toHaveLength(many + 1);
    // The target first: the summary line speaks of it.
    expect(caused.filter((e) => e.waysOut).map((e) => e.name)[0]).toBe('team');
    expect(caused.filter((e) => e.waysOut)).toHaveLength(MAX_REPORT_ENTRIES_WITH_WAYS_OUT);
    expect(report.notes).toContain(
      `Ways out are simulated for the first ${MAX_REPORT_ENTRIES_WITH_WAYS_OUT} objects the request leaves stuck, not for the other ${many + 1 - MAX_REPORT_ENTRIES_WITH_WAYS_OUT}: each costs a few simulations of the whole input.`,
    );
  });
});
