// The only code that may change a cluster: one JSON patch, sent when the user asked for a way out of a stuck
// deletion, allowed writes and confirmed (app/liveSession.ts decides; issue 18). It hard-codes PATCH with
// `application/json-patch+json` (test/architecture/clusterBoundary.test.ts): no other verb, no other body. The
// apiserver's refusal is returned in its own words (cut at 500 characters), never retried.

import * as http from 'node:http';
import * as https from 'node:https';
import type { ClusterTarget } from './kubeconfig';
import { MAX_ERROR_BODY_BYTES, serverText } from './limits';

export interface PatchTarget {
  /** "" for the core group. */
  group: string;
  version: string;
  /** The resource (plural): `deployments`. */
  resource: string;
  /** undefined for cluster-scoped resources. */
  namespace?: string;
  name: string;
  subresource?: 'scale';
}

export interface PatchAnswer {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  ok: boolean;
  /** The server's Status message on a refusal (verbatim, cut), else the HTTP status line. */
  message: string;
  /** The Status reason of a refusal (`Invalid`, `Conflict`, `NotFound`…), when the server gave one. */
  reason?: string;
}

/**
 * kube-apiserver's whole message when a JSON patch cannot be applied to the object as stored: a `test` op that fails,
 * or a path that is no longer there (422, reason Invalid, no details; checked on v1.37.2). A validation error says
 * `<Kind> "<name>" is invalid: …` instead.
 */
export const PATCH_NOT_APPLICABLE = 'the server rejected our request due to an error in our request';

/**
 * Whether a refusal says the object is not the one, or not in the state, the patch was made for: its preconditions
 * failed (422 above), a conflict (409), or it is gone (404 NotFound).
 */
export function preconditionRefused(a: PatchAnswer): boolean {
  return (
    a.status === 409 || (a.status === 422 && a.message.startsWith(PATCH_NOT_APPLICABLE)) || (a.status === 404 && a.reason === 'NotFound')
  );
}

/** Field manager named in every PATCH, so the cluster's audit log and managedFields say who sent it. */
export const FIELD_MANAGER = 'kube-gc-lens';

/** The user agent of every PATCH; kube-apiserver's audit events record it (`userAgent`), with the uid suffix. */
export const WAY_OUT_USER_AGENT = 'kube-gc-lens (way out, asked by the user)';

/**
 * The user agent of a PATCH to the object `uid` (the one its precondition tests): the audit event then names the
 * object the user confirmed, even when the PATCH, sent by name, reached another one and was refused. A uid that is
 * not one the apiserver makes (letters, digits, `-`) is left out, so no header can be forged from it.
 */
export function wayOutUserAgent(uid: string): string {
  return /^[A-Za-z0-9-]{1,64}$/.test(uid) ? `${WAY_OUT_USER_AGENT} uid/${uid}` : WAY_OUT_USER_AGENT;
}

/** The URL path (with its query) of a PATCH: `dryRun=All` asks the apiserver to run everything (admission too) but store nothing. */
export function patchPath(t: PatchTarget, dryRun: boolean): string {
  const base = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
  const ns = t.namespace !== undefined ? `/namespaces/${encodeURIComponent(t.namespace)}` : '';
  const sub = t.subresource ? `/${t.subresource}` : '';
  const query = `?${dryRun ? 'dryRun=All&' : ''}fieldManager=${FIELD_MANAGER}`;
  return `${base}${ns}/${t.resource}/${encodeURIComponent(t.name)}${sub}${query}`;
}

/**
 * Sends one JSON patch (`body`) to `path` with the target's credentials, naming `uid` (the object it tests) in its user
 * agent; resolves with the answer, never throws.
 */
export async function sendJsonPatch(
  target: ClusterTarget,
  path: string,
  body: string,
  timeoutMs: number,
  uid: string,
): Promise<PatchAnswer> {
  const opts: https.RequestOptions = { headers: {} };
  try {
    await target.applyAuth(opts);
  } catch (e) {
    return { status: 0, ok: false, message: `the credentials of context "${target.context}" failed: ${serverText(errorText(e))}` };
  }
  const base = new URL(target.server);
  const url = new URL(base.pathname.replace(/\/$/, '') + path, base);
  const isHttps = url.protocol === 'https:';
  const payload = Buffer.from(body, 'utf8');
  return new Promise((resolve) => {
    const req = (isHttps ? https : http).request(
      {
        ...opts,
        method: 'PATCH',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: {
          ...(opts.headers as Record<string, string>),
          'Content-Type': 'application/json-patch+json',
          'Content-Length': String(payload.length),
          Accept: 'application/json',
          'User-Agent': wayOutUserAgent(uid),
        },
        agent: target.proxied ? opts.agent : undefined,
        timeout: timeoutMs > 0 ? timeoutMs : undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          // The object a success returns is not needed; a Status is a few KB.
          if (size <= MAX_ERROR_BODY_BYTES) chunks.push(c);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve(
            ok
              ? { status, ok, message: `${status} ${res.statusMessage ?? ''}`.trim() }
              : { status, ok, ...refusal(status, Buffer.concat(chunks)) },
          );
        });
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, ok: false, message: `PATCH failed: ${serverText(errorText(e))}` }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
    req.on('error', (e) => resolve({ status: 0, ok: false, message: `PATCH failed: ${serverText(errorText(e))}` }));
    req.end(payload);
  });
}

/** A refusal in the apiserver's words: its Status message and reason, else the HTTP status. */
function refusal(status: number, body: Buffer): { message: string; reason?: string } {
  try {
    const s = JSON.parse(body.toString('utf8')) as { kind?: unknown; message?: unknown; reason?: unknown };
    if (s && s.kind === 'Status' && typeof s.message === 'string' && s.message)
      return { message: serverText(s.message), ...(typeof s.reason === 'string' && s.reason ? { reason: serverText(s.reason, 100) } : {}) };
  } catch {
    // not a Status
  }
  return { message: `the server answered ${status}` };
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
