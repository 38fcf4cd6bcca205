// The live-cluster benchmark's cluster (bench/clusterBench.ts): the generated cluster of bench/generateCluster.ts
// (25 resource types: workloads, Pods, Services, storage, the PostgresCluster operator) plus 25 more resource
// types a production cluster holds, for exactly `objects` objects over 50 resource types:
//   - built-in: Role, RoleBinding, NetworkPolicy, Ingress, LimitRange, ResourceQuota (per application or
//     namespace), CSINode (one per Node, owned by it, as the kubelet writes it), VolumeAttachment (per attached
//     volume), CertificateSigningRequest (kubelet serving certificates), and the cluster's configuration:
//     StorageClass, CSIDriver, PriorityClass, RuntimeClass, IngressClass, FlowSchema, PriorityLevelConfiguration,
//     Mutating/ValidatingWebhookConfiguration, APIService;
//   - custom (with their CustomResourceDefinitions): cert-manager's Issuer, Certificate, CertificateRequest,
//     Order, Challenge, with the chain its ingress-shim and ACME issuer write
//     (Ingress → Certificate → CertificateRequest → Order → Challenge), and prometheus-operator's ServiceMonitor.
// Every object then gets metadata.managedFields as a real apiserver serves them (bench/managedFields.ts), unless asked
// not to: the base generator makes a `kubectl get -o json` dump, in which kubectl hides them.
// Deterministic (seeded), like the base generator. Nothing here is part of the extension.

import { generateCluster, Rng, type ListItem, type ListOwnerReference } from './generateCluster';
import { addManagedFields } from './managedFields';

export interface BenchCluster {
  /** CustomResourceDefinitions first (the API test server must serve a kind before it stores its objects). */
  items: ListItem[];
  /** "pods", "ingresses.networking.k8s.io", … → objects */
  countsByResource: Record<string, number>;
  ownerReferences: number;
}

type J = Record<string, unknown>;

const NOW = Date.parse('2025-06-01T12:00:00Z');
const DAY = 86_400_000;
const ts = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Plural resource names of the kinds made here and by the base generator (for the per-resource counts). */
const PLURALS: Record<string, string> = {
  ConfigMap: 'configmaps',
  Endpoints: 'endpoints',
  Namespace: 'namespaces',
  Node: 'nodes',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  PersistentVolume: 'persistentvolumes',
  Pod: 'pods',
  Secret: 'secrets',
  ServiceAccount: 'serviceaccounts',
  Service: 'services',
  LimitRange: 'limitranges',
  ResourceQuota: 'resourcequotas',
  CustomResourceDefinition: 'customresourcedefinitions',
  ControllerRevision: 'controllerrevisions',
  DaemonSet: 'daemonsets',
  Deployment: 'deployments',
  ReplicaSet: 'replicasets',
  StatefulSet: 'statefulsets',
  HorizontalPodAutoscaler: 'horizontalpodautoscalers',
  CronJob: 'cronjobs',
  Job: 'jobs',
  Lease: 'leases',
  EndpointSlice: 'endpointslices',
  PodDisruptionBudget: 'poddisruptionbudgets',
  ClusterRoleBinding: 'clusterrolebindings',
  ClusterRole: 'clusterroles',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  NetworkPolicy: 'networkpolicies',
  Ingress: 'ingresses',
  IngressClass: 'ingressclasses',
  CSINode: 'csinodes',
  CSIDriver: 'csidrivers',
  StorageClass: 'storageclasses',
  VolumeAttachment: 'volumeattachments',
  PriorityClass: 'priorityclasses',
  RuntimeClass: 'runtimeclasses',
  FlowSchema: 'flowschemas',
  PriorityLevelConfiguration: 'prioritylevelconfigurations',
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
  APIService: 'apiservices',
  CertificateSigningRequest: 'certificatesigningrequests',
  PostgresCluster: 'postgresclusters',
  Issuer: 'issuers',
  Certificate: 'certificates',
  CertificateRequest: 'certificaterequests',
  Order: 'orders',
  Challenge: 'challenges',
  ServiceMonitor: 'servicemonitors',
};

export function resourceOf(item: ListItem): string {
  const slash = item.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : item.apiVersion.slice(0, slash);
  const plural = PLURALS[item.kind] ?? `${item.kind.toLowerCase()}s`;
  return group ? `${plural}.${group}` : plural;
}

/** How many objects of each added kind, at 100,000 objects (scaled, at least 1 each). */
const PLAN = {
  Role: 1200,
  RoleBinding: 1200,
  NetworkPolicy: 1000,
  Ingress: 700,
  ServiceMonitor: 900,
  Certificate: 700,
  CertificateRequest: 700,
  Order: 300,
  Challenge: 150,
  Issuer: 20,
  LimitRange: 20,
  ResourceQuota: 20,
  CSINode: 250,
  VolumeAttachment: 1500,
  CertificateSigningRequest: 250,
  StorageClass: 3,
  CSIDriver: 2,
  PriorityClass: 4,
  RuntimeClass: 2,
  IngressClass: 2,
  FlowSchema: 13,
  PriorityLevelConfiguration: 8,
  MutatingWebhookConfiguration: 3,
  ValidatingWebhookConfiguration: 4,
  APIService: 25,
  CustomResourceDefinition: 6,
};

