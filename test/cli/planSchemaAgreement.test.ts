// The CLI's plan reader and the editor's params validator cannot disagree: every entry of every verb, with each of its
// fields (and `to`'s) replaced by each of a set of values or left out, is either taken by both or refused by both in
// the same words (the CLI's after `FILE:LINE:COL: `, the editor's after `params.`). In process: parsePlan on the JSON
// text and validateRequestParams on the value. A drift-guard beside the hand-written table (test/helpers/planCases.ts).
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../server/src/cli/plan';
import { validateRequestParams } from '../../server/src/lsp/methods';

const TARGET = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'held' };
const ENTRIES: Record<string, unknown>[] = [
  { verb: 'delete', ...TARGET, propagationPolicy: 'Orphan', orphanDependents: true, gracePeriodSeconds: 30 },
  { verb: 'remove-finalizer', ...TARGET, finalizer: 'example.com/hold' },
  { verb: 'remove-owner-reference', ...TARGET, ownerUid: 'u1' },
  {
    verb: 'set-owner-reference',
    ...TARGET,
    ownerUid: 'u1',
    to: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u2', controller: true, blockOwnerDeletion: false },
  },
  { verb: 'scale', ...TARGET, kind: 'Deployment', apiVersion: 'apps/v1', replicas: 2 },
  { verb: 'restore-controller', ...TARGET, finalizer: 'example.com/hold' },
  { verb: 'restore-backend', ...TARGET, kind: 'Service' },
  { verb: 'set-webhook-failure-policy', ...TARGET, webhook: 'w.example.com', failurePolicy: 'Ignore' },
];
/** undefined: the field left out. */
const VALUES: unknown[] = [undefined, null, '', 'x', 'Foreground', 'Ignore', 0, -1, 1.5, 2 ** 31, 1e300, true, [], {}, ['a'], { a: 1 }];

const METHOD = 'kubeGcLens/simulateRequests';

function cliSays(entry: unknown): string | undefined {
  try {
    parsePlan(JSON.stringify({ requests: [entry] }), 'plan.json');
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^plan\.json(:\d+:\d+)?: /, '');
  }
}

function editorSays(entry: unknown): string | undefined {
  const problem = validateRequestParams(METHOD, { requests: [entry] });
  return problem?.replace(`${METHOD}: params.`, '');
}

/** Each entry with one field replaced (or removed), `to`'s fields too, and one field added. */
function* variants(): Generator<[string, unknown]> {
  for (const entry of ENTRIES) {
    const fields = [...Object.keys(entry), 'extra'];
    for (const field of fields)
      for (const value of VALUES) {
        const v: Record<string, unknown> = { ...entry, [field]: value };
        if (value === undefined) delete v[field];
        yield [`${String(entry.verb)}.${field} = ${JSON.stringify(value) ?? 'absent'}`, v];
      }
    if (entry.to)
      for (const field of [...Object.keys(entry.to), 'extra'])
        for (const value of VALUES) {
          const to: Record<string, unknown> = { ...(entry.to as object), [field]: value };
          if (value === undefined) delete to[field];
          yield [`${String(entry.verb)}.to.${field} = ${JSON.stringify(value) ?? 'absent'}`, { ...entry, to }];
        }
  }
}

describe('the CLI and the editor read a plan entry alike', () => {
  it('every good entry is taken by both', () => {
    for (const entry of ENTRIES) {
      expect(cliSays(entry), String(entry.verb)).toBeUndefined();
      expect(editorSays(entry), String(entry.verb)).toBeUndefined();
    }
  });

  it('each variant is taken by both or refused by both in the same words', () => {
    let refused = 0;
    let taken = 0;
    for (const [name, entry] of variants()) {
      const cli = cliSays(entry);
      expect(editorSays(entry), name).toBe(cli);
      if (cli) refused++;
      else taken++;
    }
    // Both outcomes are exercised (the set of values is not all good or all bad).
    expect(refused).toBeGreaterThan(300);
    expect(taken).toBeGreaterThan(30);
  });
});
