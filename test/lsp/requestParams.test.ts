// Params of the custom requests are checked at the boundary (issue 13, defect 10): null, missing or wrongly typed
// params get JSON-RPC InvalidParams (-32602) naming the first bad field, never an internal error (-32603), and the
// server keeps answering. Every request method shared/src/wire/methods.ts declares is covered: the list comes from its exports, so a
// new method without a validator (or not registered through the validating helper) fails here. The cases are written
// by hand, not derived from the validators. In process (exact wire messages: `params: null`, no params, arrays) and
// over stdio (the built dist/server.js, as an editor drives it), plus the params the VS Code client builds.

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as methods from '../../shared/src/wire/methods';
import {
  DEFAULT_SEARCH_LIMIT,
  LIVE_SCHEME,
  obj,
  optional,
  str,
  type ObjectsParams,
  type SimulateParams,
  type Validator,
} from '../../shared/src/protocol';
import { ObjectsRequest, REQUEST_PARAMS, validateRequestParams } from '../../server/src/lsp/methods';
import { connectParams } from '../../client/src/logic/clusterSettings';
import { scopeParams } from '../../client/src/logic/graphScope';
import { InProcessServer, NO_PARAMS, type RawResponse } from './inProcessServer';
import { LspSession } from '../../testkit/lsp/lspSession';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const CLUSTER_UNAVAILABLE = -32010;

/** Every request method the wire module declares (shared/src/wire/methods.ts). */
const METHODS = (Object.values(methods) as { kind?: string; method?: string }[])
  .filter((v) => v.kind === 'request')
  .map((t) => t.method!)
  .sort();

const NOTIFICATIONS = (Object.values(methods) as { kind?: string; method?: string }[])
  .filter((v) => v.kind === 'notification')
  .map((t) => t.method!);

/** [params as sent, the field the answer must name]. */
type Bad = [params: unknown, field: string];

interface Cases {
  /** Params that are fine (the answer may still be an error, e.g. not connected, but never InvalidParams). */
  good: unknown[];
  bad: Bad[];
}

/** Not an object: every method with params refuses these as a whole. */
const NOT_AN_OBJECT: Bad[] = [
  [NO_PARAMS, 'params'],
  [null, 'params'],
  [[], 'params'],
  [[1, 2], 'params'],
  [5, 'params'],
  ['x', 'params'],
  [true, 'params'],
];

/** A request that takes no params: absent, null, {} and [] are all "none"; a value is not. */
const NONE: Cases = {
  good: [NO_PARAMS, null, {}, []],
  bad: [
    [5, 'params'],
    ['x', 'params'],
    [[1, 2], 'params'],
  ],
};

const POSITION = { line: 0, character: 0 };

const SIMULATE: Cases = {
  good: [
    { uid: 'no-such-uid', policy: 'default' },
    { uid: 'u', policy: 'Orphan', controllers: 'gc' },
  ],
  bad: [
    ...NOT_AN_OBJECT,
    [{}, 'params.uid'],
    [{ uid: 5, policy: 'default' }, 'params.uid'],
    [{ uid: null, policy: 'default' }, 'params.uid'],
    [{ uid: 'u' }, 'params.policy'],
    [{ uid: 'u', policy: 'Sideways' }, 'params.policy'],
    [{ uid: 'u', policy: null }, 'params.policy'],
    [{ uid: 'u', policy: 'default', controllers: 'all' }, 'params.controllers'],
    [{ uid: 'u', policy: 'default', controllers: null }, 'params.controllers'],
  ],
};

const FINALIZER = { verb: 'remove-finalizer', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'held', finalizer: 'f' };

