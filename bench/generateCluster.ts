// A deterministic generator of a large, realistic cluster dump: the `kind: List` document that
// `kubectl get <every listable resource> -A -o json` prints (keys sorted, 4-space indent, grouped by
// resource). Used by the benchmark (bench/main.ts); nothing here is part of the extension.
//
// Everything comes from a seeded PRNG (never Math.random), so one seed always gives the same bytes.
// Ownership is what the built-in controllers and a controller-runtime operator really write:
//   Deployment → ReplicaSet (current + old revisions scaled to 0) → Pod
//   StatefulSet → ControllerRevision, Pod (PVCs from volumeClaimTemplates are not owned: Retain policy)
//   DaemonSet → ControllerRevision, Pod
//   CronJob → Job → Pod (batch.kubernetes.io/job-tracking finalizer on Pods of running Jobs)
//   Service → EndpointSlice
//   PostgresCluster (custom resource, finalizer db.acme.io/finalizer) → StatefulSet, Service, ConfigMap, Secret
//   Node → Lease in kube-node-lease (the kubelet's non-controller reference)
// PersistentVolumes are cluster-scoped, bound to their claims, with pv-protection and the CSI
// provisioner's finalizer; claims carry pvc-protection.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ---------------------------------------------------------------------------------------------------
// Public shapes

export interface GenerateClusterOptions {
  /** Total number of items in the List (exact). */
  objects?: number;
  /** Number of namespaced objects in the big namespace (exact); the benchmark deletes that namespace. */
  bigNamespaceObjects?: number;
  seed?: number;
}

export interface ListOwnerReference {
  apiVersion: string;
  blockOwnerDeletion?: boolean;
  controller?: boolean;
  kind: string;
  name: string;
  uid: string;
}

export interface ListItemMetadata {
  annotations?: Record<string, string>;
  creationTimestamp: string;
  finalizers?: string[];
  generateName?: string;
  generation?: number;
  labels?: Record<string, string>;
  name: string;
  namespace?: string;
  ownerReferences?: ListOwnerReference[];
  resourceVersion: string;
  uid: string;
}

export interface ListItem {
  apiVersion: string;
  kind: string;
  metadata: ListItemMetadata;
  [field: string]: unknown;
}

export interface KubeList {
  apiVersion: 'v1';
  items: ListItem[];
  kind: 'List';
  metadata: { resourceVersion: string };
}

export interface GeneratedCluster {
  list: KubeList;
  options: Required<GenerateClusterOptions>;
  /** The namespace holding exactly `bigNamespaceObjects` objects. */
  bigNamespace: string;
  /** The biggest Deployment (in the big namespace) and the size of its tree (itself, ReplicaSets, Pods). */
  bigDeployment: { namespace: string; name: string; treeObjects: number };
  /** The operator behind the custom resources' finalizer. */
  operator: { crd: string; group: string; kind: string; namespace: string; deployment: string; finalizer: string };
  countsByKind: Record<string, number>;
  /** Namespaced objects per namespace ("" = cluster-scoped). */
  countsByNamespace: Record<string, number>;
}

const DEFAULTS: Required<GenerateClusterOptions> = { objects: 100_000, bigNamespaceObjects: 20_000, seed: 20250601 };

