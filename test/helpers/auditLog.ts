// kube-apiserver's own audit log for suites on the real control plane: every request at the Metadata level, read back
// to count what the product sent (its user agent) by verb.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** The product's user agent (server/src/sources/cluster/apiClient.ts). */
export const PRODUCT_USER_AGENT = 'kube-gc-lens (read-only)';
/**
 * The user agent of a way out the user asked the editor to send (server/src/sources/cluster/clusterWrites.ts), followed
 * by ` uid/<the uid its patch tests>`.
 */
export const WAY_OUT_USER_AGENT = 'kube-gc-lens (way out, asked by the user)';

export interface AuditEvent {
  verb: string;
  requestURI: string;
  /** When the apiserver received it (RFC 3339, microseconds): the events of two user agents in one order. */
  requestReceivedTimestamp?: string;
  stage: string;
  userAgent?: string;
  objectRef?: { resource?: string; name?: string };
  user?: { username?: string };
  responseStatus?: { code?: number; message?: string };
  /** The request's body, logged only for the PATCHes of `patchBodiesOf` (a JSON patch: its ops). */
  requestObject?: unknown;
}

/**
 * Writes the policy into `dir` and returns the log's path and the apiserver flags that turn the log on. The PATCHes
 * of `patchBodiesOf` (group, resources) are logged with their bodies (level Request), to read what was sent.
 */
export function auditLog(
  dir: string,
  patchBodiesOf: { group: string; resources: string[] }[] = [],
): { log: string; apiserverArgs: string[] } {
  const policy = path.join(dir, 'audit-policy.yaml');
  const log = path.join(dir, 'audit.log');
  const bodies = patchBodiesOf.length ? `- level: Request\n  verbs: [patch]\n  resources: ${JSON.stringify(patchBodiesOf)}\n` : '';
  writeFileSync(policy, `apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${bodies}- level: Metadata\n`);
  return { log, apiserverArgs: [`--audit-policy-file=${policy}`, `--audit-log-path=${log}`] };
}

/** The product's completed requests (or those of `userAgent`, with or without a suffix), as the apiserver recorded them. */
export function productRequests(log: string, userAgent = PRODUCT_USER_AGENT): AuditEvent[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent)
    .filter((e) => (e.userAgent === userAgent || e.userAgent?.startsWith(`${userAgent} `)) && e.stage === 'ResponseComplete');
}