const SIMULATE_REQUESTS: Cases = {
  good: [
    { requests: [FINALIZER] },
    {
      requests: [
        { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', name: 'shop', propagationPolicy: null },
        { verb: 'delete', apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', propagationPolicy: 'Orphan', gracePeriodSeconds: 0 },
        { verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', name: 'op', replicas: 0 },
        { verb: 'remove-owner-reference', apiVersion: 'v1', kind: 'Pod', name: 'p', ownerUid: 'u' },
        {
          verb: 'set-owner-reference',
          apiVersion: 'v1',
          kind: 'Pod',
          name: 'p',
          ownerUid: 'u',
          to: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'v', controller: true },
        },
        { verb: 'restore-controller', finalizer: 'f' },
        { verb: 'restore-controller', finalizer: 'f', apiVersion: 'v1', kind: 'ConfigMap', name: 'held' },
        { verb: 'restore-backend', apiVersion: 'v1', kind: 'Service', namespace: 'a', name: 'b' },
        { verb: 'set-webhook-failure-policy', apiVersion: 'x/v1', kind: 'W', name: 'w', webhook: 'h', failurePolicy: 'Ignore' },
      ],
      arrival: 'back-to-back',
      controllers: 'gc',
    },
    // Unknown fields of the params are ignored, as in every request (a plan entry's are not: below).
    { requests: [FINALIZER], extra: 1 },
    // kube-apiserver reads a negative grace period as 1 second (rest.BeforeDelete); YAML's `namespace:` is null.
    { requests: [{ verb: 'delete', apiVersion: 'v1', kind: 'Pod', name: 'p', gracePeriodSeconds: -5 }] },
    { requests: [{ ...FINALIZER, namespace: null }] },
  ],
  bad: [
    ...NOT_AN_OBJECT,
    [{}, 'params.requests'],
    [{ requests: [] }, 'params.requests'],
    [{ requests: Array.from({ length: 101 }, () => FINALIZER) }, 'params.requests'],
    [{ requests: FINALIZER }, 'params.requests'],
    [{ requests: [null] }, 'params.requests[0]'],
    [{ requests: [{ ...FINALIZER, verb: 'patch' }] }, 'params.requests[0].verb'],
    [{ requests: [{ ...FINALIZER, verb: undefined }] }, 'params.requests[0].verb'],
    [{ requests: [FINALIZER, { ...FINALIZER, finalizer: '' }] }, 'params.requests[1].finalizer'],
    [{ requests: [{ ...FINALIZER, kind: 5 }] }, 'params.requests[0].kind'],
    [{ requests: [{ ...FINALIZER, namespace: 5 }] }, 'params.requests[0].namespace'],
    [{ requests: [{ ...FINALIZER, comment: 'x' }] }, 'params.requests[0].comment'],
    [{ requests: [{ ...FINALIZER, name: undefined }] }, 'params.requests[0].name'],
    [{ requests: [{ verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', name: 'op', replicas: -1 }] }, 'params.requests[0].replicas'],
    [
      { requests: [{ verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', name: 'op', replicas: 1.5 }] },
      'params.requests[0].replicas',
    ],
    [{ requests: [{ verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', name: 'op' }] }, 'params.requests[0].replicas'],
    [
      { requests: [{ verb: 'delete', apiVersion: 'v1', kind: 'Pod', name: 'p', propagationPolicy: 'Sideways' }] },
      'params.requests[0].propagationPolicy',
    ],
    [
      { requests: [{ verb: 'delete', apiVersion: 'v1', kind: 'Pod', name: 'p', gracePeriodSeconds: 1.5 }] },
      'params.requests[0].gracePeriodSeconds',
    ],
    [
      { requests: [{ verb: 'remove-owner-reference', apiVersion: 'v1', kind: 'Pod', name: 'p', ownerUID: 'u' }] },
      'params.requests[0].ownerUID',
    ],
    [
      {
        requests: [
          {
            verb: 'set-owner-reference',
            apiVersion: 'v1',
            kind: 'Pod',
            name: 'p',
            ownerUid: 'u',
            to: { apiVersion: 'v1', kind: 'K', name: 'n' },
          },
        ],
      },
      'params.requests[0].to.uid',
    ],
    [{ requests: [{ verb: 'restore-controller', finalizer: 'f', kind: 'ConfigMap' }] }, 'params.requests[0].apiVersion'],
    [{ requests: [{ verb: 'restore-controller', finalizer: 'f', apiVersion: 'v1', kind: 'ConfigMap' }] }, 'params.requests[0].name'],
    [
      { requests: [{ verb: 'set-webhook-failure-policy', apiVersion: 'x/v1', kind: 'W', name: 'w', webhook: 'h', failurePolicy: 'Open' }] },
      'params.requests[0].failurePolicy',
    ],
    [{ requests: [FINALIZER], arrival: 'later' }, 'params.arrival'],
    [{ requests: [FINALIZER], controllers: 'all' }, 'params.controllers'],
  ],
};

const GRAPH: Cases = {
  good: [{}, { uid: 'u' }, { namespace: '' }, { namespace: 'shop', limit: 5000 }],
  bad: [
    ...NOT_AN_OBJECT,
    [{ uid: 5 }, 'params.uid'],
    [{ uid: null }, 'params.uid'],
    [{ namespace: 5 }, 'params.namespace'],
    [{ limit: 'ten' }, 'params.limit'],
    [{ limit: 0 }, 'params.limit'],
    [{ limit: 2.5 }, 'params.limit'],
    [{ namespace: 'shop', limit: -3 }, 'params.limit'],
  ],
};

const OBJECTS_IN_CLUSTER: Cases = {
  good: [{}, { namespace: 'shop' }, { query: 'pod web', limit: 0 }, { limit: 200 }],
  bad: [
    ...NOT_AN_OBJECT,
    [{ namespace: 5 }, 'params.namespace'],
    [{ query: ['web'] }, 'params.query'],
    [{ query: null }, 'params.query'],
    [{ limit: 'all' }, 'params.limit'],
    [{ limit: -1 }, 'params.limit'],
    [{ limit: 1.5 }, 'params.limit'],
  ],
};

const CASES: Record<string, Cases> = {
  'kubeGcLens/simulate': SIMULATE,
  'kubeGcLens/cluster/simulate': SIMULATE,
  'kubeGcLens/simulateRequests': SIMULATE_REQUESTS,
  'kubeGcLens/cluster/simulateRequests': SIMULATE_REQUESTS,
  'kubeGcLens/objects': {
    good: [{}, { uri: 'file:///nowhere.yaml' }],
    bad: [...NOT_AN_OBJECT, [{ uri: 5 }, 'params.uri'], [{ uri: null }, 'params.uri']],
  },
  'kubeGcLens/objectAt': {
    good: [{ uri: 'file:///nowhere.yaml', position: POSITION }],
    bad: [
      ...NOT_AN_OBJECT,
      [{}, 'params.uri'],
      [{ uri: 1, position: POSITION }, 'params.uri'],
      [{ uri: 'file:///x.yaml' }, 'params.position'],
      [{ uri: 'file:///x.yaml', position: null }, 'params.position'],
      [{ uri: 'file:///x.yaml', position: [0, 0] }, 'params.position'],
      [{ uri: 'file:///x.yaml', position: { line: '0', character: 0 } }, 'params.position.line'],
      [{ uri: 'file:///x.yaml', position: { line: -1, character: 0 } }, 'params.position.line'],
      [{ uri: 'file:///x.yaml', position: { line: 0 } }, 'params.position.character'],
      [{ uri: 'file:///x.yaml', position: { line: 0, character: 0.5 } }, 'params.position.character'],
    ],
  },
  'kubeGcLens/stuck': NONE,
  'kubeGcLens/check': NONE,
  'kubeGcLens/cluster/disconnect': NONE,
  'kubeGcLens/cluster/graphSummary': NONE,
  'kubeGcLens/graph': GRAPH,
  'kubeGcLens/cluster/graph': GRAPH,
  'kubeGcLens/cluster/contexts': {
    good: [{}, { kubeconfig: '/nonexistent/kubeconfig' }],
    bad: [...NOT_AN_OBJECT, [{ kubeconfig: 5 }, 'params.kubeconfig'], [{ kubeconfig: null }, 'params.kubeconfig']],
  },
  'kubeGcLens/cluster/connect': {
    good: [
      { kubeconfig: '/nonexistent/kubeconfig', allowExec: false },
      { kubeconfig: '/nonexistent/kubeconfig', context: 'dev', namespaces: ['shop'], allowExec: true, requestTimeoutSeconds: 0 },
    ],
    bad: [
      ...NOT_AN_OBJECT,
      [{}, 'params.allowExec'],
      [{ allowExec: 'yes' }, 'params.allowExec'],
      [{ allowExec: null }, 'params.allowExec'],
      [{ allowExec: false, context: 5 }, 'params.context'],
      [{ allowExec: false, kubeconfig: [] }, 'params.kubeconfig'],
      [{ allowExec: false, namespaces: 'shop' }, 'params.namespaces'],
      [{ allowExec: false, namespaces: ['shop', 5] }, 'params.namespaces[1]'],
      [{ allowExec: false, namespaces: null }, 'params.namespaces'],
      [{ allowExec: false, requestTimeoutSeconds: '60' }, 'params.requestTimeoutSeconds'],
      [{ allowExec: false, requestTimeoutSeconds: -1 }, 'params.requestTimeoutSeconds'],
    ],
  },
  'kubeGcLens/cluster/stuck': {
    good: [{}, { stuckAfterMinutes: 0 }, { stuckAfterMinutes: 2.5 }],
    bad: [
      ...NOT_AN_OBJECT,
      [{ stuckAfterMinutes: 'ten' }, 'params.stuckAfterMinutes'],
      [{ stuckAfterMinutes: -1 }, 'params.stuckAfterMinutes'],
      [{ stuckAfterMinutes: null }, 'params.stuckAfterMinutes'],
    ],
  },
  'kubeGcLens/cluster/objects': OBJECTS_IN_CLUSTER,
  'kubeGcLens/cluster/searchObjects': OBJECTS_IN_CLUSTER,
  'kubeGcLens/cluster/document': {
    good: [{ uri: `${LIVE_SCHEME}:/dev/shop/Pod/web.yaml?uid=u` }, { uri: 'file:///not-live.yaml' }],
    bad: [...NOT_AN_OBJECT, [{}, 'params.uri'], [{ uri: null }, 'params.uri'], [{ uri: 7 }, 'params.uri']],
  },
  'kubeGcLens/cluster/applyWayOut': {
    good: [
      { uid: 'u', command: 'kubectl patch …' },
      { uid: 'u', command: 'kubectl scale …', summary: 'Scaling …', dryRunOnly: true },
    ],
    bad: [
      ...NOT_AN_OBJECT,
      [{ command: 'c' }, 'params.uid'],
      [{ uid: 'u' }, 'params.command'],
      [{ uid: 'u', command: 'c', summary: 3 }, 'params.summary'],
      [{ uid: 'u', command: 'c', dryRunOnly: 'yes' }, 'params.dryRunOnly'],
    ],
  },
};

const label = (p: unknown) => (p === NO_PARAMS ? 'no params' : JSON.stringify(p));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The message must start with the method and name the field: "kubeGcLens/simulate: params.uid must be a string". */
// The field, then what is wrong with it ("… must be", "… is missing: …", "… "drain": must be one of …"), never a field under it.
const naming = (method: string, field: string) => new RegExp(`^${escape(method)}: ${escape(field)}[ :]`);

describe('the protocol module', () => {
  it('exports the requests this test covers, each with a validator', () => {
    expect(METHODS.length).toBeGreaterThan(10);
    expect(METHODS).toEqual(Object.keys(CASES).sort());
    expect([...REQUEST_PARAMS.keys()].sort()).toEqual(METHODS);
  });

  it('the server receives no custom notifications (both go to the client)', () => {
    // A new one the server listens to needs a validator too, as the requests have (customRequests.ts).
    expect(NOTIFICATIONS.sort()).toEqual(['kubeGcLens/cluster/status', 'kubeGcLens/status']);
  });

  it('the server registers requests only through the validating helper', () => {
    const dir = path.resolve(__dirname, '../../server/src');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const registering = files.filter((f) => /\.onRequest\(|\.onNotification\(/.test(readFileSync(path.join(dir, f), 'utf8')));
    expect(registering).toEqual([path.join('lsp', 'customRequests.ts')]);
  });

  it('validators name the first bad field and pass good params', () => {
    for (const [method, cases] of Object.entries(CASES)) {
      for (const p of cases.good)
        expect(validateRequestParams(method, p === NO_PARAMS ? undefined : p), `${method} ${label(p)}`).toBeUndefined();
      for (const [p, field] of cases.bad) {
        // The raw wire form: the server reads [x] as x and [] as no params (vscode-jsonrpc spreads arrays).
        const asRead = p === NO_PARAMS ? undefined : Array.isArray(p) && p.length <= 1 ? p[0] : p;
        expect(validateRequestParams(method, asRead), `${method} ${label(p)}`).toMatch(naming(method, field));
      }
    }
    expect(validateRequestParams('kubeGcLens/nothing', {})).toMatch(/not a request/);
  });

  it('the params the VS Code client builds pass', () => {
    const sent: [string, unknown][] = [
      ['kubeGcLens/cluster/connect', connectParams({ namespaces: [] }, {}, false)],
      [
        'kubeGcLens/cluster/connect',
        connectParams({ namespaces: ['a', 'b'], requestTimeoutSeconds: 2.5 }, { context: 'dev', kubeconfig: '/k' }, true),
      ],
      ...[{ kind: 'all' } as const, { kind: 'namespace', namespace: '' } as const, { kind: 'object', uid: 'u' } as const].flatMap(
        (scope) =>
          [
            ['kubeGcLens/graph', scopeParams(scope)],
            ['kubeGcLens/cluster/graph', scopeParams(scope)],
          ] as [string, unknown][],
      ),
      // The literals in client/src: simulateDelete.ts, graphPanel.ts, liveDocuments.ts, cluster.ts,
      // stuckObjectsView.ts, liveObjectPicker.ts.
      ['kubeGcLens/simulate', { uid: 'u', policy: 'Foreground' }],
      ['kubeGcLens/cluster/simulate', { uid: 'u', policy: 'default' }],
      ['kubeGcLens/objectAt', { uri: 'file:///a.yaml', position: { line: 3, character: 7 } }],
      ['kubeGcLens/objects', {}],
      ['kubeGcLens/cluster/document', { uri: 'kube-gc-lens-live:/dev/_cluster/Namespace/shop.yaml?uid%3Du' }],
      ['kubeGcLens/cluster/contexts', {}],
      ['kubeGcLens/cluster/contexts', { kubeconfig: '/k' }],
      ['kubeGcLens/cluster/stuck', { stuckAfterMinutes: 10 }],
      ['kubeGcLens/cluster/searchObjects', { query: 'web', limit: DEFAULT_SEARCH_LIMIT }],
      ['kubeGcLens/cluster/applyWayOut', { uid: 'u', command: 'kubectl patch …', summary: 'Removing …' }],
    ];
    for (const [method, p] of sent) expect(validateRequestParams(method, p), `${method} ${label(p)}`).toBeUndefined();
  });
});

/** Compile-time only (`tsc`, never called): a validator must match its params' type exactly. */
export function typeChecks(): Validator<ObjectsParams> {
  // @ts-expect-error a required field left out
  obj<SimulateParams>({ uid: str });
  // @ts-expect-error a required field checked as optional
  obj<{ uri: string }>({ uri: optional(str) });
  // @ts-expect-error an optional field checked as required
  return obj<ObjectsParams>({ uri: str });
}

describe('in process: every custom request with bad params', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    server = new InProcessServer();
    await server.initialize();
  });

  afterAll(() => server.dispose());

  for (const method of Object.keys(CASES)) {
    it(`${method}: InvalidParams naming the field, then it keeps answering`, async () => {
      const { good, bad } = CASES[method];
      for (const [p, field] of bad) {
        const answer: RawResponse = await server.raw(method, p);
        expect(answer.error?.code, `${method} ${label(p)}: ${JSON.stringify(answer)}`).toBe(INVALID_PARAMS);
        expect(answer.error!.message, `${method} ${label(p)}`).toMatch(naming(method, field));
      }
      for (const p of good) {
        const answer = await server.raw(method, p);
        // Good params are answered, or refused for another reason (not connected, no such kubeconfig).
        expect(answer.error?.code ?? 0, `${method} ${label(p)}: ${JSON.stringify(answer)}`).not.toBe(INVALID_PARAMS);
        expect([0, CLUSTER_UNAVAILABLE], `${method} ${label(p)}: ${JSON.stringify(answer)}`).toContain(answer.error?.code ?? 0);
      }
      expect(await server.connection.sendRequest(ObjectsRequest, {})).toEqual([]);
    });
  }

  it('nothing was logged as a failed request', () => {
    expect(server.logs.filter((l) => /failed|Unexpected|rejection|Cannot read/i.test(l))).toEqual([]);
  });
});

describe('over stdio: the built server', () => {
  const sessions: LspSession[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.dispose();
  });

  it('answers InvalidParams to null and to a wrongly typed field of every request, and keeps serving', async () => {
    const s = new LspSession({ transport: 'stdio' }); // its stderr is checked
    sessions.push(s);
    await s.initialize();
    for (const [method, { bad }] of Object.entries(CASES)) {
      // vscode-jsonrpc sends null as [null]: the server reads it as null.
      const sent = [null, ...bad.filter(([p]) => typeof p === 'object' && p !== null && !Array.isArray(p)).map(([p]) => p)];
      for (const p of sent) {
        const error = await s.connection.sendRequest(method, p).then(
          () => undefined,
          (e: { code: number; message: string }) => e,
        );
        const expected = p === null ? (CASES[method] === NONE ? undefined : 'params') : bad.find(([q]) => q === p)![1];
        if (expected === undefined) {
          // No params: answered, or refused because nothing is connected.
          expect([undefined, CLUSTER_UNAVAILABLE], `${method} null: ${error?.message}`).toContain(error?.code);
          continue;
        }
        expect(error?.code, `${method} ${label(p)}: ${error?.message}`).toBe(INVALID_PARAMS);
        expect(error?.code).not.toBe(INTERNAL_ERROR);
        expect(error!.message).toMatch(naming(method, expected));
      }
    }
    expect(await s.connection.sendRequest(ObjectsRequest, {})).toEqual([]);
    expect(s.exitCode).toBeNull();
    expect(s.logs.filter((l) => /failed|Unexpected|rejection|Cannot read/i.test(l))).toEqual([]);
    expect(s.stderr.join('')).toBe('');
  });

  it('ignores custom notifications sent to it, whatever their params, and keeps serving', async () => {
    const s = new LspSession({ transport: 'stdio' }); // its stderr is checked
    sessions.push(s);
    await s.initialize();
    for (const method of [...NOTIFICATIONS, 'kubeGcLens/unknown']) {
      for (const p of [null, 5, 'x', { state: 7 }]) await s.connection.sendNotification(method, p);
      await s.connection.sendNotification(method);
    }
    // Answered in order after the notifications: the server read them all and is still serving.
    expect(await s.connection.sendRequest(ObjectsRequest, {})).toEqual([]);
    expect(s.exitCode).toBeNull();
    // Said once per method in the client's log.
    expect(s.logs.filter((l) => l.startsWith('Ignored the notification')).sort()).toEqual(
      [...NOTIFICATIONS, 'kubeGcLens/unknown'].sort().map((m) => `Ignored the notification ${m}: the server does not listen to it.`),
    );
    expect(s.logs.filter((l) => /failed|Unexpected|rejection|Cannot read/i.test(l))).toEqual([]);
    expect(s.stderr.join('')).toBe('');
  });
});
