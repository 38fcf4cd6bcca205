// `kubectl gc stuck -f` on a dump of one terminating object: a file has no clock, so nothing in it says how long the
// object had been terminating when it was written. It is listed (its age unknown), not "Nothing is stuck".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cliProcess';

let dir: string;
const POD =
  'apiVersion: v1\nkind: Pod\nmetadata: {name: worker, namespace: jobs, uid: u-worker, creationTimestamp: "2026-01-01T09:00:00Z", deletionTimestamp: "2026-01-01T10:00:30Z", deletionGracePeriodSeconds: 30, finalizers: [batch.kubernetes.io/job-tracking]}\nspec: {nodeName: node-1, containers: [{name: c, image: x}]}\nstatus: {phase: Running}\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kgl-dump-age-'));
  writeFileSync(join(dir, 'pod.yaml'), POD);
  // The same Pod in a dump written an hour after its deletion (a ConfigMap created then).
  writeFileSync(
    join(dir, 'later.yaml'),
    POD +
      '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: later, namespace: jobs, uid: u-later, creationTimestamp: "2026-01-01T11:00:30Z"}\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stuck(file: string, ...more: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'stuck', '-f', join(dir, file), ...more], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('a terminating object whose cause the objects do not show', () => {
  it('alone in its dump: listed as slow, its age unknown, whatever --slow-after says', () => {
    const items = JSON.parse(stuck('pod.yaml', '-o', 'json')).stuck as {
      name: string;
      state: string;
      ageSeconds?: number;
      reason: string;
    }[];
    expect(items.map((i) => [i.name, i.state, i.ageSeconds])).toEqual([['worker', 'slow', undefined]]);
    expect(items[0].reason).toBe(
      "terminating (nothing in the input is later than its deletion: for how long is unknown) and waits for finalizer batch.kubernetes.io/job-tracking; the controllers that should finish it run, so it cannot tell from the objects why it has not finished (a controller's bug, an injected sidecar, or still cleaning up)",
    );
    expect(JSON.parse(stuck('pod.yaml', '-o', 'json', '--slow-after', '24h')).stuck).toHaveLength(1);
    expect(stuck('pod.yaml')).toMatch(
      /^Nothing the objects show stops them: the 1 terminating object can finish \(controllers: builtin\)\.\n\nSlow \(1\): terminating for longer than 10m or for a time the input does not say, though nothing visible stops them\n {2}… Pod jobs\/worker/,
    );
  });

  it('with a later time in the dump: aged against it, as before', () => {
    const items = JSON.parse(stuck('later.yaml', '-o', 'json')).stuck as { name: string; ageSeconds?: number }[];
    expect(items.map((i) => [i.name, i.ageSeconds])).toEqual([['worker', 3600]]);
    expect(JSON.parse(stuck('later.yaml', '-o', 'json', '--slow-after', '2h')).stuck).toEqual([]);
  });
});
