// One contract at the application layer: the same files give the same Simulate Delete Report and the same stuck
// answer whichever session reads them: the editor's WorkspaceSession (documents, edited live) or the CLI's
// SnapshotSession (read once). Front ends only render these.

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SnapshotSession } from '../../server/src/app/snapshotSession';
import { WorkspaceSession } from '../../server/src/app/workspaceSession';
import { loadInput } from '../../server/src/cli/input';
import { WorkspaceModel, type DocumentState } from '../../server/src/workspace/workspaceModel';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const OPTIONS = { controllers: 'builtin', finalizerOwners: [] };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : /\.(ya?ml|json)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

async function bothSessions(folder: string) {
  const model = new WorkspaceModel(OPTIONS);
  const states = filesUnder(folder)
    .map((f) => model.parse(pathToFileURL(f).toString(), readFileSync(f, 'utf8')))
    .filter((s): s is DocumentState => s !== undefined);
  model.loadAll(states);
  const input = await loadInput([folder], { stdin: Readable.from([]) });
  return { workspace: new WorkspaceSession(() => model), snapshot: new SnapshotSession({ inventory: input.inventory, fromFiles: true }) };
}

// Where an object is written is each front end's own (a URI for the editor, a path for the CLI).
const placeless = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v) => (key === 'location' || key === 'locations' || key === 'source' ? undefined : v)));

describe('the workspace and snapshot sessions give one answer', () => {
  it('Simulate Delete of every object of the examples, with every policy', async () => {
    const { workspace, snapshot } = await bothSessions(EXAMPLES);
    const uids = [...snapshot.inventory.objects.keys()];
    expect(uids.length).toBeGreaterThan(20);
    for (const uid of uids) {
      for (const policy of ['default', 'Foreground', 'Orphan'] as const) {
        const editor = workspace.simulate(uid, policy, OPTIONS);
        const cli = await snapshot.simulate(uid, policy, OPTIONS);
        expect(placeless(cli), `${uid} ${policy}`).toEqual(placeless(editor));
      }
    }
  });

  it('the requests of every way out (kubeGcLens/simulateRequests), and a scale of every workload', async () => {
    const { workspace, snapshot } = await bothSessions(EXAMPLES);
    const plans = workspace.stuck(OPTIONS, 600).flatMap((i) => (i.waysOut ?? []).map((w) => w.requests!));
    for (const o of snapshot.inventory.objects.values())
      if (['Deployment', 'StatefulSet'].includes(o.kind))
        plans.push([{ verb: 'scale', apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, replicas: 0 }]);
    expect(plans.length).toBeGreaterThan(4);
    for (const plan of plans) {
      const editor = workspace.simulatePlan(plan, OPTIONS);
      expect(editor.targets.length).toBe(plan.length);
      expect(placeless(await snapshot.simulatePlan(plan, OPTIONS)), JSON.stringify(plan)).toEqual(placeless(editor));
    }
  });

  it('stuck and slow, measured to the newest timestamp of the files', async () => {
    const { workspace, snapshot } = await bothSessions(EXAMPLES);
    // The editor adds predicted deadlocks (its findings); what is terminating now is the same answer.
    const terminating = workspace.stuck(OPTIONS, 600).filter((i) => i.state === 'stuck' || i.state === 'slow');
    expect(terminating.length).toBeGreaterThan(0);
    expect(placeless(await snapshot.stuck(OPTIONS, 600))).toEqual(placeless(terminating));
  });
});
