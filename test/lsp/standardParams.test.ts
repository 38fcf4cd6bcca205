// Standard requests whose handler is ours answer bad params with InvalidParams, like the custom ones
// (requestParams.test.ts), never an internal error; the server keeps answering.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InProcessServer, NO_PARAMS } from './inProcessServer';

let server: InProcessServer;
beforeAll(async () => {
  server = new InProcessServer();
  await server.initialize();
});
afterAll(() => server.dispose());

it('codeLens/resolve with no lens, null or a value that is not a code lens', async () => {
  // without params, the library itself answers InvalidParams ("defines 1 params but received none")
  expect((await server.raw('codeLens/resolve', NO_PARAMS)).error?.code).toBe(-32602);
  for (const params of [null, 3, 'lens', {}, { data: { uri: 'file:///x.yaml' } }]) {
    const answer = await server.raw('codeLens/resolve', params);
    expect(answer.error, JSON.stringify(params)).toEqual({ code: -32602, message: 'codeLens/resolve: params must be a code lens' });
  }
  const ok = await server.raw('codeLens/resolve', {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    data: { uri: 'file:///nothing.yaml', uid: 'none' },
  });
  expect(ok.error).toBeUndefined();
});
