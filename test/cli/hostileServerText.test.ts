// Output that cannot be forged, from a cluster (issue 13, defect 9): what a server says (object names, a
// Namespace's status conditions, the message of a 403 Status) reaches the terminal escaped, on stdout and stderr.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliProcess';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { pod, pvc, terminatingNs } from '../cluster/clusterFixtures';

/** A namespace name that sets the terminal's title, turns it red and starts a fake finding on a new line. */
const EVIL_NS = 'vault\u001b]0;pwned\u0007\u001b[31m\nfile.yaml:7:7: error forged-status\u202e';
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const forgedLines = (out: string) => out.split('\n').filter((l) => /^\s*file\.yaml:\d+:\d+/.test(l));

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'hostile-text' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-hostile-server-'));
  kubeconfig = server.writeKubeconfig(dir);
  // Terminating, with a condition message the server made up, and a claim a Pod mounts: its Pods are read in full.
  server.add(
    terminatingNs(EVIL_NS, 'ns-evil', [
      { type: 'NamespaceContentRemaining', status: 'True', reason: 'R\u001b[2J', message: `left: ${EVIL_NS}` },
    ]),
  );
  server.add(pvc(EVIL_NS, 'data', 'pvc-evil', { deletionTimestamp: '2026-11-20T09:00:00Z' }));
  server.add(pod(EVIL_NS, 'db-0', 'p-evil', { claims: ['data'] }));
  // Held by a finalizer nobody removes: the Pod and its Namespace are stuck.
  server.add(
    pod(EVIL_NS, 'held\u001b]0;x\u0007', 'p-held', {
      deletionTimestamp: '2026-11-20T09:00:00Z',
      finalizers: ['storage.acme.io/protect\u001b[31m'],
    }),
  );
  // Reading those Pods is refused: the 403 Status message quotes the namespace.
  server.faults.forbid({ group: '', resource: 'pods', namespace: EVIL_NS });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { KUBECONFIG: kubeconfig });

describe('text output from a hostile server', () => {
  it('stuck: the 403 Status message in the warning, the names and the status condition, all escaped', async () => {
    const r = await cli(['stuck']);
    expect(r.code).toBe(0);
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toMatch(RAW);
      expect(forgedLines(out)).toEqual([]);
    }
    // The server's own message, still there to read.
    expect(r.stderr).toMatch(
      /^warning: .*pods is forbidden: .*in the namespace "vault\\x1b\]0;pwned\\x07\\x1b\[31m\\nfile\.yaml:7:7: error forged-status\\u202e"/m,
    );
    expect(r.stdout).toContain('status: NamespaceContentRemaining (R\\x1b[2J): left: vault\\x1b]0;pwned');
    expect(r.stdout).toContain('Pod vault\\x1b]0;pwned\\x07\\x1b[31m\\nfile.yaml:7:7: error forged-status\\u202e/held\\x1b]0;x\\x07');
    expect(r.stdout).toContain('storage.acme.io/protect\\x1b[31m');
  });

  it('stuck -o json: the exact values, no raw control character', async () => {
    const r = await cli(['stuck', '-o', 'json']);
    expect(r.stdout).not.toMatch(RAW);
    const data = JSON.parse(r.stdout);
    expect(data.stuck.map((s: { namespace: string; name: string }) => s.name)).toContain(EVIL_NS);
    expect(data.incomplete).toEqual([expect.stringContaining(`in the namespace "${EVIL_NS}"`)]);
  });
});
