// Test helper: manifest builders. A scenario is written as the objects it holds (plain data, ObjectSpec), and
// manifests() turns them into the YAML text scenario() loads. Raw YAML text can be mixed in where the exact text
// is the point of a test (invalid fields, a missing uid, ...).
import { stringify } from 'yaml';
import type { OwnerReference } from '../../server/src/engine/model';

export type { OwnerReference };

/** One Kubernetes object as a test describes it. Fields left undefined are not written out. */
export interface ObjectSpec {
  apiVersion: string;
  kind: string;
  name: string;
  /** Omitted for cluster-scoped kinds. */
  namespace?: string;
  uid: string;
  labels?: Record<string, string>;
  resourceVersion?: string;
  creationTimestamp?: string;
  /** Set when the object is already Terminating in the input (see DELETING, TERMINATING). */
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  /** Written only when not empty. */
  finalizers?: string[];
  /** metadata.ownerReferences; written only when not empty. */
  owners?: OwnerReference[];
  /** Top-level fields besides apiVersion, kind and metadata (spec, status, data, ...). */
  extra?: Record<string, unknown>;
}

/** A foreign finalizer that no controller ever removes. */
export const HOLD = 'example.com/hold';

/** Already Terminating in the input, as an exported object shows it: metadata.deletionTimestamp only. */
export const DELETING = { deletionTimestamp: '2024-05-01T10:00:00Z' } as const;

/** Already Terminating and held by its finalizers alone: deletionTimestamp with deletionGracePeriodSeconds 0. */
export const TERMINATING = { deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } as const;

// ---------------------------------------------------------------------------------------------------------
// YAML

/** One object as a YAML document. */
export function objectYaml(o: ObjectSpec): string {
  const metadata: Record<string, unknown> = {
    name: o.name,
    namespace: o.namespace,
    uid: o.uid,
    labels: o.labels,
    resourceVersion: o.resourceVersion,
    creationTimestamp: o.creationTimestamp,
    deletionTimestamp: o.deletionTimestamp,
    deletionGracePeriodSeconds: o.deletionGracePeriodSeconds,
  };
  if (o.finalizers?.length) metadata.finalizers = o.finalizers;
  if (o.owners?.length) metadata.ownerReferences = o.owners;
  const object = { apiVersion: o.apiVersion, kind: o.kind, metadata, ...o.extra };
  const yaml = stringify(object);
  // Characters YAML refuses written raw (DEL, C1, a lone surrogate): then the document is JSON, which YAML reads, with
  // those as \u escapes, as a hostile name in a file would be.
  return /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]|\p{Cs}/u.test(yaml)
    ? JSON.stringify(object).replace(/[\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : yaml;
}

/** Objects and raw YAML documents joined into one multi-document YAML text, in the given order. */
export function manifests(...docs: (ObjectSpec | string)[]): string {
  return docs.map((d) => (typeof d === 'string' ? d : objectYaml(d)).trim()).join('\n---\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------
// Owner references

/** The reference a correct client would write for `o`, with `more` on top (or some coordinates changed). */
export const ref = (o: ObjectSpec, more: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.name,
  uid: o.uid,
  ...more,
});

/** Same, with blockOwnerDeletion: true. */
export const bref = (o: ObjectSpec, more: Partial<OwnerReference> = {}): OwnerReference => ref(o, { blockOwnerDeletion: true, ...more });

/** A controller reference (controller and blockOwnerDeletion true), as the built-in controllers write them. */
export const ctl = (o: ObjectSpec): OwnerReference => ref(o, { controller: true, blockOwnerDeletion: true });

// ---------------------------------------------------------------------------------------------------------
// Objects. The uid is `uid-<name>` unless `more` says otherwise.

export function obj(
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
  more: Partial<ObjectSpec> = {},
): ObjectSpec {
  return { apiVersion, kind, namespace, name, uid: `uid-${name}`, ...more };
}

export const cm = (name: string, namespace: string, more: Partial<ObjectSpec> = {}) => obj('v1', 'ConfigMap', namespace, name, more);
export const deploy = (name: string, namespace: string, more: Partial<ObjectSpec> = {}) =>
  obj('apps/v1', 'Deployment', namespace, name, more);
export const rs = (name: string, namespace: string, more: Partial<ObjectSpec> = {}) => obj('apps/v1', 'ReplicaSet', namespace, name, more);
export const clusterRole = (name: string, more: Partial<ObjectSpec> = {}) =>
  obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, name, more);

export interface NamespaceOptions extends Partial<ObjectSpec> {
  /** status.phase; no status when absent. */
  phase?: string;
}

/** A Namespace as the apiserver stores it (spec.finalizers [kubernetes]); its uid is `uid-ns-<name>`. */
export function namespace(name: string, { phase, ...more }: NamespaceOptions = {}): ObjectSpec {
  return obj('v1', 'Namespace', undefined, name, {
    uid: `uid-ns-${name}`,
    ...more,
    extra: { spec: { finalizers: ['kubernetes'] }, ...(phase ? { status: { phase } } : {}), ...more.extra },
  });
}

export interface Container {
  name: string;
  image: string;
}

export interface PodOptions extends Partial<ObjectSpec> {
  /** spec.nodeName: the Pod is scheduled, so its deletion is graceful. */
  nodeName?: string;
  /** status.phase; no status when absent. */
  phase?: string;
  /** spec.terminationGracePeriodSeconds. */
  grace?: number;
  restartPolicy?: string;
  /** One pause container unless given. */
  containers?: Container[];
  /** The PersistentVolumeClaims the Pod mounts, each as a volume of that name (spec.volumes). */
  claims?: { volume: string; claimName: string }[];
}

export function pod(name: string, namespace: string, options: PodOptions = {}): ObjectSpec {
  const {
    nodeName,
    phase,
    grace,
    restartPolicy,
    containers = [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }],
    claims,
    ...more
  } = options;
  const volumes = claims?.map((c) => ({ name: c.volume, persistentVolumeClaim: { claimName: c.claimName } }));
  return obj('v1', 'Pod', namespace, name, {
    ...more,
    extra: {
      spec: { nodeName, restartPolicy, terminationGracePeriodSeconds: grace, containers, volumes },
      ...(phase ? { status: { phase } } : {}),
      ...more.extra,
    },
  });
}

