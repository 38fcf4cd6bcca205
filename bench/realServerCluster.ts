// The cluster of the real-server bench (bench/realServerBench.ts): the live-cluster bench's generated cluster
// (bench/clusterObjects.ts, without its imitation managedFields: the real apiserver writes its own on create), made
// into objects a real kube-apiserver accepts. The generator writes a `kubectl get -o json` dump of a running cluster,
// and the apiserver validates and allocates what a dump only records:
//   - objects the apiserver makes itself at start (its Namespaces, FlowSchemas, PriorityLevelConfigurations,
//     APIServices) are not written: the server's own stand in for them;
//   - a Service's cluster IP is allocated by the server (the generator's range is not the server's);
//   - a CRD's schema must be structural and match its objects: an array's items get a schema where the generator
//     gives none, and a field that keeps unknown fields without properties takes any type (the generator types as
//     objects fields its objects hold as strings);
//   - a container's resource request may not exceed its limit (the generator draws them apart);
//   - a CertificateSigningRequest's request must be a PEM CSR, and its certificate a PEM certificate: one pair made
//     with openssl for a kubelet serves them all (its Approved condition goes through /approval, as kubectl's does);
//   - LimitRanges and ResourceQuotas are written after the rest, as their admission would change or refuse the Pods
//     written after them (a default CPU limit below a container's request makes the Pod invalid), and webhook
//     configurations last, as their webhooks (no server behind them) would refuse every later write.
// Creation drops `status` (seedCluster writes as `kubectl apply` does); writeStatuses then writes each object's
// generated status through its /status subresource, as the kubelet and the controllers of a running cluster would
// (none runs in the bench's control plane, so nothing overwrites it).

import {
  discoverResources,
  inParallel,
  keyOf,
  resourcePath,
  type ClusterWriter,
  type Manifest,
  type SeedFailure,
} from '../testkit/cluster/seedCluster';
import type { ListItem } from './generateCluster';

type J = Record<string, unknown>;

/** Made by kube-apiserver itself at start; the generated copies would be refused (409, or 422 for the mandatory ones). */
const SERVER_MADE_KINDS = new Set(['FlowSchema', 'PriorityLevelConfiguration', 'APIService']);
const SERVER_MADE_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
/** Kinds whose status the apiserver itself writes (the CRD's Established condition and accepted names). */
const SERVER_STATUS_KINDS = new Set(['CustomResourceDefinition']);
/** Kinds written in a later batch than the rest: 1 after everything else, 2 last. */
const LATER: Record<string, number> = {
  LimitRange: 1,
  ResourceQuota: 1,
  MutatingWebhookConfiguration: 2,
  ValidatingWebhookConfiguration: 2,
};

/** `openssl req -new -newkey ec … -subj "/O=system:nodes/CN=system:node:ip-10-0-0-10…"`, base64 (what spec.request holds). */
const CSR_PEM_BASE64 =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQkR6Q0J0d0lCQURCVk1SVXdFd1lEVlFRS0RBeHplWE4wWlcwNmJtOWtaWE14UERBNkJnTlZCQU1NTTNONQpjM1JsYlRwdWIyUmxPbWx3TFRFd0xUQXRNQzB4TUM1bGRTMTNaWE4wTFRFdVkyOXRjSFYwWlM1cGJuUmxjbTVoCmJEQlpNQk1HQnlxR1NNNDlBZ0VHQ0NxR1NNNDlBd0VIQTBJQUJFallzblVFNDRGdzFZSXM1ZWdqc2FDY1J0K3IKU2xaZVpKM3lrQWVpVkJVb3J1R2hMT3NJWjd1bVovN295MG9hRmtpYjhsMXphQ1ZmRjREdjFwVVlseUtnQURBSwpCZ2dxaGtqT1BRUURBZ05IQURCRUFpQTlqKytIdzR2NDJnK2FRNzcxV2o5QjQwY2hhdnAwNVhTUHlsSFd0NDdyCnlnSWdRN1QzeXJ2bjBFNzVvVFpzVG9sNlcrZitFKzI5a0x1WDI4NGpoRWttTUYwPQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K';