export function generateBenchCluster(opts: { objects?: number; seed?: number; managedFields?: boolean } = {}): BenchCluster {
  const objects = opts.objects ?? 100_000;
  const seed = opts.seed ?? 20250601;
  const scale = objects / 100_000;
  const plan: Record<string, number> = {};
  for (const [k, n] of Object.entries(PLAN)) plan[k] = k === 'CustomResourceDefinition' ? n : Math.max(1, Math.round(n * scale));
  // Fixed sizes that do not scale: the cluster's configuration.
  for (const k of [
    'StorageClass',
    'CSIDriver',
    'PriorityClass',
    'RuntimeClass',
    'IngressClass',
    'FlowSchema',
    'PriorityLevelConfiguration',
    'MutatingWebhookConfiguration',
    'ValidatingWebhookConfiguration',
    'APIService',
  ]) {
    plan[k] = PLAN[k as keyof typeof PLAN];
  }
  // Chain invariants: every CertificateRequest has a Certificate, every Order a request, every Challenge an Order.
  plan.Certificate = Math.min(plan.Certificate, plan.Ingress);
  plan.CertificateRequest = plan.Certificate;
  plan.Order = Math.min(plan.Order, plan.CertificateRequest);
  plan.Challenge = Math.min(plan.Challenge, plan.Order);
  const extras = Object.values(plan).reduce((a, b) => a + b, 0);
  const baseObjects = objects - extras;
  const big = Math.max(200, Math.min(20_000, Math.floor((baseObjects - 1000) / 5)));
  const base = generateCluster({ objects: baseObjects, bigNamespaceObjects: big, seed }).list.items;

  const g = new Extras(new Rng(seed ^ 0x5eed), base);
  const added = g.make(plan);
  if (base.length + added.length !== objects) throw new Error(`generator bug: ${base.length + added.length} objects instead of ${objects}`);
  const isCrd = (i: ListItem) => i.kind === 'CustomResourceDefinition';
  const items = [...base.filter(isCrd), ...added.filter(isCrd), ...base.filter((i) => !isCrd(i)), ...added.filter((i) => !isCrd(i))];
  if (opts.managedFields !== false) for (const i of items) addManagedFields(i);

  const countsByResource: Record<string, number> = {};
  const byUid = new Map<string, ListItem>();
  for (const i of items) {
    const r = resourceOf(i);
    countsByResource[r] = (countsByResource[r] ?? 0) + 1;
    if (byUid.has(i.metadata.uid)) throw new Error(`generator bug: uid ${i.metadata.uid} twice`);
    byUid.set(i.metadata.uid, i);
  }
  let ownerReferences = 0;
  for (const i of items) {
    for (const r of i.metadata.ownerReferences ?? []) {
      ownerReferences++;
      const o = byUid.get(r.uid);
      if (
        !o ||
        o.kind !== r.kind ||
        o.metadata.name !== r.name ||
        (o.metadata.namespace !== undefined && o.metadata.namespace !== i.metadata.namespace)
      ) {
        throw new Error(
          `generator bug: ${i.kind} ${i.metadata.namespace ?? ''}/${i.metadata.name}: owner ${r.kind} ${r.name} does not resolve`,
        );
      }
    }
  }
  return { items, countsByResource, ownerReferences };
}

// ---------------------------------------------------------------------------------------------------

interface App {
  ns: string;
  name: string;
  selector: Record<string, string>;
  serviceAccount: string;
  port: number;
  service?: string;
}

const ref = (owner: ListItem, controller = true): ListOwnerReference =>
  controller
    ? {
        apiVersion: owner.apiVersion,
        blockOwnerDeletion: true,
        controller: true,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
      }
    : { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid };

class Extras {
  private rv = 9_000_000;
  private readonly out: ListItem[] = [];
  private readonly apps: App[] = [];
  private readonly namespaces: string[];
  private readonly nodes: ListItem[];
  private readonly volumes: ListItem[];
  private readonly names = new Set<string>();

  constructor(
    private readonly rng: Rng,
    base: ListItem[],
  ) {
    this.namespaces = base
      .filter((i) => i.kind === 'Namespace')
      .map((i) => i.metadata.name)
      .filter((n) => n !== 'kube-node-lease' && n !== 'kube-public');
    this.nodes = base.filter((i) => i.kind === 'Node');
    this.volumes = base.filter((i) => i.kind === 'PersistentVolume');
    const services = new Map<string, ListItem>();
    for (const i of base) if (i.kind === 'Service') services.set(`${i.metadata.namespace}/${i.metadata.name}`, i);
    for (const i of base) {
      if (i.kind !== 'Deployment') continue;
      const spec = i.spec as {
        selector?: { matchLabels?: Record<string, string> };
        template?: { spec?: { serviceAccountName?: string; containers?: { ports?: { containerPort: number }[] }[] } };
      };
      const ns = i.metadata.namespace ?? 'default';
      const svc = services.get(`${ns}/${i.metadata.name}`);
      this.apps.push({
        ns,
        name: i.metadata.name,
        selector: spec.selector?.matchLabels ?? { app: i.metadata.name },
        serviceAccount: spec.template?.spec?.serviceAccountName ?? 'default',
        port: spec.template?.spec?.containers?.[0]?.ports?.[0]?.containerPort ?? 8080,
        ...(svc ? { service: svc.metadata.name } : {}),
      });
    }
    if (this.apps.length === 0 || this.nodes.length === 0) throw new Error('the base cluster has no Deployments or Nodes');
  }