/** Pod options for a busybox Pod: Running on `nodeName`, or Pending when it is not scheduled. */
export const busybox = (nodeName?: string): PodOptions => ({
  nodeName,
  phase: nodeName ? 'Running' : 'Pending',
  containers: [{ name: 'app', image: 'busybox:1.36' }],
});

/** spec of a workload (Deployment, ReplicaSet, StatefulSet, ...) whose Pods carry `labels` and run `containers`. */
export function workloadSpec(
  labels: Record<string, string>,
  containers: Container[],
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...more, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers } } };
}

export interface PersistentVolumeOptions extends Partial<ObjectSpec> {
  claimRef?: { namespace: string; name: string; uid: string };
  reclaimPolicy?: string;
  phase?: string;
}

/** A 1Gi hostPath PersistentVolume, bound to `claimRef` when given. */
export function pv(name: string, { claimRef, reclaimPolicy, phase, ...more }: PersistentVolumeOptions = {}): ObjectSpec {
  return obj('v1', 'PersistentVolume', undefined, name, {
    ...more,
    extra: {
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: reclaimPolicy,
        claimRef: claimRef && { kind: 'PersistentVolumeClaim', ...claimRef },
        hostPath: { path: '/data' },
      },
      ...(phase ? { status: { phase } } : {}),
      ...more.extra,
    },
  });
}

export interface ClaimOptions extends Partial<ObjectSpec> {
  volumeName?: string;
}

/** A Bound 1Gi ReadWriteOnce PersistentVolumeClaim carrying kubernetes.io/pvc-protection. */
export function pvc(name: string, namespace: string, { volumeName, ...more }: ClaimOptions = {}): ObjectSpec {
  return obj('v1', 'PersistentVolumeClaim', namespace, name, {
    finalizers: ['kubernetes.io/pvc-protection'],
    ...more,
    extra: {
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName },
      status: { phase: 'Bound' },
      ...more.extra,
    },
  });
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
}

/** A CustomResourceDefinition named `<plural>.<group>`, uid `uid-crd-<plural>` unless `more` says otherwise. */
export function crd(
  group: string,
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  versions: CrdVersion[],
  { shortNames, ...more }: Partial<ObjectSpec> & { shortNames?: string[] } = {},
): ObjectSpec {
  return obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, `${plural}.${group}`, {
    uid: `uid-crd-${plural}`,
    ...more,
    extra: {
      spec: { group, scope, names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List`, shortNames }, versions },
      ...more.extra,
    },
  });
}
