// Test helper: what a way out's printed command made kubectl do, checked against the way out's own requests and
// patch: each call names exactly the object of its request (kind, namespace, name) and its patch holds the ops that
// request needs, in order (other ops, such as preconditions, may come between).

import { expect } from 'vitest';
import type { JsonPatchOp, PlanRequest, WayOut } from '../../shared/src/protocol';
import { commandLines } from '../../server/src/engine/shellWord';
import type { Call } from './shellWords';

const VALUED = new Set(['-n', '--namespace', '-p', '--patch', '-l', '-o', '-f', '--raw', '--type']);

/** kubectl's reading of its arguments (pflag: a flag's value is the next argument, whatever it starts with). */
export function kubectlArgs(argv: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) flags.set(a.slice(0, eq), a.slice(eq + 1));
    else if (VALUED.has(a)) flags.set(a, argv[++i]);
    else if (a.startsWith('-') && a.length > 1) flags.set(a, '');
    else positional.push(a);
  }
  return { positional, flags };
}

/** What each checked call was, for a test to show that every kind of printed command was pasted. */
export type Printed =
  | 'patch'
  | 'scale'
  | 'delete'
  | 'force-delete'
  | 'finalize'
  | 'scale-backend'
  | 'remove-finalizer'
  | 'remove-owner-reference'
  | 'set-webhook-failure-policy'
  | 'steps'
  | 'lines';

/** Checks `calls` (one pasted command's) against `way`; `replaced`: what a finalize sends; returns what it saw. */
export function checkPasted(way: WayOut, calls: Call[], replaced: unknown): Set<Printed> {
  const seen = new Set<Printed>();
  const label = `${way.title}\n${way.command}`;
  const kubectl = calls.filter((c) => c.program === 'kubectl');
  const jq = calls.filter((c) => c.program === 'jq');
  if (way.command.startsWith('#') && !way.command.includes('\n')) {
    expect(calls, label).toEqual([]);
    return seen;
  }
  const requests = way.requests ?? [];
  expect(requests.length, label).toBeGreaterThan(0);
  if (requests.length > 1) seen.add(way.command.includes('\n') ? 'lines' : 'steps');
  let next = 0;
  let comments = 0;
  for (const r of requests) {
    const call = kubectl[next] as Call | undefined;
    const args = kubectlArgs(call?.argv ?? []);
    // A backend is restored by scaling the Deployment named like its Service, or said in a comment.
    const scalesBackend =
      args.positional[0] === 'scale' && args.positional[1] === `deployment/${r.name}` && args.flags.get('-n') === r.namespace;
    if (r.verb === 'restore-controller' || (r.verb === 'restore-backend' && !scalesBackend)) {
      comments++;
      continue;
    }
    expect(call, `${label}: no call for ${JSON.stringify(r)}`).toBeDefined();
    next++;
    if (r.verb === 'restore-backend') {
      // The Deployment named like the Service, in its namespace.
      expect(args.positional, label).toEqual(['scale', `deployment/${r.name}`]);
      expect(args.flags.get('-n'), label).toBe(r.namespace);
      expect(args.flags.get('--replicas'), label).toBe('1');
      seen.add('scale-backend');
    } else if (r.verb === 'remove-finalizer' && r.kind === 'Namespace' && r.finalizer === 'kubernetes') {
      // get | jq | replace: a pipeline, whose stages start in any order.
      const stages = [kubectl[next - 1], kubectl[next++]];
      const get = stages.find((c) => c?.argv[0] === 'get')!;
      const replace = stages.find((c) => c?.argv[0] === 'replace')!;
      expect(get.argv, label).toEqual(['get', `namespace/${r.name}`, '-o', 'json']);
      expect(
        jq.map((c) => c.argv),
        label,
      ).toEqual([['.spec.finalizers -= ["kubernetes"]']]);
      const [verb, raw, path, file, dash] = replace.argv;
      expect([verb, raw, file, dash], label).toEqual(['replace', '--raw', '-f', '-']);
      const segments = path.split('/');
      expect(segments.slice(0, 4), label).toEqual(['', 'api', 'v1', 'namespaces']);
      expect(segments.slice(5), label).toEqual(['finalize']);
      expect(segments[4], label).toMatch(/^[A-Za-z0-9%._~-]+$/);
      expect(decodeURIComponent(segments[4]), label).toBe(r.name);
      expect(JSON.parse(replace.stdin!), label).toEqual(replaced);
      seen.add('finalize');
    } else {
      // A scale way out is a JSON patch of the scale subresource (its preconditions with it); a backend's, kubectl scale.
      const scalePatch = r.verb === 'scale' && args.positional[0] === 'patch';
      expect(args.positional[0], label).toBe(r.verb === 'delete' ? 'delete' : r.verb === 'scale' && !scalePatch ? 'scale' : 'patch');
      expect(args.positional.length, label).toBe(2);
      expectNames(args.positional[1], args.flags.get('-n'), r, label);
      if (r.verb === 'delete') {
        const force = r.gracePeriodSeconds === 0;
        if (force) expect([args.flags.get('--grace-period'), args.flags.has('--force')], label).toEqual(['0', true]);
        seen.add(force ? 'force-delete' : 'delete');
      } else if (scalePatch) {
        expect([args.flags.get('--subresource'), args.flags.get('--type')], label).toEqual(['scale', 'json']);
        const ops = JSON.parse(args.flags.get('-p')!) as JsonPatchOp[];
        expect(ops.at(-1), label).toEqual({ op: 'add', path: '/spec/replicas', value: r.replicas });
        if (way.patch) expect(ops, `${label}: the ops the editor sends`).toEqual(way.patch.ops);
        seen.add('scale');
      } else if (r.verb === 'scale') {
        expect(args.flags.get('--replicas'), label).toBe(String(r.replicas));
        seen.add('scale');
      } else {
        expect(args.flags.get('--type'), label).toBe('json');
        const ops = JSON.parse(args.flags.get('-p')!) as JsonPatchOp[];
        expectInOrder(ops, neededOps(r, ops), label);
        if (way.patch) expect(ops, `${label}: the ops the editor sends`).toEqual(way.patch.ops);
        seen.add('patch').add(r.verb as Printed);
      }
    }
  }
  expect(next, `${label}: every call is one of its requests`).toBe(kubectl.length);
  expect(
    commandLines(way.command).filter((l) => l.startsWith('#')),
    label,
  ).toHaveLength(comments);
  return seen;
}

