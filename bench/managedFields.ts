// metadata.managedFields as a real apiserver serves them, for the live-cluster benchmark's objects (bench/clusterObjects.ts).
// Since Kubernetes 1.18 every object a client creates or updates carries them (server-side apply's field ownership),
// and the apiserver sends them in every form, the metadata-only one included (PartialObjectMetadata has the whole
// ObjectMeta): a live cluster's objects are that much bigger than a `kubectl get -o json` dump shows (kubectl hides
// them since 1.21, as must-gather does). The corpus dumps taken through the API show them on nearly every object
// (../shared/corpus/cluster-dumps/sonobuoy: 208 of 213 Endpoints, 207 of 210 Services, Pods of 1.18+ clusters), with
// median sizes per kind that the benchmark's realism check prints beside the generated ones.
//
// Each entry's FieldsV1 is derived from the object itself, as structured-merge-diff records it: `f:<field>` per
// field set, `k:{...}` for the entries of keyed lists (containers by name, ports by port and protocol, conditions by
// type, ownerReferences by uid…), `v:<value>` for sets (finalizers), `{}` for atomic lists and scalars, and "." for
// the existence of nested maps and list entries. The managers are those that write each kind in a real cluster: the
// controller that made it (kube-controller-manager for owned objects) or the tool that applied it (kubectl, Helm),
// and the controller or kubelet that writes its status subresource.

import type { ListItem } from './generateCluster';

type J = Record<string, unknown>;

/** Keyed lists: which fields identify an entry (structured-merge-diff's listMapKeys for these fields). */
const LIST_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  volumes: ['name'],
  env: ['name'],
  imagePullSecrets: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  conditions: ['type'],
  ownerReferences: ['uid'],
  podIPs: ['ip'],
  hostIPs: ['ip'],
  resourceClaims: ['name'],
  topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable'],
};

/** Keyed lists whose key depends on where they are: container ports and Service ports. */
function keysOf(field: string, parent: string | undefined): string[] | undefined {
  if (field === 'ports') return parent === 'spec' ? ['port', 'protocol'] : ['containerPort', 'protocol'];
  return LIST_KEYS[field];
}

/** Lists that are sets of scalars (`v:` entries). */
const SETS = new Set(['finalizers']);

/** Structs whose existence nobody owns on its own (no "." in them). */
const NO_DOT = new Set(['metadata', 'spec', 'status', 'template', 'strategy', 'updateStrategy', 'jobTemplate']);

function fieldSet(value: J, field: string | undefined, depth: number): J {
  const out: J = {};
  if (depth > 0 && (field === undefined || !NO_DOT.has(field))) out['.'] = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[`f:${k}`] = fieldValue(v, k, field, depth + 1);
  }
  return out;
}

function fieldValue(v: unknown, field: string, parent: string | undefined, depth: number): J {
  if (Array.isArray(v)) {
    if (SETS.has(field) && v.every((x) => typeof x === 'string')) {
      const set: J = { '.': {} };
      for (const x of v) set[`v:${JSON.stringify(x)}`] = {};
      return set;
    }
    const keys = keysOf(field, parent);
    if (!keys || !v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) return {}; // atomic
    const list: J = { '.': {} };
    for (const entry of v as J[]) {
      const key: J = {};
      for (const k of keys) if (entry[k] !== undefined) key[k] = entry[k];
      if (Object.keys(key).length === 0) return {};
      list[`k:${JSON.stringify(key)}`] = fieldSet(entry, undefined, depth + 1);
    }
    return list;
  }
  if (v !== null && typeof v === 'object') return Object.keys(v).length ? fieldSet(v as J, field, depth) : {};
  return {};
}

/**
 * What the creator sent: the object without the fields that the apiserver, its admission plugins or another
 * controller filled in afterwards (they are not the creator's): a Pod's node (the scheduler's binding), priority,
 * default tolerations and service-account token volume (admission); a Service's allocated IPs and defaulted families.
 */
function sentByCreator(o: ListItem): ListItem {
  const spec = o.spec as J | undefined;
  if (!spec) return o;
  if (o.kind === 'Pod') {
    const { nodeName: _n, priority: _p, preemptionPolicy: _pp, tolerations: _t, ...rest } = spec;
    const token = (name: unknown) => typeof name === 'string' && name.startsWith('kube-api-access-');
    return {
      ...o,
      spec: {
        ...rest,
        containers: (rest.containers as J[] | undefined)?.map((c) => ({
          ...c,
          volumeMounts: (c.volumeMounts as J[] | undefined)?.filter((m) => m.mountPath !== '/var/run/secrets/kubernetes.io/serviceaccount'),
        })),
        volumes: (rest.volumes as J[] | undefined)?.filter((v) => !token(v.name)),
      },
    };
  }
  if (o.kind === 'Service') {
    const { clusterIP: _c, clusterIPs: _cs, internalTrafficPolicy: _i, ipFamilies: _f, ipFamilyPolicy: _fp, ...rest } = spec;
    return { ...o, spec: rest };
  }
  return o;
}