  private meta(kind: string, ns: string | undefined, name: string, created: number, extra: J = {}): ListItem['metadata'] {
    let unique = name;
    for (let i = 2; this.names.has(`${kind}/${ns ?? ''}/${unique}`); i++) unique = `${name}-${i}`;
    this.names.add(`${kind}/${ns ?? ''}/${unique}`);
    this.rv += this.rng.int(1, 30);
    return {
      ...extra,
      creationTimestamp: ts(Math.min(created, NOW - 1000)),
      name: unique,
      ...(ns ? { namespace: ns } : {}),
      resourceVersion: String(this.rv),
      uid: this.rng.uuid(),
    } as ListItem['metadata'];
  }

  private emit(item: ListItem): ListItem {
    this.out.push(item);
    return item;
  }

  /** `n` items spread over the applications, in turn. */
  private appsFor(n: number): App[] {
    const step = Math.max(1, Math.floor(this.apps.length / n));
    return Array.from({ length: n }, (_, i) => this.apps[(i * step + Math.floor(i / this.apps.length)) % this.apps.length]);
  }

  private created(): number {
    return NOW - this.rng.int(1, 300) * DAY - this.rng.int(0, DAY);
  }

  private b64Blob(bytes: number): string {
    return Buffer.from(this.rng.chars(bytes, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')).toString('base64');
  }

  private pem(label: string, bytes: number): string {
    const body = this.rng.chars(bytes, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/').replace(/(.{64})/g, '$1\n');
    return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
  }

  make(plan: Record<string, number>): ListItem[] {
    const crds = this.customResourceDefinitions();
    if (crds !== plan.CustomResourceDefinition) throw new Error('generator bug: CRD count');
    this.config(plan);
    this.rbac(plan.Role, plan.RoleBinding);
    this.networkPolicies(plan.NetworkPolicy);
    this.perNamespace(plan.LimitRange, plan.ResourceQuota, plan.Issuer);
    this.ingressChain(plan.Ingress, plan.Certificate, plan.Order, plan.Challenge);
    this.serviceMonitors(plan.ServiceMonitor);
    // One CSINode per Node: what the plan asks beyond the Nodes there are goes to VolumeAttachments.
    const csiNodes = Math.min(plan.CSINode, this.nodes.length);
    this.nodeObjects(csiNodes, plan.CertificateSigningRequest);
    this.volumeAttachments(plan.VolumeAttachment + plan.CSINode - csiNodes);
    return this.out;
  }

  // -- CustomResourceDefinitions ---------------------------------------------------------------------

  private customResourceDefinitions(): number {
    const defs: [string, string, string, string[], 'Namespaced' | 'Cluster', string][] = [
      ['cert-manager.io', 'Certificate', 'certificates', ['cert', 'certs'], 'Namespaced', 'v1'],
      ['cert-manager.io', 'CertificateRequest', 'certificaterequests', ['cr', 'crs'], 'Namespaced', 'v1'],
      ['cert-manager.io', 'Issuer', 'issuers', [], 'Namespaced', 'v1'],
      ['acme.cert-manager.io', 'Order', 'orders', [], 'Namespaced', 'v1'],
      ['acme.cert-manager.io', 'Challenge', 'challenges', [], 'Namespaced', 'v1'],
      ['monitoring.coreos.com', 'ServiceMonitor', 'servicemonitors', ['smon'], 'Namespaced', 'v1'],
    ];
    for (const [group, kind, plural, shortNames, scope, version] of defs) {
      const names = {
        categories: group.includes('cert-manager') ? ['cert-manager'] : [],
        kind,
        listKind: `${kind}List`,
        plural,
        shortNames,
        singular: kind.toLowerCase(),
      };
      const prop = (description: string, type = 'string') => ({ description, type });
      const schema = {
        openAPIV3Schema: {
          description: `A ${kind} (${group}).`,
          type: 'object',
          properties: {
            apiVersion: prop('APIVersion defines the versioned schema of this representation of an object.'),
            kind: prop('Kind is a string value representing the REST resource this object represents.'),
            metadata: { type: 'object' },
            spec: {
              description: `Specification of the desired state of the ${kind}.`,
              type: 'object',
              properties: Object.fromEntries(
                [
                  'dnsNames',
                  'secretName',
                  'issuerRef',
                  'duration',
                  'renewBefore',
                  'request',
                  'selector',
                  'endpoints',
                  'url',
                  'authorizations',
                  'solver',
                  'token',
                  'key',
                ].map((f) => [
                  f,
                  {
                    description: `${f} of the ${kind}. ${this.rng.chars(120, 'abcdefghijklmnopqrstuvwxyz      ')}`,
                    type: f === 'dnsNames' ? 'array' : 'object',
                    'x-kubernetes-preserve-unknown-fields': true,
                  },
                ]),
              ),
            },
            status: { description: `Status of the ${kind}.`, type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
          required: ['spec'],
        },
      };
      const created = NOW - 250 * DAY;
      this.emit({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: this.meta('CustomResourceDefinition', undefined, `${plural}.${group}`, created, {
          annotations: group.includes('cert-manager')
            ? { 'cert-manager.io/inject-ca-from-secret': 'cert-manager/cert-manager-webhook-ca' }
            : { 'operator.prometheus.io/version': '0.76.0' },
          generation: 1,
          labels: group.includes('cert-manager')
            ? {
                app: 'cert-manager',
                'app.kubernetes.io/instance': 'cert-manager',
                'app.kubernetes.io/name': 'cert-manager',
                'app.kubernetes.io/version': 'v1.15.3',
              }
            : { 'app.kubernetes.io/name': 'prometheus-operator' },
        }),
        spec: {
          conversion: { strategy: 'None' },
          group,
          names,
          scope,
          versions: [
            {
              additionalPrinterColumns: [
                { jsonPath: '.status.conditions[?(@.type=="Ready")].status', name: 'Ready', type: 'string' },
                { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
              ],
              name: version,
              schema,
              served: true,
              storage: true,
              subresources: { status: {} },
            },
          ],
        },
        status: {
          acceptedNames: names,
          conditions: [
            {
              lastTransitionTime: ts(created),
              message: 'no conflicts found',
              reason: 'NoConflicts',
              status: 'True',
              type: 'NamesAccepted',
            },
            {
              lastTransitionTime: ts(created),
              message: 'the initial names have been accepted',
              reason: 'InitialNamesAccepted',
              status: 'True',
              type: 'Established',
            },
          ],
          storedVersions: [version],
        },
      });
    }
    return defs.length;
  }

  // -- cluster configuration -------------------------------------------------------------------------

  private config(plan: Record<string, number>): void {
    const created = NOW - 400 * DAY;
    const sc = ['gp3', 'gp2', 'io2'];
    for (let i = 0; i < plan.StorageClass; i++) {
      this.emit({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: this.meta(
          'StorageClass',
          undefined,
          sc[i] ?? `sc-${i}`,
          created,
          i === 0 ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {},
        ),
        allowVolumeExpansion: true,
        parameters: { encrypted: 'true', fsType: 'ext4', type: sc[i] ?? 'gp3' },
        provisioner: 'ebs.csi.aws.com',
        reclaimPolicy: 'Delete',
        volumeBindingMode: 'WaitForFirstConsumer',
      });
    }
    const drivers = ['ebs.csi.aws.com', 'efs.csi.aws.com'];
    for (let i = 0; i < plan.CSIDriver; i++) {
      this.emit({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: this.meta('CSIDriver', undefined, drivers[i] ?? `csi-${i}.acme.io`, created, {
          labels: { 'app.kubernetes.io/name': 'aws-ebs-csi-driver' },
        }),
        spec: {
          attachRequired: true,
          fsGroupPolicy: 'ReadWriteOnceWithFSType',
          podInfoOnMount: false,
          requiresRepublish: false,
          seLinuxMount: false,
          storageCapacity: false,
          volumeLifecycleModes: ['Persistent'],
        },
      });
    }
    const priorities: [string, number, string][] = [
      ['platform-critical', 100_000_000, 'Platform components that must run.'],
      ['high', 10_000, 'User-facing services.'],
      ['default', 0, 'Everything else.'],
      ['batch-low', -100, 'Preemptible batch work.'],
    ];
    for (let i = 0; i < plan.PriorityClass; i++) {
      const [name, value, description] = priorities[i] ?? [`priority-${i}`, i, 'A priority.'];
      this.emit({
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: this.meta('PriorityClass', undefined, name, created),
        description,
        globalDefault: name === 'default',
        preemptionPolicy: value < 0 ? 'Never' : 'PreemptLowerPriority',
        value,
      });
    }
    for (let i = 0; i < plan.RuntimeClass; i++) {
      this.emit({
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: this.meta('RuntimeClass', undefined, ['gvisor', 'kata'][i] ?? `rc-${i}`, created),
        handler: ['runsc', 'kata-qemu'][i] ?? 'runc',
        overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
        scheduling: { nodeSelector: { 'sandbox.acme.io/runtime': 'true' } },
      });
    }
    for (let i = 0; i < plan.IngressClass; i++) {
      const name = ['nginx', 'alb'][i] ?? `ingress-${i}`;
      this.emit({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        metadata: this.meta('IngressClass', undefined, name, created, {
          annotations: i === 0 ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : {},
          labels: { 'app.kubernetes.io/name': `ingress-${name}` },
        }),
        spec: { controller: i === 0 ? 'k8s.io/ingress-nginx' : 'ingress.k8s.aws/alb' },
      });
    }
    const flow = [
      'exempt',
      'probes',
      'system-leader-election',
      'endpoint-controller',
      'workload-leader-election',
      'system-node-high',
      'system-nodes',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-system-service-accounts',
      'service-accounts',
      'global-default',
      'catch-all',
    ];
    const levels = ['exempt', 'system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default', 'catch-all'];
    for (let i = 0; i < plan.FlowSchema; i++) {
      const name = flow[i] ?? `flow-${i}`;
      this.emit({
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'FlowSchema',
        metadata: this.meta('FlowSchema', undefined, name, created, {
          annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' },
          generation: 1,
        }),
        spec: {
          distinguisherMethod: { type: 'ByUser' },
          matchingPrecedence: 100 + i * 100,
          priorityLevelConfiguration: { name: levels[i % levels.length] },
          rules: [
            {
              nonResourceRules: [{ nonResourceURLs: ['*'], verbs: ['*'] }],
              resourceRules: [{ apiGroups: ['*'], clusterScope: true, namespaces: ['*'], resources: ['*'], verbs: ['*'] }],
              subjects: [{ group: { name: 'system:authenticated' }, kind: 'Group' }],
            },
          ],
        },
        status: {
          conditions: [
            {
              lastTransitionTime: ts(created),
              message: `This FlowSchema references the PriorityLevelConfiguration object named "${levels[i % levels.length]}" and it exists`,
              reason: 'Found',
              status: 'False',
              type: 'Dangling',
            },
          ],
        },
      });
    }
    for (let i = 0; i < plan.PriorityLevelConfiguration; i++) {
      const name = levels[i] ?? `level-${i}`;
      this.emit({
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'PriorityLevelConfiguration',
        metadata: this.meta('PriorityLevelConfiguration', undefined, name, created, {
          annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' },
          generation: 1,
        }),
        spec:
          name === 'exempt'
            ? { exempt: { lendablePercent: 0, nominalConcurrencyShares: 0 }, type: 'Exempt' }
            : {
                limited: {
                  lendablePercent: 50,
                  limitResponse: { queuing: { handSize: 6, queueLengthLimit: 50, queues: 64 }, type: 'Queue' },
                  nominalConcurrencyShares: 30 + i * 10,
                },
                type: 'Limited',
              },
      });
    }
    const webhook = (name: string, svc: string, ns: string) => ({
      admissionReviewVersions: ['v1'],
      clientConfig: {
        caBundle: Buffer.from(this.pem('CERTIFICATE', 900)).toString('base64'),
        service: { name: svc, namespace: ns, path: '/validate', port: 443 },
      },
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      name,
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] },
      objectSelector: {},
      rules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['*/*'], scope: '*' }],
      sideEffects: 'None',
      timeoutSeconds: 10,
    });
    const hooks = [
      ['cert-manager-webhook', 'cert-manager'],
      ['aws-load-balancer-webhook', 'kube-system'],
      ['gatekeeper-webhook', 'gatekeeper-system'],
      ['pod-identity-webhook', 'kube-system'],
    ];
    for (let i = 0; i < plan.MutatingWebhookConfiguration; i++) {
      const [name, ns] = hooks[i % hooks.length];
      this.emit({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: this.meta('MutatingWebhookConfiguration', undefined, name, created, { generation: 2 }),
        webhooks: [webhook(`mutate.${name}.acme.io`, name, ns)],
      });
    }
    for (let i = 0; i < plan.ValidatingWebhookConfiguration; i++) {
      const [name, ns] = hooks[i % hooks.length];
      this.emit({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: this.meta('ValidatingWebhookConfiguration', undefined, name, created, { generation: 2 }),
        webhooks: [webhook(`validate.${name}.acme.io`, name, ns)],
      });
    }
    const groups = [
      '',
      'apps',
      'batch',
      'autoscaling',
      'policy',
      'networking.k8s.io',
      'storage.k8s.io',
      'rbac.authorization.k8s.io',
      'coordination.k8s.io',
      'discovery.k8s.io',
      'node.k8s.io',
      'scheduling.k8s.io',
      'certificates.k8s.io',
      'apiextensions.k8s.io',
      'admissionregistration.k8s.io',
      'flowcontrol.apiserver.k8s.io',
      'apiregistration.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'events.k8s.io',
      'cert-manager.io',
      'acme.cert-manager.io',
      'monitoring.coreos.com',
      'db.acme.io',
      'metrics.k8s.io',
    ];
    for (let i = 0; i < plan.APIService; i++) {
      const g = groups[i % groups.length];
      const aggregated = g === 'metrics.k8s.io';
      this.emit({
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: this.meta('APIService', undefined, g ? `v1.${g}` : 'v1.', created, {
          labels: aggregated ? { 'k8s-app': 'metrics-server' } : { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' },
        }),
        spec: aggregated
          ? {
              group: g,
              groupPriorityMinimum: 100,
              insecureSkipTLSVerify: true,
              service: { name: 'metrics-server', namespace: 'kube-system', port: 443 },
              version: 'v1beta1',
              versionPriority: 100,
            }
          : { ...(g ? { group: g } : {}), groupPriorityMinimum: 17_000 - i * 50, version: 'v1', versionPriority: 15 },
        status: {
          conditions: [
            {
              lastTransitionTime: ts(created),
              message: aggregated ? 'all checks passed' : 'Local APIServices are always available',
              reason: aggregated ? 'Passed' : 'Local',
              status: 'True',
              type: 'Available',
            },
          ],
        },
      });
    }
  }

  // -- per application -------------------------------------------------------------------------------

  private rbac(roles: number, bindings: number): void {
    const apps = this.appsFor(Math.max(roles, bindings));
    for (let i = 0; i < Math.max(roles, bindings); i++) {
      const app = apps[i];
      const created = this.created();
      const labels = { ...app.selector, 'app.kubernetes.io/managed-by': 'Helm' };
      const name = `${app.name}-reader`;
      if (i < roles) {
        this.emit({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: this.meta('Role', app.ns, name, created, {
            annotations: { 'meta.helm.sh/release-name': app.name, 'meta.helm.sh/release-namespace': app.ns },
            labels,
          }),
          rules: [
            { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list', 'watch'] },
            { apiGroups: [''], resources: ['pods', 'endpoints', 'services'], verbs: ['get', 'list', 'watch'] },
            {
              apiGroups: ['coordination.k8s.io'],
              resourceNames: [`${app.name}-leader`],
              resources: ['leases'],
              verbs: ['get', 'update', 'patch'],
            },
          ],
        });
      }
      if (i < bindings) {
        this.emit({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: this.meta('RoleBinding', app.ns, name, created, {
            annotations: { 'meta.helm.sh/release-name': app.name, 'meta.helm.sh/release-namespace': app.ns },
            labels,
          }),
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
          subjects: [{ kind: 'ServiceAccount', name: app.serviceAccount, namespace: app.ns }],
        });
      }
    }
  }

  private networkPolicies(n: number): void {
    for (const app of this.appsFor(n)) {
      this.emit({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: this.meta('NetworkPolicy', app.ns, `${app.name}-ingress`, this.created(), { generation: 1, labels: app.selector }),
        spec: {
          egress: [
            {
              ports: [
                { port: 53, protocol: 'UDP' },
                { port: 53, protocol: 'TCP' },
              ],
              to: [
                {
                  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
                  podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
                },
              ],
            },
            { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } }] },
          ],
          ingress: [
            {
              from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }, { podSelector: {} }],
              ports: [{ port: app.port, protocol: 'TCP' }],
            },
            {
              from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
              ports: [{ port: 9102, protocol: 'TCP' }],
            },
          ],
          podSelector: { matchLabels: app.selector },
          policyTypes: ['Ingress', 'Egress'],
        },
      });
    }
  }

  private perNamespace(limitRanges: number, quotas: number, issuers: number): void {
    const nss = (n: number) => Array.from({ length: n }, (_, i) => this.namespaces[i % this.namespaces.length]);
    for (const ns of nss(limitRanges)) {
      this.emit({
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: this.meta('LimitRange', ns, 'defaults', this.created()),
        spec: {
          limits: [
            {
              default: { cpu: '500m', memory: '512Mi' },
              defaultRequest: { cpu: '100m', memory: '128Mi' },
              max: { cpu: '8', memory: '32Gi' },
              type: 'Container',
            },
          ],
        },
      });
    }
    for (const ns of nss(quotas)) {
      const hard = {
        'limits.memory': '400Gi',
        pods: '2k',
        'requests.cpu': '200',
        'requests.memory': '300Gi',
        'requests.storage': '20Ti',
        services: '500',
      };
      const used = {
        'limits.memory': `${this.rng.int(10, 390)}Gi`,
        pods: String(this.rng.int(10, 1900)),
        'requests.cpu': `${this.rng.int(5, 190)}`,
        'requests.memory': `${this.rng.int(10, 290)}Gi`,
        'requests.storage': `${this.rng.int(1, 19)}Ti`,
        services: String(this.rng.int(5, 450)),
      };
      this.emit({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: this.meta('ResourceQuota', ns, 'compute', this.created()),
        spec: { hard },
        status: { hard, used },
      });
    }
    for (const ns of nss(issuers)) {
      const created = this.created();
      this.emit({
        apiVersion: 'cert-manager.io/v1',
        kind: 'Issuer',
        metadata: this.meta('Issuer', ns, 'letsencrypt', created, { generation: 1 }),
        spec: {
          acme: {
            email: 'platform@acme.io',
            privateKeySecretRef: { name: 'letsencrypt-account-key' },
            server: 'https://acme-v02.api.letsencrypt.org/directory',
            solvers: [{ http01: { ingress: { ingressClassName: 'nginx' } } }],
          },
        },
        status: {
          acme: {
            lastPrivateKeyHash: this.b64Blob(32),
            lastRegisteredEmail: 'platform@acme.io',
            uri: `https://acme-v02.api.letsencrypt.org/acme/acct/${this.rng.int(1e8, 9e8)}`,
          },
          conditions: [
            {
              lastTransitionTime: ts(created + 60_000),
              message: 'The ACME account was registered with the ACME server',
              observedGeneration: 1,
              reason: 'ACMEAccountRegistered',
              status: 'True',
              type: 'Ready',
            },
          ],
        },
      });
    }
  }

  /** Ingress → Certificate (ingress-shim) → CertificateRequest → Order → Challenge (ACME http01), each owned by the one before. */
  private ingressChain(ingresses: number, certificates: number, orders: number, challenges: number): void {
    const withService = this.apps.filter((a) => a.service);
    const pool = withService.length ? withService : this.apps;
    for (let i = 0; i < ingresses; i++) {
      const app = pool[(i * 7) % pool.length];
      const host = `${app.name}.${app.ns}.acme.io`;
      const created = this.created();
      const tls = `${app.name}-tls`;
      const ing = this.emit({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: this.meta('Ingress', app.ns, app.name, created, {
          annotations: {
            'cert-manager.io/issuer': 'letsencrypt',
            'nginx.ingress.kubernetes.io/proxy-body-size': '16m',
            'nginx.ingress.kubernetes.io/ssl-redirect': 'true',
          },
          generation: 1,
          labels: app.selector,
        }),
        spec: {
          ingressClassName: 'nginx',
          rules: [
            {
              host,
              http: {
                paths: [{ backend: { service: { name: app.service ?? app.name, port: { number: 80 } } }, path: '/', pathType: 'Prefix' }],
              },
            },
          ],
          tls: [{ hosts: [host], secretName: tls }],
        },
        status: { loadBalancer: { ingress: [{ hostname: `a${this.rng.hex(31)}-${this.rng.int(1e8, 9e8)}.eu-west-1.elb.amazonaws.com` }] } },
      });
      if (i >= certificates) continue;
      const ready = i >= orders;
      const cert = this.emit({
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: this.meta('Certificate', app.ns, tls, created + 1000, {
          generation: 1,
          labels: app.selector,
          ownerReferences: [ref(ing)],
        }),
        spec: {
          dnsNames: [host],
          issuerRef: { group: 'cert-manager.io', kind: 'Issuer', name: 'letsencrypt' },
          secretName: tls,
          usages: ['digital signature', 'key encipherment'],
        },
        status: {
          conditions: [
            {
              lastTransitionTime: ts(created + 90_000),
              message: ready ? 'Certificate is up to date and has not expired' : 'Issuing certificate as Secret does not exist',
              observedGeneration: 1,
              reason: ready ? 'Ready' : 'DoesNotExist',
              status: ready ? 'True' : 'False',
              type: 'Ready',
            },
          ],
          ...(ready
            ? { notAfter: ts(NOW + 60 * DAY), notBefore: ts(NOW - 30 * DAY), renewalTime: ts(NOW + 30 * DAY), revision: this.rng.int(1, 9) }
            : { nextPrivateKeySecretName: `${tls}-${this.rng.chars(5, 'bcdfghjklmnpqrstvwxz2456789')}` }),
        },
      });
      const req = this.emit({
        apiVersion: 'cert-manager.io/v1',
        kind: 'CertificateRequest',
        metadata: this.meta('CertificateRequest', app.ns, `${tls}-1`, created + 2000, {
          annotations: {
            'cert-manager.io/certificate-name': tls,
            'cert-manager.io/certificate-revision': '1',
            'cert-manager.io/private-key-secret-name': `${tls}-${this.rng.chars(5, 'bcdfghjklmnpqrstvwxz2456789')}`,
          },
          generation: 1,
          labels: app.selector,
          ownerReferences: [ref(cert)],
        }),
        spec: {
          extra: {
            'authentication.kubernetes.io/pod-name': [
              `cert-manager-${this.rng.hex(10)}-${this.rng.chars(5, 'bcdfghjklmnpqrstvwxz2456789')}`,
            ],
          },
          groups: ['system:serviceaccounts', 'system:serviceaccounts:cert-manager', 'system:authenticated'],
          issuerRef: { group: 'cert-manager.io', kind: 'Issuer', name: 'letsencrypt' },
          request: Buffer.from(this.pem('CERTIFICATE REQUEST', 1000)).toString('base64'),
          uid: this.rng.uuid(),
          usages: ['digital signature', 'key encipherment'],
          username: 'system:serviceaccount:cert-manager:cert-manager',
        },
        status: {
          ...(ready ? { certificate: Buffer.from(this.pem('CERTIFICATE', 1700) + this.pem('CERTIFICATE', 1500)).toString('base64') } : {}),
          conditions: [
            {
              lastTransitionTime: ts(created + 2000),
              message: 'Certificate request has been approved by cert-manager.io',
              reason: 'cert-manager.io',
              status: 'True',
              type: 'Approved',
            },
            {
              lastTransitionTime: ts(created + 90_000),
              message: ready ? 'Certificate fetched from issuer successfully' : 'Waiting on certificate issuance from order',
              reason: ready ? 'Issued' : 'Pending',
              status: ready ? 'True' : 'False',
              type: 'Ready',
            },
          ],
        },
      });
      if (i >= orders) continue;
      const order = this.emit({
        apiVersion: 'acme.cert-manager.io/v1',
        kind: 'Order',
        metadata: this.meta('Order', app.ns, `${tls}-1-${this.rng.int(1e9, 4e9)}`, created + 3000, {
          annotations: {
            'cert-manager.io/certificate-name': tls,
            'cert-manager.io/certificate-revision': '1',
            'cert-manager.io/private-key-secret-name': `${tls}-key`,
          },
          generation: 1,
          labels: app.selector,
          ownerReferences: [ref(req)],
        }),
        spec: {
          commonName: host,
          dnsNames: [host],
          issuerRef: { group: 'cert-manager.io', kind: 'Issuer', name: 'letsencrypt' },
          request: Buffer.from(this.pem('CERTIFICATE REQUEST', 1000)).toString('base64'),
        },
        status: {
          authorizations: [
            {
              challenges: [
                {
                  token: this.b64Blob(32),
                  type: 'http-01',
                  url: `https://acme-v02.api.letsencrypt.org/acme/chall-v3/${this.rng.int(1e10, 9e10)}/${this.rng.hex(6)}`,
                },
              ],
              identifier: host,
              initialState: 'pending',
              url: `https://acme-v02.api.letsencrypt.org/acme/authz-v3/${this.rng.int(1e10, 9e10)}`,
              wildcard: false,
            },
          ],
          finalizeURL: `https://acme-v02.api.letsencrypt.org/acme/finalize/${this.rng.int(1e8, 9e8)}/${this.rng.int(1e10, 9e10)}`,
          state: 'pending',
          url: `https://acme-v02.api.letsencrypt.org/acme/order/${this.rng.int(1e8, 9e8)}/${this.rng.int(1e10, 9e10)}`,
        },
      });
      if (i >= challenges) continue;
      this.emit({
        apiVersion: 'acme.cert-manager.io/v1',
        kind: 'Challenge',
        metadata: this.meta('Challenge', app.ns, `${order.metadata.name}-${this.rng.int(1e9, 4e9)}`, created + 4000, {
          finalizers: ['finalizer.acme.cert-manager.io'],
          generation: 1,
          labels: app.selector,
          ownerReferences: [ref(order)],
        }),
        spec: {
          authorizationURL: `https://acme-v02.api.letsencrypt.org/acme/authz-v3/${this.rng.int(1e10, 9e10)}`,
          dnsName: host,
          issuerRef: { group: 'cert-manager.io', kind: 'Issuer', name: 'letsencrypt' },
          key: `${this.b64Blob(32)}.${this.b64Blob(32)}`,
          solver: { http01: { ingress: { ingressClassName: 'nginx' } } },
          token: this.b64Blob(32),
          type: 'HTTP-01',
          url: `https://acme-v02.api.letsencrypt.org/acme/chall-v3/${this.rng.int(1e10, 9e10)}/${this.rng.hex(6)}`,
          wildcard: false,
        },
        status: {
          presented: true,
          processing: true,
          reason: `Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'`,
          state: 'pending',
        },
      });
    }
  }

  private serviceMonitors(n: number): void {
    for (const app of this.appsFor(n)) {
      this.emit({
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'ServiceMonitor',
        metadata: this.meta('ServiceMonitor', app.ns, app.name, this.created(), {
          generation: 1,
          labels: { ...app.selector, release: 'kube-prometheus-stack' },
        }),
        spec: {
          endpoints: [
            {
              honorLabels: true,
              interval: '30s',
              metricRelabelings: [{ action: 'drop', regex: 'go_gc_.*', sourceLabels: ['__name__'] }],
              path: '/metrics',
              port: 'metrics',
              scrapeTimeout: '10s',
            },
          ],
          namespaceSelector: { matchNames: [app.ns] },
          selector: { matchLabels: app.selector },
        },
      });
    }
  }

  // -- per node and per volume ----------------------------------------------------------------------

  private nodeObjects(csiNodes: number, csrs: number): void {
    for (let i = 0; i < csiNodes; i++) {
      const node = this.nodes[i];
      const name = node.metadata.name;
      this.emit({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        // The kubelet's reference to its Node: not a controller.
        metadata: this.meta('CSINode', undefined, name, Date.parse(node.metadata.creationTimestamp) + 30_000, {
          annotations: {
            'storage.alpha.kubernetes.io/migrated-plugins':
              'kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/portworx-volume,kubernetes.io/vsphere-volume',
          },
          ownerReferences: [ref(node, false)],
        }),
        spec: {
          drivers: [
            {
              allocatable: { count: 25 },
              name: 'ebs.csi.aws.com',
              nodeID: `i-0${this.rng.hex(16)}`,
              topologyKeys: ['kubernetes.io/os', 'topology.ebs.csi.aws.com/zone', 'topology.kubernetes.io/zone'],
            },
          ],
        },
      });
    }
    for (let i = 0; i < csrs; i++) {
      const node = this.nodes[i % this.nodes.length];
      const created = NOW - this.rng.int(1, 20) * DAY;
      this.emit({
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: this.meta('CertificateSigningRequest', undefined, `csr-${this.rng.chars(5, 'bcdfghjklmnpqrstvwxz2456789')}`, created),
        spec: {
          extra: {},
          groups: ['system:nodes', 'system:authenticated'],
          request: Buffer.from(this.pem('CERTIFICATE REQUEST', 700)).toString('base64'),
          signerName: 'kubernetes.io/kubelet-serving',
          uid: this.rng.uuid(),
          usages: ['digital signature', 'server auth'],
          username: `system:node:${node.metadata.name}`,
        },
        status: {
          certificate: Buffer.from(this.pem('CERTIFICATE', 900)).toString('base64'),
          conditions: [
            {
              lastTransitionTime: ts(created + 2000),
              lastUpdateTime: ts(created + 2000),
              message: 'Auto approving self kubelet server certificate after SubjectAccessReview.',
              reason: 'AutoApproved',
              status: 'True',
              type: 'Approved',
            },
          ],
        },
      });
    }
  }

  private volumeAttachments(n: number): void {
    for (let i = 0; i < n; i++) {
      const pv = this.volumes.length ? this.volumes[i % this.volumes.length] : undefined;
      const node = this.nodes[(i * 13) % this.nodes.length];
      const pvName = pv && i < this.volumes.length ? pv.metadata.name : `pv-${i}`;
      this.emit({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttachment',
        metadata: this.meta('VolumeAttachment', undefined, `csi-${this.rng.hex(64)}`, this.created(), {
          annotations: { 'csi.alpha.kubernetes.io/node-id': `i-0${this.rng.hex(16)}` },
          finalizers: ['external-attacher/ebs-csi-aws-com'],
        }),
        spec: { attacher: 'ebs.csi.aws.com', nodeName: node.metadata.name, source: { persistentVolumeName: pvName } },
        status: { attached: true, attachmentMetadata: { devicePath: `/dev/xvda${String.fromCharCode(97 + (i % 26))}` } },
      });
    }
  }
}