/** TYPE/NAME as kubectl splits it (at the first `/`), the type naming the kind (and its group, when given). */
function expectNames(typeName: string, namespace: string | undefined, r: PlanRequest, label: string): void {
  const slash = typeName.indexOf('/');
  const [kind, ...group] = typeName.slice(0, slash).split('.');
  expect(kind, label).toBe(r.kind!.toLowerCase());
  const apiGroup = r.apiVersion!.includes('/') ? r.apiVersion!.split('/')[0] : '';
  if (group.length) expect(group.join('.'), label).toBe(apiGroup);
  expect(typeName.slice(slash + 1), label).toBe(r.name);
  expect(namespace, label).toBe(r.namespace || undefined);
}

/** The ops `r` cannot do without, at the index the patch uses. */
function neededOps(r: PlanRequest, ops: JsonPatchOp[]): JsonPatchOp[] {
  const index = (re: RegExp) => ops.map((o) => re.exec(o.path)?.[1]).find((i) => i !== undefined) ?? '?';
  switch (r.verb) {
    case 'remove-finalizer': {
      const path = `/metadata/finalizers/${index(/^\/metadata\/finalizers\/(\d+)$/)}`;
      return [
        { op: 'test', path, value: r.finalizer },
        { op: 'remove', path },
      ];
    }
    case 'remove-owner-reference': {
      const path = `/metadata/ownerReferences/${index(/^\/metadata\/ownerReferences\/(\d+)/)}`;
      return [
        { op: 'test', path: `${path}/uid`, value: r.ownerUid },
        { op: 'remove', path },
      ];
    }
    case 'set-webhook-failure-policy': {
      const i = index(/^\/webhooks\/(\d+)\//);
      return [
        { op: 'test', path: `/webhooks/${i}/name`, value: r.webhook },
        { op: 'replace', path: `/webhooks/${i}/failurePolicy`, value: r.failurePolicy },
      ];
    }
    default:
      throw new Error(`no printed patch expected for ${r.verb}`);
  }
}

function expectInOrder(ops: JsonPatchOp[], needed: JsonPatchOp[], label: string): void {
  let at = 0;
  for (const op of ops) if (at < needed.length && JSON.stringify(op) === JSON.stringify(needed[at])) at++;
  expect(at, `${label}: ${JSON.stringify(needed)} in order in ${JSON.stringify(ops)}`).toBe(needed.length);
}