/** A status nobody writes (a ClusterIP Service's empty load balancer) has no entry. */
function statusWritten(o: ListItem): boolean {
  if (o.status === undefined) return false;
  if (o.kind === 'Service') return Object.keys(((o.status as J).loadBalancer as J | undefined) ?? {}).length > 0;
  return true;
}

/** The fields of `o` a manager sets: metadata's labels, annotations, ownerReferences, finalizers, generateName, then `fields`. */
function ownedFields(o: ListItem, fields: string[], metadataFields: string[]): J {
  const set: J = {};
  const m = o.metadata as unknown as J;
  const meta: J = {};
  for (const f of metadataFields) if (m[f] !== undefined) meta[f] = m[f];
  if (Object.keys(meta).length) set['f:metadata'] = fieldSet(meta, 'metadata', 0);
  for (const f of fields) {
    const v = (o as J)[f];
    if (v === undefined) continue;
    set[`f:${f}`] = v !== null && typeof v === 'object' && !Array.isArray(v) ? fieldSet(v as J, f, 0) : fieldValue(v, f, undefined, 1);
  }
  return set;
}

const CREATOR_METADATA = ['annotations', 'finalizers', 'generateName', 'labels', 'ownerReferences'];

/** Who writes a kind's object, and who its status, in the cluster bench/generateCluster.ts and clusterObjects.ts describe. */
function managers(o: ListItem): { creator: string; status?: string } {
  const controlled = (o.metadata.ownerReferences ?? []).some((r) => r.controller);
  const applied =
    o.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] !== undefined ? 'kubectl-client-side-apply' : 'helm';
  switch (o.kind) {
    case 'Pod':
      return { creator: controlled ? 'kube-controller-manager' : applied, status: 'kubelet' };
    case 'Node':
    case 'Lease':
    case 'CSINode':
      return { creator: 'kubelet', status: o.kind === 'Node' ? 'kubelet' : undefined };
    case 'Endpoints':
    case 'EndpointSlice':
    case 'ControllerRevision':
      return { creator: 'kube-controller-manager' };
    case 'PersistentVolume':
      return { creator: 'csi-provisioner', status: 'kube-controller-manager' };
    case 'PersistentVolumeClaim':
      return { creator: controlled ? 'kube-controller-manager' : applied, status: 'kube-controller-manager' };
    case 'VolumeAttachment':
      return { creator: 'kube-controller-manager', status: 'csi-attacher' };
    case 'CertificateSigningRequest':
      return { creator: 'kubelet', status: 'kube-controller-manager' };
    case 'Namespace':
    case 'ServiceAccount':
      return { creator: applied, status: o.kind === 'Namespace' ? 'kube-controller-manager' : undefined };
    default: {
      const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
      const operator = group.endsWith('cert-manager.io')
        ? 'cert-manager-controller'
        : group === 'db.acme.io'
          ? 'postgres-operator'
          : undefined;
      return { creator: controlled ? (operator ?? 'kube-controller-manager') : applied, status: operator ?? 'kube-controller-manager' };
    }
  }
}

/** Adds metadata.managedFields to `o` (in place): the creator's entry and, when it has a status, the status writer's. */
export function addManagedFields(o: ListItem): void {
  const { creator, status } = managers(o);
  const time = o.metadata.creationTimestamp;
  const body = Object.keys(o).filter((k) => k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && k !== 'status');
  const entries: J[] = [
    {
      apiVersion: o.apiVersion,
      fieldsType: 'FieldsV1',
      fieldsV1: ownedFields(sentByCreator(o), body, CREATOR_METADATA),
      manager: creator,
      operation: 'Update',
      time,
    },
  ];
  if (statusWritten(o) && status) {
    entries.push({
      apiVersion: o.apiVersion,
      fieldsType: 'FieldsV1',
      fieldsV1: ownedFields(o, ['status'], []),
      manager: status,
      operation: 'Update',
      subresource: 'status',
      time,
    });
  }
  (o.metadata as unknown as J).managedFields = entries;
}
