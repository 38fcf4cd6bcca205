// The editor's kubeGcLens/simulateRequests and kubeGcLens/cluster/simulateRequests check their requests with the plan
// schema `simulate --plan` uses (shared/src/wire/planSchema.ts), on the same table of plans as the CLI
// (test/helpers/planCases.ts, run by test/cli/planSchema.test.ts): the same refusals in the same words, after
// "params." instead of the file's location (issue 23, defect 5: the editor ignored unknown fields the CLI refused,
// and the two said different things). The validator in process, the wire round trip where JSON can carry the value,
// and the VS Code client's check of a Simulate command's argument.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRequestParams } from '../../server/src/lsp/methods';
import { parseSimulateRequestsArgs } from '../../client/src/logic/simulateRequests';
import { BAD_PLANS, GOOD_PLANS, type PlanCase } from '../helpers/planCases';
import { InProcessServer } from './inProcessServer';

const METHODS = ['kubeGcLens/simulateRequests', 'kubeGcLens/cluster/simulateRequests'];
const INVALID_PARAMS = -32602;
const CLUSTER_UNAVAILABLE = -32010;

const withRequests = <C extends PlanCase>(cases: C[]) => cases.filter((c): c is C & { requests: unknown } => c.requests !== undefined);

/** JSON can carry it as it is (no NaN or Infinity, not nested past what JSON.stringify takes). */
function onTheWire(v: unknown): boolean {
  let finite = true;
  try {
    JSON.stringify(v, (_k, x: unknown) => {
      if (typeof x === 'number' && !Number.isFinite(x)) finite = false;
      return x;
    });
  } catch {
    return false;
  }
  return finite;
}

describe('the params validator says what the CLI says', () => {
  it('every case of the shared table runs here but the two JSON-RPC cannot carry', () => {
    expect(BAD_PLANS.filter((c) => c.requests === undefined).map((c) => c.name)).toEqual([
      'a duplicate key that would turn a DELETE into a scale',
      'an alias bomb',
    ]);
    expect(withRequests(GOOD_PLANS)).toHaveLength(GOOD_PLANS.length);
  });

  it.each(withRequests(BAD_PLANS).map((c) => [c.name, c] as const))('refuses %s', (_name, c) => {
    for (const method of METHODS)
      expect(validateRequestParams(method, { requests: c.requests })).toBe(`${method}: params.${c.editorMessage ?? c.message}`);
    expect(parseSimulateRequestsArgs({ requests: c.requests })).toBeUndefined();
  });

  it.each(GOOD_PLANS.map((c) => [c.name, c] as const))('takes %s', (_name, c) => {
    for (const method of METHODS) expect(validateRequestParams(method, { requests: c.requests })).toBeUndefined();
    expect(parseSimulateRequestsArgs({ requests: c.requests })).toEqual({ source: 'workspace', requests: c.requests });
  });
});

describe('over JSON-RPC, in process', () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = new InProcessServer();
    await server.initialize();
  });
  afterAll(() => server.dispose());

  it('answers InvalidParams with the same words, and simulates the good plans', async () => {
    for (const c of withRequests(BAD_PLANS).filter((c) => onTheWire(c.requests)))
      for (const method of METHODS) {
        const answer = await server.raw(method, { requests: c.requests });
        expect(answer.error?.code, c.name).toBe(INVALID_PARAMS);
        expect(answer.error?.message, c.name).toBe(`${method}: params.${c.editorMessage ?? c.message}`);
      }
    for (const c of GOOD_PLANS)
      for (const method of METHODS) {
        const answer = await server.raw(method, { requests: c.requests });
        // No workspace and no cluster: answered (an empty input's Report) or not connected, never InvalidParams.
        expect([0, CLUSTER_UNAVAILABLE], `${c.name}: ${JSON.stringify(answer.error)}`).toContain(answer.error?.code ?? 0);
      }
  });

  it('100,000 nested [ as params (valid JSON): InvalidParams naming the entry, and it keeps serving', async () => {
    const deep = `{"requests": [${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    for (const method of METHODS) {
      const answer = await server.rawText(method, deep);
      expect(answer.error?.code).toBe(INVALID_PARAMS);
      expect(answer.error?.message).toBe(`${method}: params.requests[0] must be a mapping`);
    }
    const after = await server.raw('kubeGcLens/simulateRequests', { requests: GOOD_PLANS[0].requests });
    expect(after.error).toBeUndefined();
  });
});