// ---------------------------------------------------------------------------------------------------
// PRNG: sfc32 seeded through splitmix32. Small, fast, and good enough for test data.

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const splitmix = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 16; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** [0, 1) */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.float() * total;
    for (const [k, w] of entries) {
      x -= w;
      if (x < 0) return k;
    }
    return entries[entries.length - 1][0];
  }

  chars(n: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.float() * alphabet.length)];
    return out;
  }

  hex(n: number): string {
    return this.chars(n, '0123456789abcdef');
  }

  /** A random (version 4, RFC 4122 variant) UUID, as the apiserver assigns to metadata.uid. */
  uuid(): string {
    const h = this.hex(32);
    const variant = '89ab'[this.u32() & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** The alphabet of Kubernetes' rand.String / SafeEncodeString (no vowels, no confusable digits). */
const K8S_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

// ---------------------------------------------------------------------------------------------------
// Small helpers

type J = Record<string, unknown>;

/** Go's encoding/json sorts map keys; kubectl prints unstructured objects, so every level is sorted. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const src = v as J;
    const out: J = {};
    for (const k of Object.keys(src).sort()) {
      const x = src[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  return v;
}

const NOW = Date.parse('2025-06-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** RFC 3339 with second precision, as metav1.Time marshals. */
function ts(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function b64(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64');
}

function ownerRef(owner: ListItem, controller = true): ListOwnerReference {
  return controller
    ? {
        apiVersion: owner.apiVersion,
        blockOwnerDeletion: true,
        controller: true,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
      }
    : { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid };
}

/** The order `kubectl api-resources` lists resources in: core first, then API groups; kubectl keeps it. */
const KIND_ORDER = [
  'ConfigMap',
  'Endpoints',
  'Namespace',
  'Node',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'Pod',
  'Secret',
  'ServiceAccount',
  'Service',
  'CustomResourceDefinition',
  'ControllerRevision',
  'DaemonSet',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'HorizontalPodAutoscaler',
  'CronJob',
  'Job',
  'Lease',
  'EndpointSlice',
  'PodDisruptionBudget',
  'ClusterRoleBinding',
  'ClusterRole',
  'PostgresCluster',
];

// ---------------------------------------------------------------------------------------------------
// Vocabulary

const SERVICE_WORDS = [
  'cart',
  'checkout',
  'payment',
  'ledger',
  'invoice',
  'catalog',
  'search',
  'recommend',
  'inventory',
  'shipping',
  'notify',
  'auth',
  'session',
  'profile',
  'pricing',
  'review',
  'order',
  'fraud',
  'refund',
  'billing',
  'gateway',
  'media',
  'thumbnail',
  'report',
  'export',
  'import',
  'audit',
  'webhook',
  'scheduler',
  'feed',
  'coupon',
  'tax',
  'address',
  'wishlist',
  'rating',
  'stock',
  'quote',
  'loyalty',
  'referral',
  'consent',
];
const SERVICE_SUFFIXES = [
  'api',
  'worker',
  'web',
  'consumer',
  'svc',
  'sync',
  'grpc',
  'frontend',
  'backend',
  'indexer',
  'cache',
  'proxy',
  'stream',
];
const STATEFUL_WORDS = [
  'redis',
  'kafka',
  'postgres',
  'elasticsearch',
  'zookeeper',
  'rabbitmq',
  'etcd',
  'clickhouse',
  'mongodb',
  'nats',
  'memcached',
  'cassandra',
];
const STATEFUL_IMAGES: Record<string, [string, number]> = {
  redis: ['docker.io/library/redis:7.2.5', 6379],
  kafka: ['docker.io/bitnami/kafka:3.7.1', 9092],
  postgres: ['docker.io/library/postgres:16.3', 5432],
  elasticsearch: ['docker.elastic.co/elasticsearch/elasticsearch:8.14.1', 9200],
  zookeeper: ['docker.io/bitnami/zookeeper:3.9.2', 2181],
  rabbitmq: ['docker.io/library/rabbitmq:3.13.3-management', 5672],
  etcd: ['registry.k8s.io/etcd:3.5.14-0', 2379],
  clickhouse: ['docker.io/clickhouse/clickhouse-server:24.5', 8123],
  mongodb: ['docker.io/library/mongo:7.0.11', 27017],
  nats: ['docker.io/library/nats:2.10.16', 4222],
  memcached: ['docker.io/library/memcached:1.6.28', 11211],
  cassandra: ['docker.io/library/cassandra:4.1.5', 9042],
};
const JOB_WORDS = [
  'backup',
  'cleanup',
  'report',
  'sync',
  'reindex',
  'digest',
  'export',
  'rotate-keys',
  'vacuum',
  'reconcile',
  'billing-run',
  'sitemap',
];
const SCHEDULES = ['*/5 * * * *', '*/15 * * * *', '0 * * * *', '30 */2 * * *', '0 2 * * *', '15 3 * * *', '0 */6 * * *'];
const SCHEDULE_MINUTES: Record<string, number> = {
  '*/5 * * * *': 5,
  '*/15 * * * *': 15,
  '0 * * * *': 60,
  '30 */2 * * *': 120,
  '0 2 * * *': 1440,
  '15 3 * * *': 1440,
  '0 */6 * * *': 360,
};
const FILLER_NAMESPACES = [
  'checkout',
  'search',
  'analytics',
  'identity',
  'notifications',
  'data-platform',
  'ml-serving',
  'batch-reports',
  'media',
  'ledger',
  'logistics',
  'marketing',
  'partner-api',
  'support',
  'warehouse',
  'pricing',
  'loyalty',
  'fraud-detection',
  'catalog',
  'mobile-bff',
];
const ZONES = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
const INSTANCE_TYPES = ['m6i.2xlarge', 'm6i.4xlarge', 'c6i.4xlarge', 'r6i.2xlarge'];

const OPERATOR = {
  group: 'db.acme.io',
  kind: 'PostgresCluster',
  plural: 'postgresclusters',
  singular: 'postgrescluster',
  listKind: 'PostgresClusterList',
  shortNames: ['pgc'],
  namespace: 'acme-system',
  deployment: 'postgres-operator',
  finalizer: 'db.acme.io/finalizer',
  image: 'registry.acme.io/platform/postgres-operator',
};

// ---------------------------------------------------------------------------------------------------
// Workload descriptions shared by templates and the Pods made from them

interface Workload {
  ns: string;
  name: string;
  image: string;
  version: string;
  port: number;
  cpu: string;
  memory: string;
  serviceAccount: string;
  configMap?: string;
  secret?: string;
  sidecar: boolean;
  envExtra: number;
  /** Pod labels of the template (selector labels plus extras). */
  labels: Record<string, string>;
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  command?: string[];
  dataClaim?: boolean;
  liveness: boolean;
  readiness: boolean;
  /** Restricted container securityContext with a read-only root (and an emptyDir on /tmp). */
  hardened: boolean;
  /** Exposes a separate metrics port. */
  metricsPort: boolean;
}

interface NodeInfo {
  name: string;
  uid: string;
  ip: string;
  zone: string;
  podCidr: number;
}

interface NamespaceFill {
  ns: string;
  /** Remaining budget. */
  remaining: number;
  /** Whether cluster-scoped objects made for this namespace (PersistentVolumes) are charged to the budget. */
  chargeClusterScoped: boolean;
}

class ClusterGenerator {
  readonly rng: Rng;
  readonly items: ListItem[] = [];
  private rv: number;
  private podIp = 0;
  private serviceIp = 0;
  private readonly usedNames = new Set<string>();
  nodes: NodeInfo[] = [];
  readonly nodeByName = new Map<string, NodeInfo>();
  /** Pods of the last StatefulSet made. */
  lastStatefulPods: ListItem[] = [];
  namespaceCreated = new Map<string, number>();

  constructor(seed: number) {
    this.rng = new Rng(seed);
    this.rv = 4_000_000 + this.rng.int(0, 1_000_000);
  }

  // -- bookkeeping --------------------------------------------------------------------------------

  resourceVersion(): string {
    this.rv += this.rng.int(1, 40);
    return String(this.rv);
  }

  /** Reserves a name for a kind in a namespace; returns a free variant if it is taken. */
  uniqueName(kind: string, ns: string, base: string): string {
    let name = base;
    for (let i = 2; this.usedNames.has(`${kind}\u0000${ns}\u0000${name}`); i++) name = `${base}-${i}`;
    this.usedNames.add(`${kind}\u0000${ns}\u0000${name}`);
    return name;
  }

  taken(kind: string, ns: string, name: string): boolean {
    return this.usedNames.has(`${kind}\u0000${ns}\u0000${name}`);
  }

  meta(
    kind: string,
    ns: string,
    name: string,
    created: number,
    extra: Partial<Omit<ListItemMetadata, 'name' | 'namespace' | 'uid' | 'resourceVersion' | 'creationTimestamp'>> = {},
  ): ListItemMetadata {
    const unique = this.uniqueName(kind, ns, name);
    if (unique !== name) throw new Error(`generator bug: ${kind} ${ns}/${name} generated twice`);
    return {
      ...extra,
      creationTimestamp: ts(Math.min(created, NOW - 1000)),
      name,
      namespace: ns || undefined,
      resourceVersion: this.resourceVersion(),
      uid: this.rng.uuid(),
    };
  }

  emit<T extends ListItem>(item: T): T {
    this.items.push(item);
    return item;
  }

  nextPodIp(node: NodeInfo): string {
    this.podIp++;
    return `10.${100 + (node.podCidr >> 8)}.${node.podCidr & 255}.${(this.podIp % 250) + 2}`;
  }

  nextServiceIp(): string {
    this.serviceIp++;
    return `172.20.${(this.serviceIp >> 8) & 255}.${this.serviceIp & 255 || 1}`;
  }

  node(): NodeInfo {
    return this.rng.pick(this.nodes);
  }

  lastApplied(obj: J): string {
    return JSON.stringify(sortKeys(obj)) + '\n';
  }

  // -- cluster-scoped basics ----------------------------------------------------------------------

  makeNodes(count: number): void {
    for (let i = 0; i < count; i++) {
      const zone = ZONES[i % ZONES.length];
      const ip = `10.0.${Math.floor(i / 200) + 16 * (i % 3)}.${10 + (i % 200)}`;
      const name = `ip-${ip.replaceAll('.', '-')}.eu-west-1.compute.internal`;
      const created = NOW - this.rng.int(2, 60) * DAY;
      const instanceType = this.rng.pick(INSTANCE_TYPES);
      const [cpu, memKi] = instanceType.startsWith('r6i')
        ? ['8', 65_020_000]
        : instanceType.includes('4x')
          ? ['16', 64_800_000]
          : ['8', 32_210_000];
      const meta = this.meta('Node', '', name, created, {
        annotations: {
          'alpha.kubernetes.io/provided-node-ip': ip,
          'csi.volume.kubernetes.io/nodeid': JSON.stringify({ 'ebs.csi.aws.com': `i-0${this.rng.hex(16)}` }),
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
        labels: {
          'beta.kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/instance-type': instanceType,
          'beta.kubernetes.io/os': 'linux',
          'failure-domain.beta.kubernetes.io/region': 'eu-west-1',
          'failure-domain.beta.kubernetes.io/zone': zone,
          'k8s.io/cloud-provider-aws': this.rng.hex(32),
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'node.kubernetes.io/instance-type': instanceType,
          'topology.ebs.csi.aws.com/zone': zone,
          'topology.kubernetes.io/region': 'eu-west-1',
          'topology.kubernetes.io/zone': zone,
          'eks.amazonaws.com/nodegroup': i % 4 === 0 ? 'memory-optimised' : 'general-purpose',
        },
      });
      const images = Array.from({ length: 6 }, () => ({
        names: [`registry.acme.io/${this.rng.pick(SERVICE_WORDS)}/${this.rng.pick(SERVICE_WORDS)}@sha256:${this.rng.hex(64)}`],
        sizeBytes: this.rng.int(20_000_000, 400_000_000),
      }));
      const cond = (type: string, status: string, reason: string, message: string) => ({
        lastHeartbeatTime: ts(NOW - this.rng.int(1, 50) * 1000),
        lastTransitionTime: ts(created + 60_000),
        message,
        reason,
        status,
        type,
      });
      const node = this.emit({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: meta,
        spec: {
          podCIDR: `10.${100 + (i >> 8)}.${i & 255}.0/24`,
          podCIDRs: [`10.${100 + (i >> 8)}.${i & 255}.0/24`],
          providerID: `aws:///${zone}/i-0${this.rng.hex(16)}`,
        },
        status: {
          addresses: [
            { address: ip, type: 'InternalIP' },
            { address: name, type: 'InternalDNS' },
            { address: name, type: 'Hostname' },
          ],
          allocatable: {
            cpu: `${Number(cpu) * 1000 - 90}m`,
            'ephemeral-storage': '95491281146',
            'hugepages-1Gi': '0',
            'hugepages-2Mi': '0',
            memory: `${memKi - 600_000}Ki`,
            pods: '110',
          },
          capacity: {
            cpu,
            'ephemeral-storage': '104845292Ki',
            'hugepages-1Gi': '0',
            'hugepages-2Mi': '0',
            memory: `${memKi}Ki`,
            pods: '110',
          },
          conditions: [
            cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
            cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
            cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
            cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
          ],
          daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
          images,
          nodeInfo: {
            architecture: 'amd64',
            bootID: this.rng.uuid(),
            containerRuntimeVersion: 'containerd://1.7.22',
            kernelVersion: '6.1.102-111.182.amzn2023.x86_64',
            kubeProxyVersion: 'v1.31.2',
            kubeletVersion: 'v1.31.2',
            machineID: this.rng.hex(32),
            operatingSystem: 'linux',
            osImage: 'Amazon Linux 2023.5.20241001',
            systemUUID: this.rng.uuid().replace(/^./, 'e'),
          },
        },
      });
      this.nodes.push({ name, uid: node.metadata.uid, ip, zone, podCidr: i });
      this.nodeByName.set(name, this.nodes[this.nodes.length - 1]);
    }
  }

  makeNamespace(ns: string, created: number, labels: Record<string, string> = {}): void {
    this.namespaceCreated.set(ns, created);
    this.emit({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: this.meta('Namespace', '', ns, created, { labels: { ...labels, 'kubernetes.io/metadata.name': ns } }),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }

  /** What every namespace holds once the controllers have seen it. */
  namespaceBasics(ns: string): number {
    const created = (this.namespaceCreated.get(ns) ?? NOW - 30 * DAY) + 2000;
    this.emit({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: this.meta('ServiceAccount', ns, 'default', created) });
    this.emit({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: this.meta('ConfigMap', ns, 'kube-root-ca.crt', created, {
        annotations: {
          'kubernetes.io/description':
            'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
        },
      }),
      data: { 'ca.crt': fakePem(this.rng, 'CERTIFICATE', 1060) },
    });
    return 2;
  }

  makeCrd(): ListItem {
    const created = NOW - 200 * DAY;
    const name = `${OPERATOR.plural}.${OPERATOR.group}`;
    const schema = {
      openAPIV3Schema: {
        description: 'PostgresCluster is the Schema for the postgresclusters API',
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object' },
          spec: {
            type: 'object',
            required: ['instances', 'postgresVersion'],
            properties: {
              instances: { type: 'integer', minimum: 1, maximum: 9 },
              postgresVersion: { type: 'integer', enum: [14, 15, 16] },
              storage: { type: 'object', properties: { size: { type: 'string' }, storageClassName: { type: 'string' } } },
              backups: { type: 'object', properties: { schedule: { type: 'string' }, retentionDays: { type: 'integer' } } },
              resources: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
          status: {
            type: 'object',
            properties: {
              phase: { type: 'string' },
              instances: { type: 'integer' },
              observedGeneration: { type: 'integer', format: 'int64' },
              conditions: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          },
        },
      },
    };
    return this.emit({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: this.meta('CustomResourceDefinition', '', name, created, {
        annotations: { 'controller-gen.kubebuilder.io/version': 'v0.15.0' },
        generation: 3,
      }),
      spec: {
        conversion: { strategy: 'None' },
        group: OPERATOR.group,
        names: {
          kind: OPERATOR.kind,
          listKind: OPERATOR.listKind,
          plural: OPERATOR.plural,
          shortNames: OPERATOR.shortNames,
          singular: OPERATOR.singular,
        },
        scope: 'Namespaced',
        versions: [
          {
            additionalPrinterColumns: [
              { jsonPath: '.status.phase', name: 'Phase', type: 'string' },
              { jsonPath: '.spec.instances', name: 'Instances', type: 'integer' },
            ],
            name: 'v1',
            schema,
            served: true,
            storage: true,
            subresources: { status: {} },
          },
        ],
      },
      status: {
        acceptedNames: {
          kind: OPERATOR.kind,
          listKind: OPERATOR.listKind,
          plural: OPERATOR.plural,
          shortNames: OPERATOR.shortNames,
          singular: OPERATOR.singular,
        },
        conditions: [
          { lastTransitionTime: ts(created), message: 'no conflicts found', reason: 'NoConflicts', status: 'True', type: 'NamesAccepted' },
          {
            lastTransitionTime: ts(created),
            message: 'the initial names have been accepted',
            reason: 'InitialNamesAccepted',
            status: 'True',
            type: 'Established',
          },
        ],
        storedVersions: ['v1'],
      },
    });
  }

  makeOperatorRbac(): void {
    const created = NOW - 200 * DAY;
    const role = `${OPERATOR.deployment}-role`;
    this.emit({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: this.meta('ClusterRole', '', role, created, { labels: { 'app.kubernetes.io/name': OPERATOR.deployment } }),
      rules: [
        {
          apiGroups: [OPERATOR.group],
          resources: [OPERATOR.plural, `${OPERATOR.plural}/status`, `${OPERATOR.plural}/finalizers`],
          verbs: ['get', 'list', 'watch', 'update', 'patch'],
        },
        { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
        {
          apiGroups: [''],
          resources: ['services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'pods'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
        },
      ],
    });
    this.emit({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: this.meta('ClusterRoleBinding', '', `${OPERATOR.deployment}-rolebinding`, created, {
        labels: { 'app.kubernetes.io/name': OPERATOR.deployment },
      }),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: OPERATOR.deployment, namespace: OPERATOR.namespace }],
    });
  }

  makeNodeLeases(): number {
    for (const n of this.nodes) {
      this.emit({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        // The kubelet's reference: no controller, no blockOwnerDeletion.
        metadata: this.meta('Lease', 'kube-node-lease', n.name, NOW - 10 * DAY, {
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: n.name, uid: n.uid }],
        }),
        spec: {
          holderIdentity: n.name,
          leaseDurationSeconds: 40,
          renewTime: new Date(NOW - this.rng.int(0, 9000)).toISOString().replace('Z', '000Z'),
        },
      });
    }
    return this.nodes.length;
  }

  // -- pod templates and pods ---------------------------------------------------------------------

  workload(ns: string, name: string, opts: Partial<Workload> & { labels: Record<string, string> }): Workload {
    const rng = this.rng;
    return {
      ns,
      name,
      image: opts.image ?? `registry.acme.io/${ns}/${name}`,
      version: opts.version ?? `${rng.int(1, 4)}.${rng.int(0, 30)}.${rng.int(0, 12)}`,
      port: opts.port ?? rng.pick([8080, 8080, 8000, 3000, 9000]),
      cpu: opts.cpu ?? rng.pick(['50m', '100m', '250m', '500m', '1']),
      memory: opts.memory ?? rng.pick(['128Mi', '256Mi', '512Mi', '1Gi', '2Gi']),
      serviceAccount: opts.serviceAccount ?? 'default',
      configMap: opts.configMap,
      secret: opts.secret,
      sidecar: opts.sidecar ?? rng.chance(0.04),
      envExtra: opts.envExtra ?? rng.pick([0, 0, 0, 0, 0, 1, 1, 2, 3, 5]),
      liveness: opts.liveness ?? rng.chance(0.25),
      readiness: opts.readiness ?? rng.chance(0.45),
      hardened: opts.hardened ?? rng.chance(0.25),
      metricsPort: opts.metricsPort ?? rng.chance(0.2),
      labels: opts.labels,
      restartPolicy: opts.restartPolicy ?? 'Always',
      command: opts.command,
      dataClaim: opts.dataClaim,
    };
  }

  containers(w: Workload, version: string): J[] {
    const env: J[] = [];
    const pool: J[] = [
      { name: 'LOG_LEVEL', value: this.rng.pick(['info', 'info', 'warn', 'debug']) },
      { name: 'HTTP_PORT', value: String(w.port) },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: 'http://otel-collector.monitoring.svc.cluster.local:4317' },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
      { name: 'GOMEMLIMIT', valueFrom: { resourceFieldRef: { containerName: w.name, divisor: '0', resource: 'limits.memory' } } },
      { name: 'REDIS_ADDR', value: `redis.${w.ns}.svc.cluster.local:6379` },
      { name: 'CACHE_TTL_SECONDS', value: String(this.rng.pick([30, 60, 300, 900])) },
      { name: 'FEATURE_FLAGS', value: 'new-checkout-flow,async-invoices,edge-cache' },
      { name: 'KAFKA_BROKERS', value: `kafka-0.kafka.${w.ns}.svc:9092,kafka-1.kafka.${w.ns}.svc:9092,kafka-2.kafka.${w.ns}.svc:9092` },
    ];
    env.push(...pool.slice(0, w.envExtra));
    if (w.secret) env.push({ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { key: 'database-url', name: w.secret } } });
    const mounts: J[] = w.hardened ? [{ mountPath: '/tmp', name: 'tmp' }] : [];
    if (w.configMap) mounts.push({ mountPath: '/etc/app', name: 'config', readOnly: true });
    if (w.dataClaim) mounts.push({ mountPath: '/var/lib/data', name: 'data' });
    const probe = (path: string, delay: number) => ({
      failureThreshold: 3,
      httpGet: { path, port: w.port, scheme: 'HTTP' },
      initialDelaySeconds: delay,
      periodSeconds: 10,
      successThreshold: 1,
      timeoutSeconds: 1,
    });
    const main: J = {
      command: w.command,
      env: env.length ? env : undefined,
      image: `${w.image}:${version}`,
      imagePullPolicy: 'IfNotPresent',
      livenessProbe: w.restartPolicy === 'Always' && w.liveness ? probe('/healthz', 15) : undefined,
      name: w.name.length > 40 ? 'app' : w.name,
      ports:
        w.restartPolicy !== 'Always'
          ? undefined
          : w.metricsPort
            ? [
                { containerPort: w.port, name: 'http', protocol: 'TCP' },
                { containerPort: 9090, name: 'metrics', protocol: 'TCP' },
              ]
            : [{ containerPort: w.port, name: 'http', protocol: 'TCP' }],
      readinessProbe: w.restartPolicy === 'Always' && w.readiness ? probe('/readyz', 5) : undefined,
      resources: { limits: { memory: w.memory }, requests: { cpu: w.cpu, memory: w.memory } },
      securityContext: w.hardened
        ? { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true }
        : undefined,
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      volumeMounts: mounts.length ? mounts : undefined,
    };
    const out = [main];
    if (w.sidecar) {
      out.push({
        args: ['--config=/etc/otel/config.yaml'],
        image: 'docker.io/otel/opentelemetry-collector-contrib:0.104.0',
        imagePullPolicy: 'IfNotPresent',
        name: 'otel-agent',
        resources: { limits: { memory: '128Mi' }, requests: { cpu: '20m', memory: '64Mi' } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        volumeMounts: [{ mountPath: '/etc/otel', name: 'otel-config', readOnly: true }],
      });
    }
    return out;
  }

  /** spec.template.spec as the apiserver stores it in a workload (defaults applied). */
  templateSpec(w: Workload, version: string): J {
    const volumes: J[] = w.hardened ? [{ emptyDir: {}, name: 'tmp' }] : [];
    if (w.configMap) volumes.push({ configMap: { defaultMode: 420, name: w.configMap }, name: 'config' });
    if (w.sidecar) volumes.push({ configMap: { defaultMode: 420, name: 'otel-agent-config' }, name: 'otel-config' });
    return {
      containers: this.containers(w, version),
      dnsPolicy: 'ClusterFirst',
      restartPolicy: w.restartPolicy,
      schedulerName: 'default-scheduler',
      securityContext: w.hardened ? { fsGroup: 1000, runAsUser: 1000 } : {},
      serviceAccount: w.serviceAccount,
      serviceAccountName: w.serviceAccount,
      terminationGracePeriodSeconds: 30,
      volumes,
    };
  }

  podTemplate(w: Workload, version: string, extraLabels: Record<string, string> = {}): J {
    return {
      metadata: { creationTimestamp: null, labels: { ...w.labels, ...extraLabels } },
      spec: this.templateSpec(w, version),
    };
  }

  /** A Pod made from a template by a controller, scheduled and (by default) running. */
  makePod(opts: {
    w: Workload;
    version: string;
    ns: string;
    name: string;
    generateName?: string;
    owner: ListItem;
    labels: Record<string, string>;
    created: number;
    phase?: 'Running' | 'Succeeded' | 'Failed' | 'Pending';
    finalizers?: string[];
    claimName?: string;
    hostname?: string;
    subdomain?: string;
    node?: NodeInfo;
    annotations?: Record<string, string>;
  }): ListItem {
    const { w, version } = opts;
    const node = opts.node ?? this.node();
    const phase = opts.phase ?? 'Running';
    const scheduled = phase !== 'Pending';
    const tokenVolume = `kube-api-access-${this.rng.chars(5, K8S_ALPHABET)}`;
    const spec = this.templateSpec(w, version);
    const containers = spec.containers as J[];
    for (const c of containers) {
      c.volumeMounts = [
        ...((c.volumeMounts as J[] | undefined) ?? []),
        { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: tokenVolume, readOnly: true },
      ];
    }
    const volumes = spec.volumes as J[];
    if (opts.claimName) volumes.unshift({ name: 'data', persistentVolumeClaim: { claimName: opts.claimName } });
    volumes.push({
      name: tokenVolume,
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
          { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
        ],
      },
    });
    const started = opts.created + this.rng.int(1, 20) * 1000;
    const ip = scheduled ? this.nextPodIp(node) : undefined;
    const cond = (type: string, status = 'True', at = started) => ({ lastProbeTime: null, lastTransitionTime: ts(at), status, type });
    const done = phase === 'Succeeded' || phase === 'Failed';
    const finished = started + this.rng.int(20, 600) * 1000;
    const containerStatuses = scheduled
      ? containers.map((c) => {
          const image = String(c.image);
          const state = done
            ? {
                terminated: {
                  containerID: `containerd://${this.rng.hex(64)}`,
                  exitCode: phase === 'Succeeded' ? 0 : 1,
                  finishedAt: ts(finished),
                  reason: phase === 'Succeeded' ? 'Completed' : 'Error',
                  startedAt: ts(started + 2000),
                },
              }
            : { running: { startedAt: ts(started + 2000) } };
          return {
            containerID: `containerd://${this.rng.hex(64)}`,
            image,
            imageID: `${image.replace(/:[^:/]+$/, '')}@sha256:${this.rng.hex(64)}`,
            lastState: {},
            name: c.name,
            ready: !done,
            restartCount: this.rng.chance(0.9) ? 0 : this.rng.int(1, 4),
            started: !done,
            state,
          };
        })
      : undefined;
    const ready = phase === 'Running' ? 'True' : 'False';
    return this.emit({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: this.meta('Pod', opts.ns, opts.name, opts.created, {
        annotations: opts.annotations,
        finalizers: opts.finalizers,
        generateName: opts.generateName,
        labels: opts.labels,
        ownerReferences: [ownerRef(opts.owner)],
      }),
      spec: {
        ...spec,
        containers,
        enableServiceLinks: true,
        hostname: opts.hostname,
        nodeName: scheduled ? node.name : undefined,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: 0,
        subdomain: opts.subdomain,
        tolerations: [
          { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
          { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
        ],
        volumes,
      },
      status: {
        conditions: scheduled
          ? [
              cond('PodReadyToStartContainers', done ? 'False' : 'True'),
              cond('Initialized'),
              cond('Ready', ready, done ? finished : started + 8000),
              cond('ContainersReady', ready, done ? finished : started + 8000),
              cond('PodScheduled', 'True', opts.created),
            ]
          : [
              {
                lastProbeTime: null,
                lastTransitionTime: ts(opts.created),
                message:
                  '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
                reason: 'Unschedulable',
                status: 'False',
                type: 'PodScheduled',
              },
            ],
        containerStatuses,
        hostIP: scheduled ? node.ip : undefined,
        hostIPs: scheduled ? [{ ip: node.ip }] : undefined,
        phase,
        podIP: ip,
        podIPs: ip ? [{ ip }] : undefined,
        qosClass: 'Burstable',
        startTime: scheduled ? ts(started) : undefined,
      },
    });
  }

  // -- services -----------------------------------------------------------------------------------

  /**
   * A Service, the EndpointSlices the endpointslice controller made for it (owned by the Service) and the
   * legacy Endpoints object the endpoints controller keeps (same name, no owner). Returns the object count.
   */
  makeService(
    ns: string,
    name: string,
    selector: Record<string, string>,
    pods: ListItem[],
    port: number,
    opts: { headless?: boolean; owner?: ListItem; created: number },
  ): number {
    const labels = { ...selector };
    const svc = this.emit({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: this.meta('Service', ns, name, opts.created, { labels, ownerReferences: opts.owner ? [ownerRef(opts.owner)] : undefined }),
      spec: {
        clusterIP: opts.headless ? 'None' : this.nextServiceIp(),
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        ports: [{ name: 'http', port: opts.headless ? port : 80, protocol: 'TCP', targetPort: port }],
        publishNotReadyAddresses: opts.headless ? true : undefined,
        selector,
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
    (svc.spec as J).clusterIPs = [(svc.spec as J).clusterIP];
    const slices = EndpointSlicesFor(pods.length);
    for (let s = 0; s < slices; s++) {
      const members = pods.slice(s * 100, (s + 1) * 100);
      this.emit({
        addressType: 'IPv4',
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        endpoints: members.map((p) => {
          const st = p.status as J;
          const spec = p.spec as J;
          return {
            addresses: [st.podIP ?? '10.0.0.1'],
            conditions: { ready: true, serving: true, terminating: false },
            nodeName: spec.nodeName,
            targetRef: { kind: 'Pod', name: p.metadata.name, namespace: ns, uid: p.metadata.uid },
            zone: this.nodeByName.get(String(spec.nodeName))?.zone ?? ZONES[0],
          };
        }),
        metadata: this.meta('EndpointSlice', ns, `${name}-${this.rng.chars(5, K8S_ALPHABET)}`, opts.created + 1000, {
          annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': ts(NOW - this.rng.int(1, 3000) * MINUTE) },
          generateName: `${name}-`,
          generation: this.rng.int(1, 40),
          labels: {
            ...labels,
            'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
            'kubernetes.io/service-name': name,
            ...(opts.headless ? { 'service.kubernetes.io/headless': '' } : {}),
          },
          ownerReferences: [ownerRef(svc)],
        }),
        ports: [{ name: 'http', port, protocol: 'TCP' }],
      });
    }
    const shown = pods.slice(0, 1000);
    this.emit({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: this.meta('Endpoints', ns, name, opts.created + 1000, {
        annotations: {
          'endpoints.kubernetes.io/last-change-trigger-time': ts(NOW - this.rng.int(1, 3000) * MINUTE),
          ...(pods.length > 1000 ? { 'endpoints.kubernetes.io/over-capacity': 'truncated' } : {}),
        },
        labels: {
          ...labels,
          'endpoints.kubernetes.io/managed-by': 'endpoint-controller',
          ...(opts.headless ? { 'service.kubernetes.io/headless': '' } : {}),
        },
      }),
      subsets: shown.length
        ? [
            {
              addresses: shown.map((p) => ({
                hostname: opts.headless ? p.metadata.name : undefined,
                ip: (p.status as J).podIP,
                nodeName: (p.spec as J).nodeName,
                targetRef: { kind: 'Pod', name: p.metadata.name, namespace: ns, uid: p.metadata.uid },
              })),
              ports: [{ name: 'http', port, protocol: 'TCP' }],
            },
          ]
        : undefined,
    });
    return 2 + slices;
  }

  /** default/kubernetes and its EndpointSlice, which the apiserver maintains itself (no owner). */
  makeKubernetesService(): void {
    const created = NOW - 400 * DAY;
    const labels = { component: 'apiserver', provider: 'kubernetes' };
    this.emit({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: this.meta('Service', 'default', 'kubernetes', created, { labels }),
      spec: {
        clusterIP: '172.20.0.1',
        clusterIPs: ['172.20.0.1'],
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 443 }],
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
    this.emit({
      addressType: 'IPv4',
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      endpoints: ['10.0.120.15', '10.0.136.87', '10.0.152.201'].map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      metadata: this.meta('EndpointSlice', 'default', 'kubernetes', created, {
        generation: 1,
        labels: { 'kubernetes.io/service-name': 'kubernetes' },
      }),
      ports: [{ name: 'https', port: 443, protocol: 'TCP' }],
    });
  }

  makeConfigMap(ns: string, name: string, created: number, owner?: ListItem, lines = 12): ListItem {
    const rng = this.rng;
    let yaml = `server:\n  port: 8080\n  shutdownTimeout: 25s\nlogging:\n  level: info\n  format: json\n`;
    for (let i = 0; i < lines; i++)
      yaml += `${rng.pick(SERVICE_WORDS)}:\n  enabled: ${rng.chance(0.7)}\n  timeoutMs: ${rng.int(50, 5000)}\n  endpoint: http://${rng.pick(SERVICE_WORDS)}-${rng.pick(SERVICE_SUFFIXES)}.${ns}.svc.cluster.local:8080\n`;
    return this.emit({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { 'application.yaml': yaml, 'log-level': 'info' },
      metadata: this.meta('ConfigMap', ns, name, created, {
        labels: owner ? { 'app.kubernetes.io/managed-by': 'postgres-operator' } : { 'app.kubernetes.io/part-of': ns },
        ownerReferences: owner ? [ownerRef(owner)] : undefined,
      }),
    });
  }

  makeSecret(ns: string, name: string, created: number, owner?: ListItem, type = 'Opaque'): ListItem {
    const rng = this.rng;
    const data: Record<string, string> =
      type === 'kubernetes.io/tls'
        ? { 'tls.crt': b64(fakePem(rng, 'CERTIFICATE', 1200)), 'tls.key': b64(fakePem(rng, 'PRIVATE KEY', 1600)) }
        : type === 'kubernetes.io/basic-auth'
          ? { username: b64('app'), password: b64(rng.chars(32, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')) }
          : {
              'database-url': b64(`postgres://app:${rng.hex(24)}@${ns}-db-rw.${ns}.svc:5432/app?sslmode=require`),
              'api-key': b64(rng.hex(40)),
            };
    return this.emit({
      apiVersion: 'v1',
      kind: 'Secret',
      data,
      metadata: this.meta('Secret', ns, name, created, {
        annotations:
          type === 'kubernetes.io/tls'
            ? {
                'cert-manager.io/certificate-name': name.replace(/-tls$/, ''),
                'cert-manager.io/issuer-name': 'letsencrypt-prod',
                'cert-manager.io/issuer-kind': 'ClusterIssuer',
              }
            : undefined,
        labels: owner ? { 'app.kubernetes.io/managed-by': 'postgres-operator' } : undefined,
        ownerReferences: owner ? [ownerRef(owner)] : undefined,
      }),
      type,
    });
  }

  // -- Deployments --------------------------------------------------------------------------------

  static deploymentSize(replicas: number, oldRevisions: number, withService: boolean, extras: number): number {
    return 1 + (1 + oldRevisions) + replicas + (withService ? serviceSize(replicas) : 0) + extras;
  }

  /**
   * Deployment, its ReplicaSets (the current one and `oldRevisions` scaled to 0) and Pods, a Service with
   * its EndpointSlices and Endpoints, a ConfigMap, a ServiceAccount, maybe a Secret, a HorizontalPodAutoscaler
   * and a PodDisruptionBudget (neither owned: they name the Deployment by scaleTargetRef / selector).
   * Returns the object count.
   */
  makeDeploymentApp(
    ns: string,
    base: string,
    p: {
      replicas: number;
      oldRevisions: number;
      withService: boolean;
      secret: boolean;
      hpa?: boolean;
      pdb?: boolean;
      image?: string;
      version?: string;
      serviceAccount?: string;
    },
  ): number {
    const rng = this.rng;
    const name = base;
    const created = (this.namespaceCreated.get(ns) ?? NOW - 60 * DAY) + rng.int(1, 20) * HOUR;
    const selector = { 'app.kubernetes.io/instance': name, 'app.kubernetes.io/name': name };
    const labels = { ...selector, 'app.kubernetes.io/part-of': ns, 'app.kubernetes.io/version': '' };
    let extras = 0;
    const sa = p.serviceAccount ?? name;
    this.emit({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: this.meta('ServiceAccount', ns, sa, created, { labels: selector }) });
    extras++;
    const cmName = `${name}-config`;
    this.makeConfigMap(ns, cmName, created, undefined, rng.int(2, 10));
    extras++;
    const mountConfig = rng.chance(0.5);
    const secretName = p.secret ? `${name}-credentials` : undefined;
    if (secretName) {
      this.makeSecret(ns, secretName, created);
      extras++;
    }
    const w = this.workload(ns, name, {
      labels: { ...selector },
      configMap: mountConfig ? cmName : undefined,
      secret: secretName,
      serviceAccount: sa,
      image: p.image,
      version: p.version,
    });
    const revisions = p.oldRevisions + 1;
    const versions: string[] = [];
    for (let r = 0; r < revisions; r++) {
      const [maj, min] = w.version.split('.').map(Number);
      versions.unshift(r === 0 ? w.version : `${maj}.${Math.max(0, min - r)}.${rng.int(0, 9)}`);
    }
    labels['app.kubernetes.io/version'] = w.version;
    const template = this.podTemplate(w, w.version);
    const spec = {
      progressDeadlineSeconds: 600,
      replicas: p.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: selector },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template,
    };
    const applied = this.lastApplied({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { annotations: {}, labels, name, namespace: ns },
      spec: {
        replicas: p.replicas,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: selector },
          spec: {
            serviceAccountName: sa,
            containers: [
              {
                name: w.name,
                image: `${w.image}:${w.version}`,
                ports: [{ containerPort: w.port, name: 'http' }],
                resources: { limits: { memory: w.memory }, requests: { cpu: w.cpu, memory: w.memory } },
              },
            ],
          },
        },
      },
    });
    const rolled = created + rng.int(1, 30) * DAY;
    const deployment = this.emit({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: this.meta('Deployment', ns, name, created, {
        annotations: {
          'deployment.kubernetes.io/revision': String(revisions),
          'kubectl.kubernetes.io/last-applied-configuration': applied,
        },
        generation: revisions + rng.int(0, 3),
        labels,
      }),
      spec,
      status: {},
    });
    let current: ListItem | undefined;
    let rsCreated = created + 1000;
    for (let r = 1; r <= revisions; r++) {
      const hash = this.rng.chars(rng.chance(0.8) ? 10 : 9, K8S_ALPHABET);
      const isCurrent = r === revisions;
      const rsName = `${name}-${hash}`;
      if (this.taken('ReplicaSet', ns, rsName)) {
        r--;
        continue;
      }
      const replicas = isCurrent ? p.replicas : 0;
      const rsTemplate = this.podTemplate(w, versions[r - 1], { 'pod-template-hash': hash });
      const rs = this.emit({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: this.meta('ReplicaSet', ns, rsName, rsCreated, {
          annotations: {
            'deployment.kubernetes.io/desired-replicas': String(p.replicas),
            'deployment.kubernetes.io/max-replicas': String(p.replicas + Math.ceil(p.replicas / 4)),
            'deployment.kubernetes.io/revision': String(r),
          },
          generation: isCurrent ? rng.int(1, 4) : rng.int(2, 6),
          labels: { ...selector, 'pod-template-hash': hash },
          ownerReferences: [ownerRef(deployment)],
        }),
        spec: { replicas, selector: { matchLabels: { ...selector, 'pod-template-hash': hash } }, template: rsTemplate },
        status: isCurrent
          ? { availableReplicas: replicas, fullyLabeledReplicas: replicas, observedGeneration: 1, readyReplicas: replicas, replicas }
          : { observedGeneration: 3, replicas: 0 },
      });
      if (isCurrent) current = rs;
      rsCreated = Math.min(rolled, rsCreated + rng.int(1, 7) * DAY);
    }
    const rs = current!;
    const hash = rs.metadata.labels!['pod-template-hash'];
    const pods: ListItem[] = [];
    for (let i = 0; i < p.replicas; i++) {
      let podName: string;
      do podName = `${rs.metadata.name}-${rng.chars(5, K8S_ALPHABET)}`;
      while (this.taken('Pod', ns, podName));
      pods.push(
        this.makePod({
          w,
          version: w.version,
          ns,
          name: podName,
          generateName: `${rs.metadata.name}-`,
          owner: rs,
          labels: { ...selector, 'pod-template-hash': hash },
          created: Date.parse(rs.metadata.creationTimestamp) + rng.int(1, 600) * 1000,
        }),
      );
    }
    deployment.status = {
      availableReplicas: p.replicas,
      conditions: [
        {
          lastTransitionTime: ts(rsCreated),
          lastUpdateTime: ts(rsCreated),
          message: 'Deployment has minimum availability.',
          reason: 'MinimumReplicasAvailable',
          status: 'True',
          type: 'Available',
        },
        {
          lastTransitionTime: ts(created),
          lastUpdateTime: ts(rsCreated + 60_000),
          message: `ReplicaSet "${rs.metadata.name}" has successfully progressed.`,
          reason: 'NewReplicaSetAvailable',
          status: 'True',
          type: 'Progressing',
        },
      ],
      observedGeneration: deployment.metadata.generation,
      readyReplicas: p.replicas,
      replicas: p.replicas,
      updatedReplicas: p.replicas,
    };
    if (p.hpa) {
      extras++;
      this.emit({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: this.meta('HorizontalPodAutoscaler', ns, name, created + 2000, { labels: selector }),
        spec: {
          maxReplicas: Math.max(p.replicas * 3, 4),
          metrics: [{ resource: { name: 'cpu', target: { averageUtilization: 70, type: 'Utilization' } }, type: 'Resource' }],
          minReplicas: Math.max(1, Math.min(p.replicas, 2)),
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
        },
        status: {
          conditions: [
            {
              lastTransitionTime: ts(created + HOUR),
              message: 'recommended size matches current size',
              reason: 'ReadyForNewScale',
              status: 'True',
              type: 'AbleToScale',
            },
            {
              lastTransitionTime: ts(created + HOUR),
              message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
              reason: 'ValidMetricFound',
              status: 'True',
              type: 'ScalingActive',
            },
            {
              lastTransitionTime: ts(created + HOUR),
              message: 'the desired count is within the acceptable range',
              reason: 'DesiredWithinRange',
              status: 'False',
              type: 'ScalingLimited',
            },
          ],
          currentMetrics: [
            {
              resource: { current: { averageUtilization: rng.int(10, 90), averageValue: `${rng.int(5, 400)}m` }, name: 'cpu' },
              type: 'Resource',
            },
          ],
          currentReplicas: p.replicas,
          desiredReplicas: p.replicas,
        },
      });
    }
    if (p.pdb) {
      extras++;
      this.emit({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: this.meta('PodDisruptionBudget', ns, name, created + 2000, { generation: 1, labels: selector }),
        spec: { maxUnavailable: 1, selector: { matchLabels: selector } },
        status: {
          conditions: [
            {
              lastTransitionTime: ts(created + HOUR),
              message: '',
              observedGeneration: 1,
              reason: 'SufficientPods',
              status: 'True',
              type: 'DisruptionAllowed',
            },
          ],
          currentHealthy: p.replicas,
          desiredHealthy: Math.max(0, p.replicas - 1),
          disruptionsAllowed: p.replicas > 0 ? 1 : 0,
          expectedPods: p.replicas,
          observedGeneration: 1,
        },
      });
    }
    let count = 1 + revisions + p.replicas + extras;
    if (p.withService) count += this.makeService(ns, name, selector, pods, w.port, { created });
    return count;
  }

  // -- StatefulSets -------------------------------------------------------------------------------

  static statefulSetSize(replicas: number, revisions: number, chargePVs: boolean, withService: boolean): number {
    return 1 + revisions + replicas * 2 + (chargePVs ? replicas : 0) + (withService ? serviceSize(replicas) : 0);
  }

  /** StatefulSet, ControllerRevisions, Pods, PVCs (+ bound PVs), and a headless Service. Returns the count charged. */
  makeStatefulSet(
    ns: string,
    name: string,
    p: {
      replicas: number;
      revisions: number;
      chargePVs: boolean;
      withService: boolean;
      owner?: ListItem;
      image?: string;
      port?: number;
      storage?: string;
    },
  ): number {
    const rng = this.rng;
    const created = (this.namespaceCreated.get(ns) ?? NOW - 60 * DAY) + rng.int(1, 30) * HOUR;
    const selector: Record<string, string> = p.owner
      ? {
          'app.kubernetes.io/instance': p.owner.metadata.name,
          'app.kubernetes.io/managed-by': 'postgres-operator',
          'app.kubernetes.io/name': 'postgres',
        }
      : { 'app.kubernetes.io/instance': name, 'app.kubernetes.io/name': name.replace(/-\d+$/, '') };
    const [img, imgPort] = p.image
      ? [p.image, p.port ?? 5432]
      : (STATEFUL_IMAGES[name.replace(/-\d+$/, '')] ?? ['docker.io/library/redis:7.2.5', 6379]);
    const [image, version] = [img.slice(0, img.lastIndexOf(':')), img.slice(img.lastIndexOf(':') + 1)];
    const w = this.workload(ns, name, {
      labels: selector,
      image,
      version,
      port: imgPort,
      sidecar: false,
      envExtra: rng.int(0, 2),
      serviceAccount: 'default',
      dataClaim: true,
      memory: rng.pick(['1Gi', '2Gi', '4Gi', '8Gi']),
      cpu: rng.pick(['250m', '500m', '1', '2']),
    });
    const storage = p.storage ?? rng.pick(['10Gi', '20Gi', '50Gi', '100Gi']);
    const template = this.podTemplate(w, version);
    const sts = this.emit({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: this.meta('StatefulSet', ns, name, created, {
        annotations: p.owner
          ? undefined
          : {
              'kubectl.kubernetes.io/last-applied-configuration': this.lastApplied({
                apiVersion: 'apps/v1',
                kind: 'StatefulSet',
                metadata: { annotations: {}, labels: selector, name, namespace: ns },
                spec: { replicas: p.replicas, serviceName: name, selector: { matchLabels: selector } },
              }),
            },
        generation: p.revisions + rng.int(0, 2),
        labels: selector,
        ownerReferences: p.owner ? [ownerRef(p.owner)] : undefined,
      }),
      spec: {
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        podManagementPolicy: p.owner ? 'Parallel' : 'OrderedReady',
        replicas: p.replicas,
        revisionHistoryLimit: 10,
        selector: { matchLabels: selector },
        serviceName: name,
        template,
        updateStrategy: { rollingUpdate: { partition: 0 }, type: 'RollingUpdate' },
        volumeClaimTemplates: [
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { creationTimestamp: null, name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage } },
              storageClassName: 'gp3',
              volumeMode: 'Filesystem',
            },
            status: { phase: 'Pending' },
          },
        ],
      },
      status: {},
    });
    let revisionHash = '';
    for (let r = 1; r <= p.revisions; r++) {
      revisionHash = rng.chars(10, K8S_ALPHABET);
      this.emit({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        data: { spec: { template: { $patch: 'replace', ...template } } },
        metadata: this.meta('ControllerRevision', ns, `${name}-${revisionHash}`, created + r * HOUR, {
          labels: { ...selector, 'controller.kubernetes.io/hash': revisionHash },
          ownerReferences: [ownerRef(sts)],
        }),
        revision: r,
      });
    }
    const pods: ListItem[] = [];
    for (let i = 0; i < p.replicas; i++) {
      const claimName = `data-${name}-${i}`;
      const node = this.node();
      const podCreated = created + (i + 1) * 40_000;
      pods.push(
        this.makePod({
          w,
          version,
          ns,
          name: `${name}-${i}`,
          owner: sts,
          created: podCreated,
          claimName,
          hostname: `${name}-${i}`,
          subdomain: name,
          node,
          labels: {
            ...selector,
            'apps.kubernetes.io/pod-index': String(i),
            'controller-revision-hash': `${name}-${revisionHash}`,
            'statefulset.kubernetes.io/pod-name': `${name}-${i}`,
          },
        }),
      );
      this.makeClaimAndVolume(ns, claimName, selector, storage, podCreated - 1000, node);
    }
    this.lastStatefulPods = pods;
    sts.status = {
      availableReplicas: p.replicas,
      collisionCount: 0,
      currentReplicas: p.replicas,
      currentRevision: `${name}-${revisionHash}`,
      observedGeneration: sts.metadata.generation,
      readyReplicas: p.replicas,
      replicas: p.replicas,
      updateRevision: `${name}-${revisionHash}`,
      updatedReplicas: p.replicas,
    };
    let count = 1 + p.revisions + p.replicas * 2 + (p.chargePVs ? p.replicas : 0);
    if (p.withService) count += this.makeService(ns, name, selector, pods, w.port, { headless: true, owner: p.owner, created });
    return count;
  }

  makeClaimAndVolume(
    ns: string,
    claimName: string,
    labels: Record<string, string>,
    storage: string,
    created: number,
    node: NodeInfo,
  ): void {
    const claimUid = this.rng.uuid();
    const pvName = `pvc-${claimUid}`;
    const claim = this.emit({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        ...this.meta('PersistentVolumeClaim', ns, claimName, created, {
          annotations: {
            'pv.kubernetes.io/bind-completed': 'yes',
            'pv.kubernetes.io/bound-by-controller': 'yes',
            'volume.beta.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
            'volume.kubernetes.io/selected-node': node.name,
            'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
          },
          finalizers: ['kubernetes.io/pvc-protection'],
          labels,
        }),
        uid: claimUid,
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage } },
        storageClassName: 'gp3',
        volumeMode: 'Filesystem',
        volumeName: pvName,
      },
      status: { accessModes: ['ReadWriteOnce'], capacity: { storage }, phase: 'Bound' },
    });
    this.emit({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: this.meta('PersistentVolume', '', pvName, created + 3000, {
        annotations: {
          'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com',
          'volume.kubernetes.io/provisioner-deletion-secret-name': '',
          'volume.kubernetes.io/provisioner-deletion-secret-namespace': '',
        },
        finalizers: ['external-provisioner.volume.kubernetes.io/finalizer', 'kubernetes.io/pv-protection'],
      }),
      spec: {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage },
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          name: claimName,
          namespace: ns,
          resourceVersion: claim.metadata.resourceVersion,
          uid: claimUid,
        },
        csi: {
          driver: 'ebs.csi.aws.com',
          fsType: 'ext4',
          volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': `1717171717171-${this.rng.int(1000, 9999)}-ebs.csi.aws.com` },
          volumeHandle: `vol-0${this.rng.hex(16)}`,
        },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [node.zone] }] }],
          },
        },
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: 'gp3',
        volumeMode: 'Filesystem',
      },
      status: { lastPhaseTransitionTime: ts(created + 4000), phase: 'Bound' },
    });
  }

  // -- DaemonSets ---------------------------------------------------------------------------------

  makeDaemonSet(ns: string, name: string, image: string): number {
    const rng = this.rng;
    const created = (this.namespaceCreated.get(ns) ?? NOW - 60 * DAY) + rng.int(1, 4) * HOUR;
    const selector = { 'app.kubernetes.io/name': name };
    const [img, version] = [image.slice(0, image.lastIndexOf(':')), image.slice(image.lastIndexOf(':') + 1)];
    const w = this.workload(ns, name, {
      labels: selector,
      image: img,
      version,
      port: 9100,
      sidecar: false,
      serviceAccount: name,
      envExtra: 1,
    });
    const template = this.podTemplate(w, version);
    const spec = template.spec as J;
    spec.hostNetwork = true;
    spec.priorityClassName = 'system-node-critical';
    spec.tolerations = [{ operator: 'Exists' }];
    const generation = rng.int(1, 5);
    const ds = this.emit({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: this.meta('DaemonSet', ns, name, created, {
        annotations: { 'deprecated.daemonset.template.generation': String(generation) },
        generation,
        labels: selector,
      }),
      spec: {
        revisionHistoryLimit: 10,
        selector: { matchLabels: selector },
        template,
        updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 }, type: 'RollingUpdate' },
      },
      status: {
        currentNumberScheduled: this.nodes.length,
        desiredNumberScheduled: this.nodes.length,
        numberAvailable: this.nodes.length,
        numberMisscheduled: 0,
        numberReady: this.nodes.length,
        observedGeneration: generation,
        updatedNumberScheduled: this.nodes.length,
      },
    });
    const hash = rng.chars(10, K8S_ALPHABET);
    this.emit({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      data: { spec: { template: { $patch: 'replace', ...template } } },
      metadata: this.meta('ControllerRevision', ns, `${name}-${hash}`, created, {
        annotations: { 'deprecated.daemonset.template.generation': String(generation) },
        labels: { ...selector, 'controller-revision-hash': hash },
        ownerReferences: [ownerRef(ds)],
      }),
      revision: generation,
    });
    for (const node of this.nodes) {
      let podName: string;
      do podName = `${name}-${rng.chars(5, K8S_ALPHABET)}`;
      while (this.taken('Pod', ns, podName));
      const pod = this.makePod({
        w,
        version,
        ns,
        name: podName,
        generateName: `${name}-`,
        owner: ds,
        node,
        created: created + rng.int(1, 3000) * MINUTE,
        labels: { ...selector, 'controller-revision-hash': hash, 'pod-template-generation': String(generation) },
      });
      const ps = pod.spec as J;
      ps.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.name] }] }],
          },
        },
      };
      ps.hostNetwork = true;
      ps.priorityClassName = 'system-node-critical';
      ps.priority = 2000001000;
      (pod.status as J).podIP = node.ip;
      (pod.status as J).podIPs = [{ ip: node.ip }];
    }
    this.emit({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: this.meta('ServiceAccount', ns, name, created) });
    return 2 + this.nodes.length + 1;
  }

  // -- CronJobs and Jobs --------------------------------------------------------------------------

  static cronJobSize(succeeded: number, running: boolean, failed: boolean): number {
    return 1 + succeeded * 2 + (running ? 2 : 0) + (failed ? 3 : 0);
  }

  /** CronJob with its history: `succeeded` finished Jobs, maybe one running and one failed (2 Pods). */
  makeCronJob(ns: string, base: string, p: { succeeded: number; running: boolean; failed: boolean }): number {
    const rng = this.rng;
    const name = base;
    const created = (this.namespaceCreated.get(ns) ?? NOW - 60 * DAY) + rng.int(1, 40) * HOUR;
    const schedule = rng.pick(SCHEDULES);
    const period = SCHEDULE_MINUTES[schedule] * MINUTE;
    const selector = { 'app.kubernetes.io/name': name };
    const w = this.workload(ns, name, {
      labels: selector,
      restartPolicy: 'Never',
      sidecar: false,
      secret: undefined,
      envExtra: rng.int(0, 3),
      image: `registry.acme.io/${ns}/jobs`,
      command: ['/app/bin/run', name.replace(/-\d+$/, ''), '--batch-size=500'],
    });
    const jobTemplateSpec = { backoffLimit: 2, template: this.podTemplate(w, w.version) };
    const cj = this.emit({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: this.meta('CronJob', ns, name, created, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': this.lastApplied({
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            metadata: { annotations: {}, labels: selector, name, namespace: ns },
            spec: {
              schedule,
              concurrencyPolicy: 'Forbid',
              jobTemplate: {
                spec: {
                  backoffLimit: 2,
                  template: {
                    spec: { restartPolicy: 'Never', containers: [{ name: w.name, image: `${w.image}:${w.version}`, command: w.command }] },
                  },
                },
              },
            },
          }),
        },
        generation: rng.int(1, 4),
        labels: selector,
      }),
      spec: {
        concurrencyPolicy: 'Forbid',
        failedJobsHistoryLimit: 1,
        jobTemplate: { metadata: { creationTimestamp: null }, spec: jobTemplateSpec },
        schedule,
        successfulJobsHistoryLimit: 3,
        suspend: false,
      },
      status: {},
    });
    // Schedule times, newest last.
    const lastTick = Math.floor((NOW - rng.int(0, 4) * MINUTE) / period) * period;
    const kinds: ('ok' | 'failed' | 'running')[] = [];
    for (let i = 0; i < p.succeeded; i++) kinds.push('ok');
    if (p.failed) kinds.splice(Math.max(0, kinds.length - 1), 0, 'failed');
    if (p.running) kinds.push('running');
    const active: J[] = [];
    let lastSuccess = 0;
    kinds.forEach((kind, idx) => {
      const scheduled = lastTick - (kinds.length - 1 - idx) * period;
      const jobName = `${name}-${Math.floor(scheduled / MINUTE)}`;
      const uid = rng.uuid();
      const jobLabels = {
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': jobName,
        'controller-uid': uid,
        'job-name': jobName,
      };
      const start = scheduled + rng.int(0, 3) * 1000;
      const done = start + rng.int(30, Math.max(31, Math.min(1800, period / 2000))) * 1000;
      const meta = this.meta('Job', ns, jobName, scheduled, {
        annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': ts(scheduled) },
        generation: 1,
        labels: jobLabels,
        ownerReferences: [ownerRef(cj)],
      });
      meta.uid = uid;
      const cond = (type: string, reason?: string, message?: string) => ({
        lastProbeTime: ts(done),
        lastTransitionTime: ts(done),
        message,
        reason,
        status: 'True',
        type,
      });
      const job = this.emit({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: meta,
        spec: {
          backoffLimit: 2,
          completionMode: 'NonIndexed',
          completions: 1,
          manualSelector: false,
          parallelism: 1,
          podReplacementPolicy: 'TerminatingOrFailed',
          selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
          suspend: false,
          template: { metadata: { creationTimestamp: null, labels: { ...jobLabels, ...selector } }, spec: this.templateSpec(w, w.version) },
        },
        status:
          kind === 'running'
            ? { active: 1, ready: 1, startTime: ts(start), terminating: 0, uncountedTerminatedPods: {} }
            : kind === 'ok'
              ? {
                  completionTime: ts(done),
                  conditions: [
                    cond('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'),
                    cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'),
                  ],
                  ready: 0,
                  startTime: ts(start),
                  succeeded: 1,
                  terminating: 0,
                  uncountedTerminatedPods: {},
                }
              : {
                  conditions: [
                    cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
                    cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
                  ],
                  failed: 2,
                  ready: 0,
                  startTime: ts(start),
                  terminating: 0,
                  uncountedTerminatedPods: {},
                },
      });
      if (kind === 'running')
        active.push({
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: jobName,
          namespace: ns,
          resourceVersion: job.metadata.resourceVersion,
          uid,
        });
      if (kind === 'ok') lastSuccess = done;
      const podCount = kind === 'failed' ? 2 : 1;
      for (let i = 0; i < podCount; i++) {
        let podName: string;
        do podName = `${jobName}-${rng.chars(5, K8S_ALPHABET)}`;
        while (this.taken('Pod', ns, podName));
        this.makePod({
          w,
          version: w.version,
          ns,
          name: podName,
          generateName: `${jobName}-`,
          owner: job,
          created: start + i * 30_000,
          labels: { ...jobLabels, ...selector },
          phase: kind === 'running' ? 'Running' : kind === 'ok' ? 'Succeeded' : 'Failed',
          // The Job controller keeps this finalizer on a Pod until it has counted the Pod's outcome.
          finalizers: kind === 'running' ? ['batch.kubernetes.io/job-tracking'] : undefined,
        });
      }
    });
    cj.status = {
      active: active.length ? active : undefined,
      lastScheduleTime: ts(lastTick),
      lastSuccessfulTime: lastSuccess ? ts(lastSuccess) : undefined,
    };
    return 1 + kinds.reduce((s, k) => s + 1 + (k === 'failed' ? 2 : 1), 0);
  }

  // -- the operator's custom resources ------------------------------------------------------------

  static postgresSize(instances: number, chargePVs: boolean): number {
    return 1 + ClusterGenerator.statefulSetSize(instances, 1, chargePVs, true) + serviceSize(instances) + 2;
  }

  makePostgresCluster(ns: string, name: string, p: { instances: number; chargePVs: boolean }): number {
    const rng = this.rng;
    const created = (this.namespaceCreated.get(ns) ?? NOW - 60 * DAY) + rng.int(1, 30) * HOUR;
    const version = rng.pick([14, 15, 16]);
    const storage = rng.pick(['20Gi', '50Gi', '100Gi', '250Gi']);
    const spec = {
      backups: { retentionDays: rng.pick([7, 14, 30]), schedule: '0 2 * * *' },
      instances: p.instances,
      postgresVersion: version,
      resources: { limits: { memory: '4Gi' }, requests: { cpu: '500m', memory: '4Gi' } },
      storage: { size: storage, storageClassName: 'gp3' },
    };
    const generation = rng.int(1, 6);
    const cr = this.emit({
      apiVersion: `${OPERATOR.group}/v1`,
      kind: OPERATOR.kind,
      metadata: this.meta(OPERATOR.kind, ns, name, created, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': this.lastApplied({
            apiVersion: `${OPERATOR.group}/v1`,
            kind: OPERATOR.kind,
            metadata: { annotations: {}, name, namespace: ns },
            spec,
          }),
        },
        finalizers: [OPERATOR.finalizer],
        generation,
        labels: { 'app.kubernetes.io/part-of': ns },
      }),
      spec,
      status: {
        conditions: [
          {
            lastTransitionTime: ts(created + 5 * MINUTE),
            message: `${p.instances}/${p.instances} instances ready`,
            observedGeneration: generation,
            reason: 'InstancesReady',
            status: 'True',
            type: 'Ready',
          },
        ],
        instances: p.instances,
        observedGeneration: generation,
        phase: 'Running',
      },
    });
    let count = 1;
    count += this.makeStatefulSet(ns, name, {
      replicas: p.instances,
      revisions: 1,
      chargePVs: p.chargePVs,
      withService: true,
      owner: cr,
      image: `docker.io/library/postgres:${version}.3`,
      port: 5432,
      storage,
    });
    const pods = this.lastStatefulPods;
    const selector = {
      'app.kubernetes.io/instance': name,
      'app.kubernetes.io/managed-by': 'postgres-operator',
      'app.kubernetes.io/name': 'postgres',
    };
    count += this.makeService(ns, `${name}-rw`, selector, pods, 5432, { owner: cr, created: created + 1000 });
    this.makeConfigMap(ns, `${name}-config`, created + 2000, cr, 3);
    this.makeSecret(ns, `${name}-app`, created + 2000, cr, 'kubernetes.io/basic-auth');
    return count + 2;
  }

  // -- filling a namespace to an exact count ------------------------------------------------------

  appName(ns: string, kind: string, words: readonly string[], suffixes?: readonly string[]): string {
    const rng = this.rng;
    for (let attempt = 0; attempt < 20; attempt++) {
      const base = suffixes ? `${rng.pick(words)}-${rng.pick(suffixes)}` : rng.pick(words);
      if (!this.taken(kind, ns, base)) return base;
    }
    let i = 2;
    const base = suffixes ? `${rng.pick(words)}-${rng.pick(suffixes)}` : rng.pick(words);
    while (this.taken(kind, ns, `${base}-${i}`)) i++;
    return `${base}-${i}`;
  }

  /** Checks that an app produced the count it was planned for (a generator bug otherwise). */
  expect(planned: number, made: number, what: string): number {
    if (planned !== made) throw new Error(`generator bug: ${what} planned ${planned} objects, made ${made}`);
    return made;
  }

  fill(f: NamespaceFill, mix: { deployment: number; statefulset: number; cronjob: number; postgres: number; config: number }): void {
    const rng = this.rng;
    let stalls = 0;
    while (f.remaining > 30 && stalls < 50) {
      const kind = rng.weighted(mix);
      if (kind === 'deployment') {
        const replicas = rng.chance(0.87) ? rng.pick([1, 1, 1, 1, 2, 2, 2, 3, 3, 4]) : rng.chance(0.8) ? rng.int(6, 16) : rng.int(20, 40);
        const oldRevisions = rng.pick([0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 5]);
        const withService = rng.chance(0.8);
        const secret = rng.chance(0.5);
        const hpa = rng.chance(0.3);
        const pdb = rng.chance(0.4);
        const size = ClusterGenerator.deploymentSize(replicas, oldRevisions, withService, 2 + Number(secret) + Number(hpa) + Number(pdb));
        if (size > f.remaining - 2) {
          stalls++;
          continue;
        }
        const name = this.appName(f.ns, 'Deployment', SERVICE_WORDS, SERVICE_SUFFIXES);
        if (
          this.taken('ServiceAccount', f.ns, name) ||
          this.taken('Service', f.ns, name) ||
          this.taken('ConfigMap', f.ns, `${name}-config`)
        ) {
          stalls++;
          continue;
        }
        stalls = 0;
        f.remaining -= this.expect(
          size,
          this.makeDeploymentApp(f.ns, name, { replicas, oldRevisions, withService, secret, hpa, pdb }),
          `Deployment ${f.ns}/${name}`,
        );
      } else if (kind === 'statefulset') {
        const replicas = rng.pick([1, 2, 3, 3, 3, 5]);
        const revisions = rng.int(1, 3);
        const size = ClusterGenerator.statefulSetSize(replicas, revisions, f.chargeClusterScoped, true);
        if (size > f.remaining - 2) {
          stalls++;
          continue;
        }
        const name = this.appName(f.ns, 'StatefulSet', STATEFUL_WORDS);
        if (this.taken('Service', f.ns, name)) {
          stalls++;
          continue;
        }
        stalls = 0;
        f.remaining -= this.expect(
          size,
          this.makeStatefulSet(f.ns, name, { replicas, revisions, chargePVs: f.chargeClusterScoped, withService: true }),
          `StatefulSet ${f.ns}/${name}`,
        );
      } else if (kind === 'cronjob') {
        const succeeded = rng.int(1, 3);
        const running = rng.chance(0.3);
        const failed = rng.chance(0.15);
        const size = ClusterGenerator.cronJobSize(succeeded, running, failed);
        if (size > f.remaining - 2) {
          stalls++;
          continue;
        }
        const name = this.appName(
          f.ns,
          'CronJob',
          JOB_WORDS,
          ['', 'nightly', 'hourly', 'orders', 'users', 'events'].map((s) => s || 'job'),
        );
        stalls = 0;
        f.remaining -= this.expect(size, this.makeCronJob(f.ns, name, { succeeded, running, failed }), `CronJob ${f.ns}/${name}`);
      } else if (kind === 'postgres') {
        const instances = rng.pick([1, 2, 3, 3]);
        const size = ClusterGenerator.postgresSize(instances, f.chargeClusterScoped);
        if (size > f.remaining - 2) {
          stalls++;
          continue;
        }
        const name = this.appName(
          f.ns,
          OPERATOR.kind,
          SERVICE_WORDS.map((s) => `${s}-db`),
        );
        if (this.taken('StatefulSet', f.ns, name) || this.taken('Service', f.ns, name) || this.taken('Service', f.ns, `${name}-rw`)) {
          stalls++;
          continue;
        }
        stalls = 0;
        f.remaining -= this.expect(
          size,
          this.makePostgresCluster(f.ns, name, { instances, chargePVs: f.chargeClusterScoped }),
          `${OPERATOR.kind} ${f.ns}/${name}`,
        );
      } else {
        const n = Math.min(f.remaining - 2, rng.int(1, 4));
        this.pad(f, n);
      }
    }
    this.pad(f, f.remaining);
  }

  /** Unowned ConfigMaps and Secrets: what fills the last gap exactly. */
  pad(f: NamespaceFill, n: number): void {
    const rng = this.rng;
    const created = (this.namespaceCreated.get(f.ns) ?? NOW - 60 * DAY) + rng.int(1, 40) * DAY;
    for (let i = 0; i < n; i++) {
      const pick = rng.int(0, 3);
      if (pick === 0)
        this.makeSecret(f.ns, this.uniqueFree('Secret', f.ns, `${rng.pick(SERVICE_WORDS)}-tls`), created, undefined, 'kubernetes.io/tls');
      else if (pick === 1)
        this.makeSecret(
          f.ns,
          this.uniqueFree('Secret', f.ns, `${rng.pick(SERVICE_WORDS)}-${rng.pick(['api-keys', 'webhook-secret', 'oauth-client'])}`),
          created,
        );
      else
        this.makeConfigMap(
          f.ns,
          this.uniqueFree('ConfigMap', f.ns, `${rng.pick(SERVICE_WORDS)}-${rng.pick(['feature-flags', 'routes', 'limits', 'settings'])}`),
          created,
          undefined,
          rng.int(1, 6),
        );
    }
    f.remaining -= n;
  }

  uniqueFree(kind: string, ns: string, base: string): string {
    let name = base;
    for (let i = 2; this.taken(kind, ns, name); i++) name = `${base}-${i}`;
    return name;
  }
}

