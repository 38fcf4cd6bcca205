// A `helm template`-like stream: many small documents (ConfigMaps, ServiceAccounts, Services, Deployments, Secrets),
// each after a `# Source:` comment, about 180 bytes a document on average (the 1 MB, 5.6k-document file the language
// server was measured on). One ConfigMap and one ConfigMap owned by it sit in the middle: the edit bench breaks and
// fixes the owner reference's uid one character at a time.

export interface HelmStream {
  text: string;
  documents: number;
  /** 0-based line and character of the owner reference's uid value's last character. */
  uidAt: { line: number; character: number };
  /** The uid's last character as written (the bench swaps it with another and back). */
  uidChar: string;
  /** A line inside the middle document's metadata.name (what the hovers point at). */
  nameAt: { line: number; character: number };
  /** The line of a ConfigMap's `data:` value near the middle that the bench edits (one character each time). */
  dataAt: { line: number; character: number };
}

const OWNER_UID = '5f3c1a2e-7d41-4b8e-9c0a-000000000042';

function document(i: number): string {
  const app = `svc-${i % 97}`;
  const labels = `  labels:\n    app.kubernetes.io/name: ${app}\n    app.kubernetes.io/instance: release-${i % 13}\n`;
  const annotations = `  annotations:\n    meta.helm.sh/release-name: release-${i % 13}\n`;
  switch (i % 5) {
    case 0:
      return `# Source: chart/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${app}-config-${i}\n  namespace: team-${i % 7}\n${labels}data:\n  LOG_LEVEL: info\n`;
    case 1:
      return `# Source: chart/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ${app}-sa-${i}\n  namespace: team-${i % 7}\n${annotations}`;
    case 2:
      return `# Source: chart/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: ${app}-${i}\n  namespace: team-${i % 7}\nspec:\n  ports:\n  - port: 80\n`;
    case 3:
      return `# Source: chart/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${app}-${i}\n  namespace: team-${i % 7}\nspec:\n  replicas: 2\n`;
    default:
      return `# Source: chart/templates/secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: ${app}-secret-${i}\n  namespace: team-${i % 7}\n${annotations}type: Opaque\n`;
  }
}

/** A stream of about `bytes` bytes. */
export function helmStream(bytes: number): HelmStream {
  const parts: string[] = [];
  let size = 0;
  let lines = 0;
  let owner: Omit<HelmStream, 'text' | 'documents'> | undefined;
  const add = (s: string) => {
    parts.push(s);
    size += s.length;
    lines += s.split('\n').length - 1;
  };
  for (let i = 0; size < bytes; i++) {
    if (!owner && size >= bytes / 2) {
      const ownerDoc = `---\n# Source: chart/templates/owner.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bench-owner\n  namespace: team-0\n  uid: ${OWNER_UID}\n`;
      add(ownerDoc);
      const nameLine = lines - 3;
      const dependent = `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bench-dependent\n  namespace: team-0\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: bench-owner\n    uid: ${OWNER_UID}\ndata:\n  note: edited by the bench\n`;
      const uidLine = lines + 10;
      add(dependent);
      owner = {
        uidAt: { line: uidLine, character: '    uid: '.length + OWNER_UID.length - 1 },
        uidChar: OWNER_UID[OWNER_UID.length - 1],
        nameAt: { line: nameLine, character: '  name: '.length + 2 },
        dataAt: { line: lines - 1, character: '  note: '.length },
      };
    }
    add(`---\n${document(i)}`);
  }
  return { text: parts.join(''), documents: parts.length, ...owner! };
}
