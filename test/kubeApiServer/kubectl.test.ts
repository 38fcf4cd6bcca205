// Fidelity of the Kubernetes API test server with the real kubectl: if kubectl (any version from Debian's 1.20,
// which only knows legacy discovery, to 1.33) reads it like a cluster, so will the product's client stack.
// Uses `$KUBECTL`, else the `kubectl` on PATH (CI installs Debian's kubernetes-client when there is none).
// kubectl runs as a child process, asynchronously: the server lives in this process and must keep answering.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubeApiServer, startKubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = join(__dirname, '..', 'fixtures', 'discovery');

function findKubectl(): string | undefined {
  if (process.env.KUBECTL) return process.env.KUBECTL;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, 'kubectl'), constants.X_OK);
      return join(dir, 'kubectl');
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const KUBECTL = findKubectl();
let server: KubeApiServer;
let home: string;
let env: NodeJS.ProcessEnv;

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL as string, [...args, '--request-timeout=10s'], { env, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function ok(args: string[]): Promise<string> {
  const r = await kubectl(args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const pod = (namespace: string, name: string): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: 'web' } },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
});

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [{ name: 'v1', served: true, storage: true }],
  },
};

beforeAll(async () => {
  if (!KUBECTL) {
    throw new Error('kubectl not found: set $KUBECTL or put kubectl on PATH (Debian: apt-get install kubernetes-client, as .ci/run does)');
  }
  server = await startKubeApiServer({ token: 'kubectl-test-token' });
  for (const ns of ['shop', 'kafka']) server.add({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (const name of ['web-1', 'web-2', 'web-3']) server.add(pod('shop', name));
  server.add(pod('kafka', 'broker-0'));
  for (const name of ['web', 'api']) {
    server.add({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'shop', labels: { app: name } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
  }
  server.add(CRD);
  server.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'shop' }, spec: { size: 3 } });
  // A fresh HOME: kubectl's discovery cache (~/.kube/cache) starts empty.
  home = mkdtempSync(join(tmpdir(), 'kubectl-test-'));
  env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: server.writeKubeconfig(home) };
});

