// Live objects as read-only documents (protocol version 2). Their text is the object's metadata as the garbage
// collector sees it, rendered by the server; the client serves it through a content provider for the
// `kube-gc-lens-live:` scheme. Both sides read the uid from the URI.

import type { ObjectIdentity, SourceLocation } from './objects';

export const LIVE_SCHEME = 'kube-gc-lens-live';

/** 0-based line of `metadata.name` in a live document (two comment lines, apiVersion, kind, metadata:). */
export const LIVE_NAME_LINE = 5;

/** `kube-gc-lens-live:/<context>/<namespace or _cluster>/<Kind.group>/<name>.yaml?uid=<uid>`: the uid identifies it. */
export function liveObjectUri(o: ObjectIdentity, context: string): string {
  const group = o.apiVersion.includes('/') ? `.${o.apiVersion.slice(0, o.apiVersion.indexOf('/'))}` : '';
  const parts = [context, o.namespace || '_cluster', `${o.kind}${group}`, `${o.name}.yaml`].map(encodeURIComponent);
  return `${LIVE_SCHEME}:/${parts.join('/')}?uid=${encodeURIComponent(o.uid)}`;
}

/** The uid a live document shows, or undefined for any other URI. */
export function liveUidOf(uri: string): string | undefined {
  if (!uri.startsWith(`${LIVE_SCHEME}:`)) return undefined;
  const q = uri.indexOf('?');
  if (q < 0) return undefined;
  let query: string;
  try {
    // VS Code's Uri.toString() encodes the query's `=` (`uid%3D…`): decode the query before reading it.
    query = decodeURIComponent(uri.slice(q + 1).replace(/#.*$/, ''));
  } catch {
    return undefined;
  }
  const m = /(?:^|&)uid=([^&]*)/.exec(query);
  return m ? m[1] : undefined;
}

/** Where a live object's name is in its document (for reveal links; the exact columns do not matter). */
export function liveObjectLocation(o: ObjectIdentity, context: string): SourceLocation {
  return {
    uri: liveObjectUri(o, context),
    range: { start: { line: LIVE_NAME_LINE, character: 2 }, end: { line: LIVE_NAME_LINE, character: 8 + o.name.length } },
  };
}