/** The same CSR signed by a throw-away CA (openssl x509 -req …, serverAuth, the node's DNS name and IP): status.certificate. */
const CERT_PEM_BASE64 =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUNFRENDQWJXZ0F3SUJBZ0lVTWlIbnNCcWh0elY0N3FPT1FZME9Vd0M4cVdnd0NnWUlLb1pJemowRUF3SXcKRlRFVE1CRUdBMVVFQXd3S2EzVmlaWEp1WlhSbGN6QWVGdzB5TmpFeE1qWXdNekV4TVRKYUZ3MHlOekV4TWpZdwpNekV4TVRKYU1GVXhGVEFUQmdOVkJBb01ESE41YzNSbGJUcHViMlJsY3pFOE1Eb0dBMVVFQXd3emMzbHpkR1Z0Ck9tNXZaR1U2YVhBdE1UQXRNQzB3TFRFd0xtVjFMWGRsYzNRdE1TNWpiMjF3ZFhSbExtbHVkR1Z5Ym1Gc01Ga3cKRXdZSEtvWkl6ajBDQVFZSUtvWkl6ajBEQVFjRFFnQUVOdXF1emEvTG1hRUcwcGxGeGRJTnV5UDRmMWwvNENpTAoxb3JyMEh1TmNMYWlGdkJ2ZEdyMkJSejR4ZVVMVXByU08waXZtUSt4MUxCTmFkei9Yc1pKSzZPQm9qQ0JuekE0CkJnTlZIUkVFTVRBdmdpZHBjQzB4TUMwd0xUQXRNVEF1WlhVdGQyVnpkQzB4TG1OdmJYQjFkR1V1YVc1MFpYSnUKWVd5SEJBb0FBQW93RGdZRFZSMFBBUUgvQkFRREFnZUFNQk1HQTFVZEpRUU1NQW9HQ0NzR0FRVUZCd01CTUIwRwpBMVVkRGdRV0JCU3R1bFhJYkd0YXJ6SDVKUGZwMmZEWHdWelFtekFmQmdOVkhTTUVHREFXZ0JUVnBHUEd3c29uCkVzQnJmV2ZqWDI0YnB5TzFoakFLQmdncWhrak9QUVFEQWdOSkFEQkdBaUVBb1pqK0tLQ3U1cXdRbUZNUWxmdm8KeitxVTZGSmUrUXFKeG9mOUtmZXFqTGtDSVFDVDV5SDdxMnN2ZWRJTWY1c0J1MzZTQXpsUk1MVmJ0UzRZQTJ2SApOYWZFS1E9PQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==';

export interface RealServerManifests {
  /** Written one batch after the other; in a batch, owners before dependents (seedCluster orders them). */
  batches: ListItem[][];
  /** Kind → generated objects not written because the server has its own. */
  serverMade: Record<string, number>;
}

export function realServerManifests(items: ListItem[]): RealServerManifests {
  const out: RealServerManifests = { batches: [[], [], []], serverMade: {} };
  for (const item of items) {
    if (SERVER_MADE_KINDS.has(item.kind) || (item.kind === 'Namespace' && SERVER_MADE_NAMESPACES.has(item.metadata.name))) {
      out.serverMade[item.kind] = (out.serverMade[item.kind] ?? 0) + 1;
      continue;
    }
    out.batches[LATER[item.kind] ?? 0].push(admissible(item));
  }
  return out;
}

function admissible(item: ListItem): ListItem {
  const spec = item.spec as J | undefined;
  if (spec) capRequests(spec);
  if (item.kind === 'Service' && spec && spec.clusterIP !== 'None') {
    const { clusterIP: _ip, clusterIPs: _ips, ...rest } = spec;
    return { ...item, spec: rest };
  }
  if (item.kind === 'CertificateSigningRequest' && spec) {
    const status = item.status as J | undefined;
    return {
      ...item,
      spec: { ...spec, request: CSR_PEM_BASE64 },
      ...(status?.certificate ? { status: { ...status, certificate: CERT_PEM_BASE64 } } : {}),
    };
  }
  if (item.kind === 'CustomResourceDefinition' && spec) {
    const versions = (spec.versions as J[]).map((v) => (v.schema ? { ...v, schema: structural(v.schema) } : v));
    return { ...item, spec: { ...spec, versions } };
  }
  return item;
}

