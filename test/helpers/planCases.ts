// One table of plans, good and bad, that both readers of the plan schema run (shared/src/wire/planSchema.ts): the
// built CLI on the plan file (test/cli/planSchema.test.ts) and the editor's kubeGcLens/simulateRequests params
// (test/lsp/planSchema.test.ts), so the two cannot drift apart. Each refusal is written once, as the CLI prints it
// after the file's location; the editor says the same after "params.".

/** An object of examples/operator-finalizers-kafka, so that a good plan simulates something real. */
export const KAFKA_DELETE = {
  verb: 'delete',
  apiVersion: 'kafka.strimzi.io/v1beta2',
  kind: 'Kafka',
  namespace: 'kafka',
  name: 'my-cluster',
} as const;
export const OPERATOR_SCALE = {
  verb: 'scale',
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'kafka',
  name: 'strimzi-cluster-operator',
  replicas: 0,
} as const;

export interface PlanCase {
  name: string;
  /** The plan file as the CLI reads it (YAML or JSON). */
  text: string;
  /**
   * The editor's `params.requests` for the same plan, when it can say the same (a duplicate key, an alias or YAML's
   * .nan have no JSON-RPC spelling: JSON.parse has read the message before any validator sees it).
   */
  requests?: unknown;
}

export interface BadPlanCase extends PlanCase {
  /** `line:col` in the file. */
  at: string;
  /** What the CLI says after `FILE:LINE:COL: `. */
  message: string;
  /** What the editor says after `params.`, when it differs (the file's text alone is refused before its values). */
  editorMessage?: string;
}

const json = (requests: unknown) => JSON.stringify({ requests });
const graceMessage = (shown: string) =>
  `requests[0].gracePeriodSeconds ${shown}: it must be a whole number of seconds, from -9007199254740991 to 9007199254740991 (kube-apiserver reads a negative one as 1)`;
/** One YAML line per entry: `- {verb: delete, …}`. */
const yaml = (entry: Record<string, unknown>, extra: string) =>
  `requests:\n- {${Object.entries(entry)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}, ${extra}}\n`;
/** The value's column on line 2 (1-based): where the entry's closing brace is without it. */
const graceColumn = yaml(KAFKA_DELETE, 'gracePeriodSeconds: ').split('\n')[1].length;

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nestedValue = (levels: number): unknown => {
  let v: unknown = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
};

export const GOOD_PLANS: PlanCase[] = [
  {
    // kube-apiserver takes a negative grace period and reads it as 1 second (k8s.io/apiserver rest.BeforeDelete).
    name: 'a negative gracePeriodSeconds, as kube-apiserver takes it',
    text: json([{ ...KAFKA_DELETE, gracePeriodSeconds: -5 }]),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: -5 }],
  },
  {
    name: 'gracePeriodSeconds 0 and 30',
    text: json([{ ...OPERATOR_SCALE }, { ...KAFKA_DELETE, gracePeriodSeconds: 30 }, { ...KAFKA_DELETE, gracePeriodSeconds: 0 }]),
    requests: [{ ...OPERATOR_SCALE }, { ...KAFKA_DELETE, gracePeriodSeconds: 30 }, { ...KAFKA_DELETE, gracePeriodSeconds: 0 }],
  },
  {
    // null is "not given" to kube-apiserver's DeleteOptions, as YAML's `gracePeriodSeconds:` writes it.
    name: 'gracePeriodSeconds and orphanDependents null',
    text: json([{ ...KAFKA_DELETE, gracePeriodSeconds: null, orphanDependents: null }]),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: null, orphanDependents: null }],
  },
  {
    name: 'exactly 100 requests',
    text: json(Array.from({ length: 100 }, (_, i) => ({ ...OPERATOR_SCALE, replicas: i % 2 }))),
    requests: Array.from({ length: 100 }, (_, i) => ({ ...OPERATOR_SCALE, replicas: i % 2 })),
  },
];

