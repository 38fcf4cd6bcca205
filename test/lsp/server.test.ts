// The language server driven like an editor, over both transports: the built server over stdio (the real
// transport) and its source in process (testkit/lsp/inMemoryServer.ts): workspace loading, diagnostics with exact
// ranges and related information, incremental edits, cross-file owners, settings, custom requests, bad input.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, DidChangeWatchedFilesNotification, FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol';
import {
  CheckRequest,
  GraphRequest,
  ObjectAtRequest,
  ObjectsRequest,
  SimulateRequest,
  SimulateRequestsRequest,
  StuckRequest,
} from '../../server/src/lsp/methods';
import { LspSession, uriOf } from '../../testkit/lsp/lspSession';
import { DEPLOYMENT, replicaSet } from './fixtures';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const sessions: LspSession[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TRANSPORTS = ['stdio', 'in-process'] as const;
type Transport = (typeof TRANSPORTS)[number];

async function startWith(transport: Transport, folder?: string, settings?: Record<string, unknown>): Promise<LspSession> {
  const s = new LspSession({ folder, settings, transport });
  sessions.push(s);
  await s.initialize();
  return s;
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kube-gc-lsp-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const codes = (d: Diagnostic[] | undefined) => (d ?? []).map((x) => x.code).sort();
const at = (d: Diagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;

describe.each(TRANSPORTS)('language server (%s)', (transport) => {
  const start = (folder?: string, settings?: Record<string, unknown>) => startWith(transport, folder, settings);

  it('publishes the examples folder findings with the ranges the CLI reports', async () => {
    const s = await start(EXAMPLES);
    const checkout = uriOf(path.join(EXAMPLES, 'deployment-export-from-another-cluster/checkout-export.yaml'));
    const kafka = uriOf(path.join(EXAMPLES, 'operator-finalizers-kafka/kafka-clusters-export.yaml'));
    const exportDiags = await s.diagnosticsFor(checkout);
    expect(exportDiags.map((d) => `${d.code}@${at(d)}`)).toEqual(['owner-uid-mismatch@111:12', 'dangling-owner@584:12']);
    expect(exportDiags.every((d) => d.severity === DiagnosticSeverity.Error && d.source === 'kube-gc-lens')).toBe(true);
    expect(exportDiags[0].codeDescription?.href).toMatch(/\/docs\/findings\.md#owner-uid-mismatch$/);
    // The owner with the other uid is the related information, with its location.
    expect(exportDiags[0].relatedInformation?.[0].location.uri).toBe(checkout);
    expect(exportDiags[0].relatedInformation?.[0].message).toContain('64b1c1b1-59ad-4af3-a756-871bd6965119');
    // Predictions (simulation-backed) arrive once the server is idle.
    const kafkaDiags = await s.diagnosticsFor(kafka, (d) => d.length === 2);
    expect(kafkaDiags.map((d) => `${d.code}@${at(d)}`)).toEqual(['finalizer-deadlock@10:7', 'finalizer-deadlock@77:7']);
    const check = await s.connection.sendRequest(CheckRequest);
    expect(check.objects).toBe(29);
    expect(check.files).toBe(15);
    expect(check.findings.map((f) => f.code).sort()).toEqual([
      'dangling-owner',
      'finalizer-deadlock',
      'finalizer-deadlock',
      'owner-uid-mismatch',
      'stuck-terminating',
      'stuck-terminating',
    ]);
  });

  it('links an owner on disk to a dependent in an open editor, and follows edits', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT });
    const s = await start(dir);
    const rsUri = uriOf(path.join(dir, 'replicaset.yaml'));
    await s.open(rsUri, replicaSet('99999999-9999-9999-9999-999999999999'));
    const wrong = await s.diagnosticsFor(rsUri, (d) => d.length > 0);
    expect(codes(wrong)).toEqual(['owner-uid-mismatch']);
    expect(wrong[0].range).toEqual({ start: { line: 10, character: 9 }, end: { line: 10, character: 45 } });
    expect(wrong[0].relatedInformation?.[0].location.uri).toBe(uriOf(path.join(dir, 'deployment.yaml')));
    expect(wrong[0].data).toMatchObject({
      uid: '22222222-2222-2222-2222-222222222222',
      location: { kind: 'ownerReference', index: 0, field: 'uid' },
    });
    // Fix the uid with an incremental edit: the diagnostics go away.
    await s.edit(rsUri, { start: { line: 10, character: 9 }, end: { line: 10, character: 45 } }, '11111111-1111-1111-1111-111111111111');
    expect(await s.diagnosticsFor(rsUri, (d) => d.length === 0)).toEqual([]);
    // Break the name instead: the owner is now missing.
    await s.edit(rsUri, { start: { line: 9, character: 10 }, end: { line: 9, character: 13 } }, 'api');
    expect(codes(await s.diagnosticsFor(rsUri, (d) => d.length > 0))).toEqual(['owner-coordinates-mismatch']);
  });

  it('re-analyses dependents when their owner file changes on disk', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT, 'replicaset.yaml': replicaSet('11111111-1111-1111-1111-111111111111') });
    const s = await start(dir);
    const rsUri = uriOf(path.join(dir, 'replicaset.yaml'));
    expect(s.diagnostics.get(rsUri) ?? []).toEqual([]);
    rmSync(path.join(dir, 'deployment.yaml'));
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(path.join(dir, 'deployment.yaml')), type: FileChangeType.Deleted }],
    });
    expect(codes(await s.diagnosticsFor(rsUri, (d) => d.length > 0))).toEqual(['dangling-owner']);
    writeFileSync(path.join(dir, 'deployment.yaml'), DEPLOYMENT);
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(path.join(dir, 'deployment.yaml')), type: FileChangeType.Created }],
    });
    expect(await s.diagnosticsFor(rsUri, (d) => d.length === 0)).toEqual([]);
  });

  it('honours severity settings and turns codes off', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT, 'replicaset.yaml': replicaSet('99999999-9999-9999-9999-999999999999') });
    const hint = await start(dir, { kubeGcLens: { severity: { 'owner-uid-mismatch': 'hint' } } });
    const rsUri = uriOf(path.join(dir, 'replicaset.yaml'));
    expect((await hint.diagnosticsFor(rsUri))[0].severity).toBe(DiagnosticSeverity.Hint);
    const off = await start(dir, { kubeGcLens: { severity: { 'owner-uid-mismatch': 'off' } } });
    expect(off.diagnostics.get(rsUri) ?? []).toEqual([]);
    expect(off.status?.findings).toBe(0);
  });

  it('honours files.exclude and the include globs, and ignores JSON/YAML that is not Kubernetes', async () => {
    const dir = workspace({
      'replicaset.yaml': replicaSet('99999999-9999-9999-9999-999999999999'),
      'package.json': '{ "name": "x", "version": "1.0.0" }',
      'workflow.yml': 'on: [push]\njobs: {build: {runs-on: ubuntu-latest\n',
    });
    const s = await start(dir, { files: { exclude: { '**/replicaset.yaml': true } } });
    expect(s.status?.files).toBe(0);
    expect([...s.diagnostics.keys()]).toEqual([]);
  });

  it('reports a broken document and keeps the others of the same file', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT });
    const s = await start(dir);
    const uri = uriOf(path.join(dir, 'mixed.yaml'));
    await s.open(
      uri,
      `${replicaSet('99999999-9999-9999-9999-999999999999')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: [broken\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Values.name }}\n`,
    );
    const d = await s.diagnosticsFor(uri, (x) => x.length >= 3);
    expect(codes(d)).toEqual(['owner-uid-mismatch', 'template', 'yaml-syntax']);
    expect(d.find((x) => x.code === 'yaml-syntax')!.range.start.line).toBeGreaterThanOrEqual(15);
  });

  it('survives half-typed YAML on every keystroke and binary text', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT });
    const s = await start(dir);
    const uri = uriOf(path.join(dir, 'typing.yaml'));
    const final = replicaSet('99999999-9999-9999-9999-999999999999');
    await s.open(uri, '');
    for (let i = 1; i <= final.length; i++) await s.replace(uri, final.slice(0, i));
    expect(codes(await s.diagnosticsFor(uri, (d) => codes(d).join() === 'owner-uid-mismatch'))).toEqual(['owner-uid-mismatch']);
    const bin = uriOf(path.join(dir, 'blob.yaml'));
    await s.open(bin, 'apiVersion: v1\nkind: Pod\n\u0000\u0001\u0002\u00ff binary');
    await s.diagnosticsFor(bin, (d) => d.length > 0);
    // Still serving: a request answers, and nothing went wrong in the process.
    const objects = await s.connection.sendRequest(ObjectsRequest, {});
    expect(objects.map((o) => o.name).sort()).toEqual(['web', 'web-5d4f']);
    expect(s.exitCode).toBeNull();
    expect(s.logs.filter((l) => /Unexpected error|Unhandled rejection/.test(l))).toEqual([]);
  });

  it('answers the custom requests', async () => {
    const dir = workspace({ 'deployment.yaml': DEPLOYMENT, 'replicaset.yaml': replicaSet('11111111-1111-1111-1111-111111111111') });
    const s = await start(dir);
    const rsUri = uriOf(path.join(dir, 'replicaset.yaml'));
    const at = await s.connection.sendRequest(ObjectAtRequest, { uri: rsUri, position: { line: 3, character: 8 } });
    expect(at).toMatchObject({ kind: 'ReplicaSet', name: 'web-5d4f', namespace: 'shop', ownerCount: 1, syntheticUid: false });
    expect(at?.location?.uri).toBe(rsUri);
    const report = await s.connection.sendRequest(SimulateRequest, { uid: '11111111-1111-1111-1111-111111111111', policy: 'Foreground' });
    expect(report?.deleted.map((d) => `${d.kind}/${d.name}`)).toEqual(['ReplicaSet/web-5d4f', 'Deployment/web']);
    expect(report?.counts.deletedByKind).toEqual({ ReplicaSet: 1, Deployment: 1 });
    expect(report?.locations['22222222-2222-2222-2222-222222222222']?.uri).toBe(rsUri);
    const orphan = await s.connection.sendRequest(SimulateRequest, { uid: '11111111-1111-1111-1111-111111111111', policy: 'Orphan' });
    expect(orphan?.orphaned.map((o) => o.name)).toEqual(['web-5d4f']);
    expect(await s.connection.sendRequest(SimulateRequest, { uid: 'nope', policy: 'default' })).toBeNull();
    const graph = await s.connection.sendRequest(GraphRequest, { uid: '22222222-2222-2222-2222-222222222222' });
    expect(graph.nodes.map((n) => n.name).sort()).toEqual(['web', 'web-5d4f']);
    expect(graph.edges).toEqual([
      {
        from: '22222222-2222-2222-2222-222222222222',
        to: '11111111-1111-1111-1111-111111111111',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(await s.connection.sendRequest(StuckRequest)).toEqual([]);
    // Requests besides DELETE (a version 3 addition): the same Report, with what was asked and where it is written.
    const scaled = await s.connection.sendRequest(SimulateRequestsRequest, {
      requests: [{ verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', replicas: 0 }],
    });
    expect(scaled.subject).toBe('Scaling Deployment shop/web to 0 replicas');
    expect(scaled.summary.startsWith(`${scaled.subject}: `)).toBe(true);
    expect(scaled.targets).toMatchObject([
      { kind: 'Deployment', name: 'web', outcome: 'unchanged', change: { verb: 'scale', detail: '0' } },
    ]);
    expect(scaled.locations['11111111-1111-1111-1111-111111111111']?.uri).toBe(uriOf(path.join(dir, 'deployment.yaml')));
    const unowned = await s.connection.sendRequest(SimulateRequestsRequest, {
      requests: [
        {
          verb: 'remove-owner-reference',
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          namespace: 'shop',
          name: 'web-5d4f',
          ownerUid: '11111111-1111-1111-1111-111111111111',
        },
        { verb: 'delete', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
      ],
    });
    expect(unowned.subject).toBe(
      'Removing the ownerReference to uid 11111111-1111-1111-1111-111111111111 from ReplicaSet shop/web-5d4f, then deleting Deployment shop/web',
    );
    expect(unowned.deleted.map((d) => d.name)).toEqual(['web']);
  });

  it('lists stuck objects with their why-chain', async () => {
    const s = await start(path.join(EXAMPLES, 'namespace-stuck-terminating'));
    const stuck = await s.connection.sendRequest(StuckRequest);
    expect(stuck.map((i) => `${i.state} ${i.kind}/${i.name}`).sort()).toEqual([
      'stuck Namespace/legacy-mq',
      'stuck RabbitmqCluster/orders',
    ]);
    const ns = stuck.find((i) => i.kind === 'Namespace')!;
    expect(ns.blockedBy[0].type).toBe('namespace-content');
    expect(ns.blockedBy[0].blockedBy?.[0].object?.name).toBe('orders');
    expect(ns.blockedBy[0].blockedBy?.[0].blockedBy?.[0].finalizer).toBe('deletion.finalizers.rabbitmqclusters.rabbitmq.com');
    expect(ns.ageSeconds).toBeGreaterThan(0);
    expect(ns.locations?.['d39f74d1-8022-49db-adb6-b79231b166b0']?.uri).toBe(
      uriOf(path.join(EXAMPLES, 'namespace-stuck-terminating/orders-rabbitmqcluster.yaml')),
    );
  });

  it('gives the same stuck answer as kubectl gc stuck -o json on the same files (but where each object is written)', async () => {
    const dir = path.join(EXAMPLES, 'namespace-stuck-terminating');
    const s = await start(dir);
    const editor = await s.connection.sendRequest(StuckRequest);
    const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../../dist/cli.js'), 'stuck', '-f', dir, '-o', 'json'], {
      encoding: 'utf8',
    });
    const placeless = ({ location: _location, locations: _locations, ...rest }: { location?: unknown; locations?: unknown }) => rest;
    // Each front end names its own way to set a finalizer's owner: the CLI its flag, the editor its setting.
    const hintless = (items: unknown[]) =>
      JSON.parse(
        JSON.stringify(items.map((i) => placeless(i as object)))
          .replaceAll('pass --finalizer-owner FINALIZER=Kind/namespace/name', 'HINT')
          .replaceAll('set kubeGcLens.finalizerOwners', 'HINT'),
      );
    expect(JSON.stringify(editor)).toContain('set kubeGcLens.finalizerOwners');
    expect(hintless(editor)).toEqual(hintless(JSON.parse(cli.stdout).stuck));
  });
});

describe('the server process', () => {
  it('refuses to start without a transport and prints usage on stderr only', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, [path.resolve(__dirname, '../../dist/server.js')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--stdio');
  });
});

describe.each(TRANSPORTS)('editor features (%s)', (transport) => {
  const start = (folder?: string) => startWith(transport, folder);
  const folder = path.join(EXAMPLES, 'deployment-export-from-another-cluster');
  const file = path.join(folder, 'checkout-export.yaml');
  const uri = uriOf(file);

  it('hovers an ownerReference, lists and resolves code lenses, and offers quick fixes with their edits', async () => {
    const { readFileSync } = await import('node:fs');
    const { HoverRequest, CodeLensRequest, CodeLensResolveRequest, CodeActionRequest } = await import('vscode-languageserver-protocol');
    const s = await start(folder);
    const text = readFileSync(file, 'utf8');
    await s.open(uri, text);
    const diags = await s.diagnosticsFor(uri, (d) => d.length === 2);

    // Hover on the stale owner uid of the ReplicaSet (line 111, 1-based).
    const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 110, character: 15 } });
    const md = (hover?.contents as { kind: string; value: string }).value;
    expect((hover?.contents as { kind: string }).kind).toBe('markdown');
    expect(md).toContain('64b1c1b1-59ad-4af3-a756-871bd6965119');
    expect(md).toContain('checkout-export.yaml#L17');
    expect(await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } })).toBeNull();

    // Lenses: one impact lens per object (6), owner lenses on the ReplicaSet and the four Pods.
    const lenses = (await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } }))!;
    const impact = lenses.filter((l) => !l.command);
    expect(impact).toHaveLength(6);
    expect(lenses.filter((l) => l.command).map((l) => l.command!.title)).toEqual([
      'Owner Deployment checkout not found (uid differs)',
      'Owned by ReplicaSet checkout-7d9f8b6c5d',
      'Owned by ReplicaSet checkout-7d9f8b6c5d',
      'Owned by ReplicaSet checkout-7d9f8b6c5d',
      'Owner ReplicaSet checkout-5b8c9d7f4 not found',
    ]);
    const deployment = await s.connection.sendRequest(CodeLensResolveRequest.type, impact[0]);
    expect(deployment.range.start.line).toBe(6);
    expect(deployment.command).toMatchObject({
      command: 'kubeGcLens.simulateDelete',
      arguments: ['64b1c1b1-59ad-4af3-a756-871bd6965119', 'default'],
    });
    expect(deployment.command!.title).toBe('Delete: only this Deployment');

    // Quick fixes: the uid of the existing Deployment; removing the dangling reference (and the key with it).
    const actions = (await s.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diags[0].range,
      context: { diagnostics: diags },
    }))! as { title: string; edit: { changes: Record<string, { range: unknown; newText: string }[]> } }[];
    // (No "Simulate …" actions: this client did not say it runs kubeGcLens.simulateRequests.)
    expect(actions.map((a) => a.title)).toEqual([
      'Use the uid of the existing Deployment checkout (64b1c1b1-59ad-4af3-a756-871bd6965119)',
      'Remove the ownerReference to ReplicaSet checkout-5b8c9d7f4',
    ]);
    const quickFixes = (await s.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diags[0].range,
      context: { diagnostics: diags, only: ['quickfix'] },
    }))!;
    expect(quickFixes.map((a) => a.title)).toEqual(actions.map((a) => a.title));
    expect(actions[0].edit.changes[uri]).toEqual([{ range: diags[0].range, newText: '64b1c1b1-59ad-4af3-a756-871bd6965119' }]);
    expect(actions[1].edit.changes[uri]).toEqual([
      { range: { start: { line: 577, character: 0 }, end: { line: 584, character: 0 } }, newText: '' },
    ]);
  });
});

describe('requests during the workspace load', () => {
  it('answers a code lens request sent before the load ends with the loaded workspace, then asks for a lens refresh', async () => {
    const folder = path.join(EXAMPLES, 'deployment-export-from-another-cluster');
    const uri = uriOf(path.join(folder, 'checkout-export.yaml'));
    const { readFileSync } = await import('node:fs');
    const { CodeLensRequest } = await import('vscode-languageserver-protocol');
    const s = new LspSession({ folder });
    sessions.push(s);
    await s.initializeWithoutWaiting();
    await s.open(uri, readFileSync(path.join(folder, 'checkout-export.yaml'), 'utf8'));
    const lenses = await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    expect(lenses?.filter((l) => !l.command)).toHaveLength(6);
    await s.until(() => s.status?.state === 'ready' && s.codeLensRefreshes > 0, 'a code lens refresh after the load');
  });
});