function EndpointSlicesFor(endpoints: number): number {
  return Math.max(1, Math.ceil(endpoints / 100));
}

/** Objects makeService() makes: the Service, its EndpointSlices, its Endpoints. */
function serviceSize(endpoints: number): number {
  return 2 + EndpointSlicesFor(endpoints);
}

function fakePem(rng: Rng, label: string, bytes: number): string {
  const body = Buffer.from(Array.from({ length: Math.floor(bytes * 0.75) }, () => rng.u32() & 255)).toString('base64');
  return `-----BEGIN ${label}-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

// ---------------------------------------------------------------------------------------------------
// The cluster

/** Generates the cluster. Deterministic: the same options always give the same document. */
export function generateCluster(options: GenerateClusterOptions = {}): GeneratedCluster {
  const opts: Required<GenerateClusterOptions> = { ...DEFAULTS, ...options };
  const { objects, bigNamespaceObjects } = opts;
  if (
    !Number.isInteger(objects) ||
    !Number.isInteger(bigNamespaceObjects) ||
    bigNamespaceObjects < 200 ||
    objects < bigNamespaceObjects * 1.2 + 1000
  ) {
    throw new Error(
      `generateCluster: need integers with bigNamespaceObjects >= 200 and objects >= 1.2 * bigNamespaceObjects + 1000 (got ${objects}, ${bigNamespaceObjects})`,
    );
  }
  const g = new ClusterGenerator(opts.seed);
  const rng = g.rng;

  // Cluster-scoped foundations.
  g.makeNodes(Math.max(3, Math.min(500, Math.round(objects / 400))));
  const systemNamespaces: [string, number, Record<string, string>][] = [
    ['default', NOW - 400 * DAY, {}],
    ['kube-system', NOW - 400 * DAY, {}],
    ['kube-public', NOW - 400 * DAY, {}],
    ['kube-node-lease', NOW - 400 * DAY, {}],
    ['monitoring', NOW - 300 * DAY, { 'pod-security.kubernetes.io/enforce': 'privileged' }],
    [OPERATOR.namespace, NOW - 200 * DAY, { 'app.kubernetes.io/name': OPERATOR.deployment }],
  ];
  for (const [ns, created, labels] of systemNamespaces) g.makeNamespace(ns, created, labels);
  const crd = g.makeCrd();
  g.makeOperatorRbac();

  // System namespaces: fixed content, sized by the node count.
  for (const [ns] of systemNamespaces) g.namespaceBasics(ns);
  g.makeNodeLeases();
  g.makeKubernetesService();
  g.makeConfigMap('kube-public', 'cluster-info', NOW - 400 * DAY, undefined, 1);
  g.makeDaemonSet('kube-system', 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.31.2');
  g.makeDaemonSet('kube-system', 'aws-node', '602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.18.5');
  g.makeDaemonSet('kube-system', 'ebs-csi-node', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0');
  g.makeDeploymentApp('kube-system', 'coredns', {
    replicas: 2,
    oldRevisions: 1,
    withService: true,
    secret: false,
    image: 'registry.k8s.io/coredns/coredns',
    version: '1.11.3',
  });
  g.makeDeploymentApp('kube-system', 'ebs-csi-controller', {
    replicas: 2,
    oldRevisions: 2,
    withService: false,
    secret: false,
    image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver',
    version: '1.35.0',
  });
  g.makeDeploymentApp('kube-system', 'metrics-server', {
    replicas: 1,
    oldRevisions: 3,
    withService: true,
    secret: false,
    image: 'registry.k8s.io/metrics-server/metrics-server',
    version: '0.7.2',
  });
  g.makeDaemonSet('monitoring', 'node-exporter', 'quay.io/prometheus/node-exporter:v1.8.2');
  g.makeStatefulSet('monitoring', 'prometheus', {
    replicas: 2,
    revisions: 3,
    chargePVs: true,
    withService: true,
    image: 'quay.io/prometheus/prometheus:v2.54.1',
    port: 9090,
    storage: '200Gi',
  });
  g.makeStatefulSet('monitoring', 'alertmanager', {
    replicas: 3,
    revisions: 2,
    chargePVs: true,
    withService: true,
    image: 'quay.io/prometheus/alertmanager:v0.27.0',
    port: 9093,
    storage: '10Gi',
  });
  g.makeDeploymentApp('monitoring', 'grafana', {
    replicas: 1,
    oldRevisions: 4,
    withService: true,
    secret: true,
    image: 'docker.io/grafana/grafana',
    version: '11.2.0',
  });
  g.makeDeploymentApp('monitoring', 'kube-state-metrics', {
    replicas: 1,
    oldRevisions: 2,
    withService: true,
    secret: false,
    image: 'registry.k8s.io/kube-state-metrics/kube-state-metrics',
    version: '2.13.0',
  });
  g.makeDeploymentApp(OPERATOR.namespace, OPERATOR.deployment, {
    replicas: 2,
    oldRevisions: 3,
    withService: true,
    secret: false,
    image: OPERATOR.image,
    version: '1.8.2',
  });

  // The big namespace and the filler namespaces.
  const bigNamespace = 'storefront';
  const systemCount = g.items.length;
  const fillerTotal = objects - systemCount - 1 - bigNamespaceObjects;
  const fillerCount = Math.max(1, Math.min(FILLER_NAMESPACES.length, Math.round(fillerTotal / 9000)));
  const fillers = FILLER_NAMESPACES.slice(0, fillerCount);
  g.makeNamespace(bigNamespace, NOW - 180 * DAY, { 'app.kubernetes.io/part-of': 'shop', 'pod-security.kubernetes.io/enforce': 'baseline' });
  fillers.forEach((ns) => g.makeNamespace(ns, NOW - rng.int(30, 365) * DAY, { team: ns }));

  const mix = { deployment: 50, statefulset: 8, cronjob: 15, postgres: 6, config: 24 };
  // Big namespace: exactly bigNamespaceObjects namespaced objects (its PersistentVolumes are extra).
  const big: NamespaceFill = { ns: bigNamespace, remaining: bigNamespaceObjects, chargeClusterScoped: false };
  big.remaining -= g.namespaceBasics(bigNamespace);
  const bigReplicas = Math.max(3, Math.min(1000, Math.round(bigNamespaceObjects * 0.03)));
  const bigOld = 5;
  big.remaining -= g.makeDeploymentApp(bigNamespace, 'storefront-web', {
    replicas: bigReplicas,
    oldRevisions: bigOld,
    withService: true,
    secret: true,
  });
  big.remaining -= g.makePostgresCluster(bigNamespace, 'storefront-db', { instances: 3, chargePVs: false });
  g.fill(big, mix);

  // Fillers share what is left, the last one takes the exact remainder.
  const fillerBudget = objects - g.items.length;
  let left = fillerBudget;
  const weights = fillers.map(() => 0.5 + rng.float());
  const weightSum = weights.reduce((a, b) => a + b, 0);
  fillers.forEach((ns, i) => {
    const share = i === fillers.length - 1 ? left : Math.floor((fillerBudget * weights[i]) / weightSum);
    const f: NamespaceFill = { ns, remaining: share, chargeClusterScoped: true };
    f.remaining -= g.namespaceBasics(ns);
    g.fill(f, mix);
    left -= share;
  });
  if (g.items.length !== objects) throw new Error(`generator bug: made ${g.items.length} objects instead of ${objects}`);

  // kubectl's order: by resource type, then namespace, then name.
  const order = new Map(KIND_ORDER.map((k, i) => [k, i]));
  const items = g.items.map((item) => sortKeys(item) as ListItem);
  items.sort(
    (a, b) =>
      (order.get(a.kind) ?? 99) - (order.get(b.kind) ?? 99) ||
      cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
      cmp(a.metadata.name, b.metadata.name),
  );

  const countsByKind: Record<string, number> = {};
  const countsByNamespace: Record<string, number> = {};
  for (const i of items) {
    countsByKind[i.kind] = (countsByKind[i.kind] ?? 0) + 1;
    const ns = i.metadata.namespace ?? '';
    countsByNamespace[ns] = (countsByNamespace[ns] ?? 0) + 1;
  }
  if (countsByNamespace[bigNamespace] !== bigNamespaceObjects) {
    throw new Error(`generator bug: ${bigNamespace} holds ${countsByNamespace[bigNamespace]} objects instead of ${bigNamespaceObjects}`);
  }
  return {
    list: { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } },
    options: opts,
    bigNamespace,
    bigDeployment: { namespace: bigNamespace, name: 'storefront-web', treeObjects: 1 + bigOld + 1 + bigReplicas },
    operator: {
      crd: crd.metadata.name,
      group: OPERATOR.group,
      kind: OPERATOR.kind,
      namespace: OPERATOR.namespace,
      deployment: OPERATOR.deployment,
      finalizer: OPERATOR.finalizer,
    },
    countsByKind,
    countsByNamespace,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------
// Serialisation

/** The JSON text exactly as `kubectl get ... -o json` prints it: 4-space indent, trailing newline. */
export function clusterJson(cluster: GeneratedCluster | KubeList): string {
  const list = 'list' in cluster ? cluster.list : cluster;
  try {
    return JSON.stringify(list, null, 4) + '\n';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new Error(
      `the JSON of ${list.items.length} objects is longer than the longest string V8 can hold (about 512 MiB); use fewer objects`,
    );
  }
}

/** Writes the JSON text to a new temporary directory; returns the file and its size in bytes. */
export function writeClusterToTempFile(cluster: GeneratedCluster | KubeList, text = clusterJson(cluster)): { file: string; bytes: number } {
  const dir = mkdtempSync(join(tmpdir(), 'kube-gc-bench-'));
  const file = join(dir, 'cluster.json');
  writeFileSync(file, text);
  return { file, bytes: Buffer.byteLength(text) };
}

// ---------------------------------------------------------------------------------------------------
// Validation

const CLUSTER_SCOPED = new Set(['Namespace', 'Node', 'PersistentVolume', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding']);

/**
 * Checks the document is consistent the way a real cluster is: unique uids and names, every
 * ownerReference resolves to an object with the same apiVersion, kind and name in the dependent's
 * namespace (or cluster-scoped), at most one controller reference, every namespace exists, claims and
 * volumes point at each other. Returns the problems found (empty when valid).
 */
export function validateCluster(list: KubeList): { ownerReferences: number; problems: string[] } {
  const problems: string[] = [];
  const byUid = new Map<string, ListItem>();
  const byCoords = new Set<string>();
  const namespaces = new Set<string>();
  for (const i of list.items) {
    const m = i.metadata;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(m.uid))
      problems.push(`${i.kind} ${m.name}: uid ${m.uid} is not a v4 UUID`);
    if (byUid.has(m.uid)) problems.push(`uid ${m.uid} used twice`);
    byUid.set(m.uid, i);
    const coords = `${i.apiVersion.split('/').slice(0, -1).join('/')}/${i.kind}/${m.namespace ?? ''}/${m.name}`;
    if (byCoords.has(coords)) problems.push(`${coords} twice`);
    byCoords.add(coords);
    if (i.kind === 'Namespace') namespaces.add(m.name);
    if (CLUSTER_SCOPED.has(i.kind) === (m.namespace !== undefined)) problems.push(`${i.kind} ${m.name}: wrong scope`);
    if (!m.resourceVersion || !/^\d+$/.test(m.resourceVersion) || !m.creationTimestamp)
      problems.push(`${i.kind} ${m.name}: metadata incomplete`);
  }
  let ownerReferences = 0;
  for (const i of list.items) {
    const m = i.metadata;
    if (m.namespace !== undefined && !namespaces.has(m.namespace))
      problems.push(`${i.kind} ${m.namespace}/${m.name}: namespace does not exist`);
    const refs = m.ownerReferences ?? [];
    if (refs.filter((r) => r.controller).length > 1)
      problems.push(`${i.kind} ${m.namespace}/${m.name}: more than one controller reference`);
    for (const r of refs) {
      ownerReferences++;
      const owner = byUid.get(r.uid);
      if (!owner) {
        problems.push(`${i.kind} ${m.namespace}/${m.name}: owner ${r.kind} ${r.name} (${r.uid}) missing`);
        continue;
      }
      if (owner.kind !== r.kind || owner.metadata.name !== r.name || owner.apiVersion !== r.apiVersion)
        problems.push(`${i.kind} ${m.namespace}/${m.name}: reference to ${r.kind} ${r.name} names ${owner.kind} ${owner.metadata.name}`);
      if (owner.metadata.namespace !== undefined && owner.metadata.namespace !== m.namespace)
        problems.push(`${i.kind} ${m.namespace}/${m.name}: owner in another namespace`);
      if (r.controller !== undefined && (r.controller !== true || r.blockOwnerDeletion !== true))
        problems.push(`${i.kind} ${m.namespace}/${m.name}: controller reference without blockOwnerDeletion`);
    }
    if (i.kind === 'PersistentVolumeClaim') {
      const pv = byCoords.has(`/PersistentVolume//${(i.spec as J).volumeName}`);
      if (!pv) problems.push(`PVC ${m.namespace}/${m.name}: volume missing`);
    }
    if (i.kind === 'PersistentVolume') {
      const ref = (i.spec as J).claimRef as { uid: string; name: string; namespace: string };
      const claim = byUid.get(ref.uid);
      if (!claim || claim.metadata.name !== ref.name || claim.metadata.namespace !== ref.namespace)
        problems.push(`PV ${m.name}: claimRef does not resolve`);
    }
    if (i.kind === 'Pod') {
      for (const v of ((i.spec as J).volumes as J[]) ?? []) {
        const claim = (v.persistentVolumeClaim as { claimName: string } | undefined)?.claimName;
        if (claim && !byCoords.has(`/PersistentVolumeClaim/${m.namespace}/${claim}`))
          problems.push(`Pod ${m.namespace}/${m.name}: claim ${claim} missing`);
      }
    }
  }
  return { ownerReferences, problems };
}
