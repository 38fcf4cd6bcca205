// Test helper: the world of a namespace held outside ownership on the real control plane (issue 18), as YAML for
// `kubectl apply`: a Widget CRD of group `<prefix>.example.com`, an APIService of `metrics.<prefix>.example.com`
// served by a Service with no Pods behind it (so never Available), and the namespace `ns`.

/** The APIService's name for `prefix`. */
export const apiServiceName = (prefix: string) => `v1alpha1.metrics.${prefix}.example.com`;

export function blockerWorld(prefix: string, ns: string): string {
  return `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.${prefix}.example.com }
spec:
  group: ${prefix}.example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }]
---
apiVersion: v1
kind: Namespace
metadata: { name: ${prefix}-backend }
---
apiVersion: v1
kind: Service
metadata: { name: api-backend, namespace: ${prefix}-backend }
spec: { selector: { app: nothing-runs-this }, ports: [{ port: 443, targetPort: 6443 }] }
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: { name: ${apiServiceName(prefix)} }
spec:
  group: metrics.${prefix}.example.com
  version: v1alpha1
  service: { namespace: ${prefix}-backend, name: api-backend, port: 443 }
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 1000
  versionPriority: 15
---
apiVersion: v1
kind: Namespace
metadata: { name: ${ns} }
`;
}