afterAll(async () => {
  await server?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe(`kubectl (${KUBECTL ?? 'not installed'}) against the test server`, () => {
  it("api-resources lists what discovery serves: the fixture's preferred resources and the CRD's", async () => {
    const expected = new Set<string>();
    const core = JSON.parse(readFileSync(join(FIXTURES, 'api__v1.json'), 'utf8')) as Json;
    for (const r of core.resources) if (!r.name.includes('/')) expected.add(`${r.name} v1 ${r.namespaced} ${r.kind}`);
    const aggregated = JSON.parse(readFileSync(join(FIXTURES, 'aggregated_v2.json'), 'utf8')) as Json;
    // client-go's ServerPreferredResources: each resource of a group once, in its first (preferred) version.
    for (const g of aggregated.items) {
      const seen = new Set<string>();
      for (const v of g.versions) {
        for (const r of v.resources) {
          if (seen.has(r.resource)) continue;
          seen.add(r.resource);
          expected.add(`${r.resource} ${g.metadata.name}/${v.version} ${r.scope === 'Namespaced'} ${r.responseKind.kind}`);
        }
      }
    }
    expected.add('widgets example.com/v1 true Widget');

    const lines = (await ok(['api-resources'])).trim().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    const printed = lines.slice(1).map((line) => {
      const t = line.trim().split(/\s+/);
      return `${t[0]} ${t[t.length - 3]} ${t[t.length - 2]} ${t[t.length - 1]}`;
    });
    expect(new Set(printed)).toEqual(expected);
    expect(printed).toHaveLength(expected.size);
    expect(lines.find((l) => l.startsWith('widgets '))?.split(/\s+/)[1]).toBe('wd');
  });

  it('get pods -A prints every stored pod', async () => {
    const lines = (await ok(['get', 'pods', '-A'])).trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s/);
    const printed = lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join('/'));
    const stored = server
      .objects()
      .filter((o) => o.kind === 'Pod')
      .map((o) => {
        const m = o.metadata as Json;
        return `${m.namespace}/${m.name}`;
      });
    expect(printed.sort()).toEqual(stored.sort());
    expect(server.requests.some((r) => r.verb === 'list' && r.resource === 'pods' && r.namespace === undefined)).toBe(true);
  });

  it('get deployments -n shop -o yaml prints the stored objects', async () => {
    const list = parse(await ok(['get', 'deployments', '-n', 'shop', '-o', 'yaml'])) as Json;
    expect(list.kind).toBe('List');
    const stored = server.objects().filter((o) => o.kind === 'Deployment');
    const byName = (a: Json, b: Json) => (a.metadata.name < b.metadata.name ? -1 : 1);
    expect([...list.items].sort(byName)).toEqual([...stored].sort(byName));
  });

  it("get of custom resources, and the apiserver's NotFound and Forbidden errors", async () => {
    expect(await ok(['get', 'widgets', '-n', 'shop', '-o', 'name'])).toBe('widget.example.com/w1\n');
    const missing = await kubectl(['get', 'pod', 'nope', '-n', 'shop']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Error from server (NotFound): pods "nope" not found');
    server.faults.forbid({ group: '', resource: 'secrets', namespace: 'shop' });
    try {
      const forbidden = await kubectl(['get', 'secrets', '-n', 'shop']);
      expect(forbidden.code).not.toBe(0);
      expect(forbidden.stderr).toContain(
        'Error from server (Forbidden): secrets is forbidden: User "test" cannot list resource "secrets" in API group "" in the namespace "shop"',
      );
    } finally {
      server.faults.clear();
    }
  });

  it('copes with a down aggregated API (failDiscovery) as with a real one', async () => {
    server.faults.failDiscovery('metrics.k8s.io/v1beta1');
    try {
      const cache = ['--cache-dir', join(home, 'cache-with-metrics-down')]; // discovery again, not from the cache
      const resources = await kubectl(['api-resources', ...cache]);
      expect(resources.stdout).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
      // Legacy discovery (kubectl 1.20) fails the group/version's 503 as it fails a real down metrics-server.
      if (resources.code !== 0)
        expect(resources.stderr).toContain('metrics.k8s.io/v1beta1: the server is currently unable to handle the request');
      expect(await ok(['get', 'pods', '-n', 'kafka', '-o', 'name', ...cache])).toBe('pod/broker-0\n');
    } finally {
      server.faults.clear();
    }
  });

  it('get pods --watch prints a pod added after it started', async () => {
    const child = spawn(KUBECTL as string, ['get', 'pods', '-n', 'shop', '--watch', '--request-timeout=20s'], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const until = async (done: () => boolean, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`kubectl --watch: no ${what} in ${JSON.stringify(out)} (stderr ${JSON.stringify(err)})`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    try {
      await until(() => out.includes('web-3'), 'initial list');
      const listRv = server.requests.filter((r) => r.verb === 'list' && r.resource === 'pods' && r.namespace === 'shop').length;
      expect(listRv).toBeGreaterThan(0);
      server.add(pod('shop', 'late-1'));
      await until(() => out.includes('late-1'), 'late pod');
      const watch = server.requests.find((r) => r.verb === 'watch' && r.resource === 'pods' && r.namespace === 'shop');
      expect(watch?.query.resourceVersion).toMatch(/^\d+$/);
    } finally {
      child.kill();
      await exited;
    }
    expect(out.split('\n').filter((l) => l.startsWith('late-1'))).toHaveLength(1);
    server.remove({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'late-1' });
  });

  it('get --raw pages with limit and continue', async () => {
    const names: string[] = [];
    let path = '/api/v1/namespaces/shop/pods?limit=1';
    for (let pages = 0; pages < 10; pages++) {
      const page = JSON.parse(await ok(['get', '--raw', path])) as Json;
      expect(page.kind).toBe('PodList');
      expect(page.items).toHaveLength(1);
      names.push(page.items[0].metadata.name);
      if (!page.metadata.continue) break;
      path = `/api/v1/namespaces/shop/pods?limit=1&continue=${encodeURIComponent(page.metadata.continue)}`;
    }
    expect(names).toEqual(['web-1', 'web-2', 'web-3']);
  });

  it('the ManagedFieldsOptOut gate changes nothing for kubectl, which never asks to drop managedFields', async () => {
    const managedFields = [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-11-20T08:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } },
      },
    ];
    server.add({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'kafka', managedFields },
      data: { k: 'v' },
    });
    const commands = [
      ['get', '--raw', '/api/v1/namespaces/kafka/configmaps'],
      ['get', '--raw', '/api/v1/namespaces/kafka/configmaps/settings'],
      ['get', 'configmaps', '-n', 'kafka', '-o', 'yaml'],
      ['get', 'configmaps', '-n', 'kafka', '-o', 'name'],
    ];
    try {
      const off = await Promise.all(commands.map((c) => ok(c)));
      expect((JSON.parse(off[1]) as Json).metadata.managedFields).toEqual(managedFields);
      server.managedFieldsOptOut = true;
      const first = server.requests.length;
      const on = await Promise.all(commands.map((c) => ok(c)));
      expect(on).toEqual(off);
      const asked = server.requests.slice(first);
      expect(asked.length).toBeGreaterThanOrEqual(commands.length);
      expect(asked.filter((r) => r.accept.includes('drop='))).toEqual([]);
    } finally {
      server.managedFieldsOptOut = false;
      server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kafka', name: 'settings' });
    }
  });

  it('never wrote', () => {
    const verbs = server.countByVerb();
    for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection']) expect(verbs[verb]).toBeUndefined();
  });
});