/** Quantities in the forms the generator writes: "500m", "2", "256Mi", "1Gi". */
function quantity(q: unknown): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti)?$/.exec(String(q));
  if (!m) return NaN;
  const scale: Record<string, number> = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(m[1]) * (m[2] ? scale[m[2]] : 1);
}

/** Every container of a Pod spec or of a template under `spec` (in place: the items are the bench's own copies). */
function capRequests(spec: J): void {
  const at = (o: unknown, key: string) => (o as J | undefined)?.[key];
  const podSpecs = [spec, at(at(spec, 'template'), 'spec'), at(at(at(at(spec, 'jobTemplate'), 'spec'), 'template'), 'spec')];
  for (const ps of podSpecs) {
    for (const c of [...((at(ps, 'containers') as J[] | undefined) ?? []), ...((at(ps, 'initContainers') as J[] | undefined) ?? [])]) {
      const r = c.resources as { requests?: J; limits?: J } | undefined;
      if (!r?.requests || !r.limits) continue;
      for (const [name, limit] of Object.entries(r.limits)) {
        if (r.requests[name] !== undefined && quantity(r.requests[name]) > quantity(limit)) r.requests[name] = limit;
      }
    }
  }
}

/** The schema with every array given an items schema, and open fields of any type. */
function structural(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(structural);
  if (!schema || typeof schema !== 'object') return schema;
  const out: J = {};
  for (const [k, v] of Object.entries(schema as J)) out[k] = k === 'enum' || k === 'required' ? v : structural(v);
  if (out.type === 'array' && out.items === undefined) out.items = { 'x-kubernetes-preserve-unknown-fields': true };
  if (out['x-kubernetes-preserve-unknown-fields'] === true && out.properties === undefined) delete out.type;
  return out;
}

export interface StatusWrites {
  written: number;
  byKind: Record<string, number>;
  refused: SeedFailure[];
}

/**
 * Writes each created object's generated status by a merge PATCH of its /status subresource (only where discovery
 * lists one), `concurrency` at a time. Refusals are collected, not thrown.
 */
export async function writeStatuses(
  writer: ClusterWriter,
  items: ListItem[],
  created: Map<string, Manifest>,
  concurrency: number,
): Promise<StatusWrites> {
  const resources = await discoverResources(writer);
  const result: StatusWrites = { written: 0, byKind: {}, refused: [] };
  const todo = items.filter(
    (i) =>
      Object.keys((i.status as J | undefined) ?? {}).length > 0 &&
      !SERVER_STATUS_KINDS.has(i.kind) &&
      resources.get(`${i.apiVersion}/${i.kind}`)?.status &&
      created.has(keyOf(i)),
  );
  await inParallel(todo, concurrency, async (item) => {
    const path = resourcePath(
      resources.get(`${item.apiVersion}/${item.kind}`)!,
      item.apiVersion,
      item.metadata.namespace,
      item.metadata.name,
    );
    let status = item.status as J;
    if (item.kind === 'CertificateSigningRequest') {
      // /status may not add an Approved condition: the approver writes it through /approval.
      const { conditions, ...rest } = status;
      const a = await writer.request('PATCH', `${path}/approval`, { status: { conditions } }, 'application/merge-patch+json');
      if (a.status !== 200)
        return void result.refused.push({ object: keyOf(item), status: a.status, message: a.body.message ?? '', created: true });
      status = rest;
    }
    const r = await writer.request('PATCH', `${path}/status`, { status }, 'application/merge-patch+json');
    if (r.status !== 200)
      return void result.refused.push({ object: keyOf(item), status: r.status, message: r.body.message ?? '', created: true });
    result.written++;
    result.byKind[item.kind] = (result.byKind[item.kind] ?? 0) + 1;
  });
  return result;
}