export const BAD_PLANS: BadPlanCase[] = [
  {
    name: 'gracePeriodSeconds 1.5',
    text: json([{ ...KAFKA_DELETE, gracePeriodSeconds: 1.5 }]),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: 1.5 }],
    at: `1:${json([{ ...KAFKA_DELETE, gracePeriodSeconds: 1.5 }]).indexOf('1.5') + 1}`,
    message: graceMessage('1.5'),
  },
  {
    name: 'gracePeriodSeconds .nan',
    text: yaml(KAFKA_DELETE, 'gracePeriodSeconds: .nan'),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: NaN }],
    at: `2:${graceColumn}`,
    message: graceMessage('NaN'),
  },
  {
    name: 'gracePeriodSeconds .inf',
    text: yaml(KAFKA_DELETE, 'gracePeriodSeconds: .inf'),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: Infinity }],
    at: `2:${graceColumn}`,
    message: graceMessage('Infinity'),
  },
  {
    name: 'gracePeriodSeconds 1e300',
    text: yaml(KAFKA_DELETE, 'gracePeriodSeconds: 1e300'),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: 1e300 }],
    at: `2:${graceColumn}`,
    message: graceMessage('1e+300'),
  },
  {
    name: 'gracePeriodSeconds as a string',
    text: yaml(KAFKA_DELETE, 'gracePeriodSeconds: "30"'),
    requests: [{ ...KAFKA_DELETE, gracePeriodSeconds: '30' }],
    at: `2:${graceColumn}`,
    message: graceMessage('"30"'),
  },
  {
    name: 'no request',
    text: '{"requests": []}',
    requests: [],
    at: '1:14',
    message: 'requests is empty: a plan takes 1 to 100 requests',
  },
  {
    name: '101 requests',
    text: json(Array.from({ length: 101 }, () => OPERATOR_SCALE)),
    requests: Array.from({ length: 101 }, () => OPERATOR_SCALE),
    at: '1:13',
    message: 'requests holds 101 requests: a plan takes 1 to 100',
  },
  {
    name: '10,000 requests (one object changed 10,000 times)',
    text: json(Array.from({ length: 10_000 }, () => OPERATOR_SCALE)),
    requests: Array.from({ length: 10_000 }, () => OPERATOR_SCALE),
    at: '1:13',
    message: 'requests holds 10000 requests: a plan takes 1 to 100',
  },
  {
    name: 'an unknown field of an entry',
    text: 'requests:\n- verb: remove-owner-reference\n  apiVersion: v1\n  kind: ConfigMap\n  name: c\n  ownerUID: u\n',
    requests: [{ verb: 'remove-owner-reference', apiVersion: 'v1', kind: 'ConfigMap', name: 'c', ownerUID: 'u' }],
    at: '6:13',
    message: 'requests[0].ownerUID is not a field of "remove-owner-reference": it takes apiVersion, kind, namespace, name, ownerUid',
  },
  {
    name: "an unknown field of set-owner-reference's to",
    text: json([
      {
        verb: 'set-owner-reference',
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'p',
        ownerUid: 'u',
        to: { apiVersion: 'v1', kind: 'K', name: 'n', uid: 'v', Controller: true },
      },
    ]),
    requests: [
      {
        verb: 'set-owner-reference',
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'p',
        ownerUid: 'u',
        to: { apiVersion: 'v1', kind: 'K', name: 'n', uid: 'v', Controller: true },
      },
    ],
    at: `1:${json([{ verb: 'set-owner-reference', apiVersion: 'v1', kind: 'Pod', name: 'p', ownerUid: 'u', to: { apiVersion: 'v1', kind: 'K', name: 'n', uid: 'v', Controller: true } }]).indexOf('true') + 1}`,
    message:
      'requests[0].to.Controller is not a field of an ownerReference: it takes apiVersion, kind, name, uid, controller, blockOwnerDeletion',
  },
  {
    name: 'replicas past an int32',
    text: json([{ ...OPERATOR_SCALE, replicas: 2 ** 31 }]),
    requests: [{ ...OPERATOR_SCALE, replicas: 2 ** 31 }],
    at: `1:${json([{ ...OPERATOR_SCALE, replicas: 2 ** 31 }]).indexOf(String(2 ** 31)) + 1}`,
    message: "requests[0].replicas must be at most 2147483647 (a Scale's replicas is an int32)",
  },
  {
    name: 'a duplicate key that would turn a DELETE into a scale',
    text: `{"requests":[${JSON.stringify(KAFKA_DELETE).slice(0, -1)},"verb":"scale","replicas":0}]}`,
    at: `1:${`{"requests":[${JSON.stringify(KAFKA_DELETE).slice(0, -1)},`.length + 1}`,
    message: 'requests[0].verb is given twice: which value is meant cannot be told, so the plan is refused',
  },
  {
    name: 'an alias bomb',
    text: 'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nrequests: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    at: '2:8',
    message: "the plan's aliases expand too far (more than 100 aliased values: an alias bomb), so it was not read",
  },
  {
    name: '100,000 nested [ (valid JSON)',
    text: `{"requests": [${nested(100_000)}]}`,
    requests: [nestedValue(100_000)],
    // The bracket where the count passes the bound (the root mapping and `requests` are two of the levels).
    at: '1:268',
    message: 'the plan is nested more than 256 levels deep, so it was not read (a plan needs 4)',
    editorMessage: 'requests[0] must be a mapping',
  },
];
