// How a kind is drawn: a short badge and a colour family. Pure.

export type KindCategory = 'workload' | 'network' | 'config' | 'storage' | 'cluster' | 'custom';

const KINDS: Record<string, [string, KindCategory]> = {
  Deployment: ['deploy', 'workload'],
  ReplicaSet: ['rs', 'workload'],
  StatefulSet: ['sts', 'workload'],
  DaemonSet: ['ds', 'workload'],
  ReplicationController: ['rc', 'workload'],
  Job: ['job', 'workload'],
  CronJob: ['cj', 'workload'],
  Pod: ['pod', 'workload'],
  ControllerRevision: ['rev', 'workload'],
  HorizontalPodAutoscaler: ['hpa', 'workload'],
  PodDisruptionBudget: ['pdb', 'workload'],
  Service: ['svc', 'network'],
  Endpoints: ['ep', 'network'],
  EndpointSlice: ['eps', 'network'],
  Ingress: ['ing', 'network'],
  NetworkPolicy: ['netpol', 'network'],
  ConfigMap: ['cm', 'config'],
  Secret: ['secret', 'config'],
  ServiceAccount: ['sa', 'config'],
  Role: ['role', 'config'],
  RoleBinding: ['rb', 'config'],
  ClusterRole: ['crole', 'config'],
  ClusterRoleBinding: ['crb', 'config'],
  Lease: ['lease', 'config'],
  Event: ['event', 'config'],
  PersistentVolumeClaim: ['pvc', 'storage'],
  PersistentVolume: ['pv', 'storage'],
  StorageClass: ['sc', 'storage'],
  VolumeAttachment: ['va', 'storage'],
  CSINode: ['csinode', 'storage'],
  Namespace: ['ns', 'cluster'],
  Node: ['node', 'cluster'],
  CustomResourceDefinition: ['crd', 'cluster'],
  APIService: ['apisvc', 'cluster'],
  MutatingWebhookConfiguration: ['mwh', 'cluster'],
  ValidatingWebhookConfiguration: ['vwh', 'cluster'],
};

const BUILTIN_BADGES = new Set(Object.values(KINDS).map(([badge]) => badge));

export function kindCategory(kind: string): KindCategory {
  return KINDS[kind]?.[1] ?? 'custom';
}

/** "deploy", "pvc"; a custom kind's capitals ("KafkaTopic" → "kt"), at most 6 characters (the badge's room). */
export function kindBadge(kind: string): string {
  const known = KINDS[kind]?.[0];
  if (known) return known;
  const capitals = kind.replace(/[^A-Z]/g, '').toLowerCase();
  // Capitals unless they read as a built-in kind's badge (RabbitmqCluster is not a ReplicationController).
  const short = capitals.length >= 2 && !BUILTIN_BADGES.has(capitals) ? capitals : kind.toLowerCase();
  return short.slice(0, 6) || '?';
}
