// How the client names objects, places and durations: the same words the CLI uses (`Kind namespace/name`).

import { LIVE_SCHEME, type SourceLocation } from '../../../shared/src/protocol';

/** `Deployment shop/web`, or `Namespace shop` for a cluster-scoped object: the wire module's one spelling. */
export { describeObject } from '../../../shared/src/protocol';

/** `web.yaml:12` (1-based line) for a document URI and range; `held.yaml (live, read-only)` for a live object. */
export function locationLabel(location: SourceLocation): string {
  const live = location.uri.startsWith(`${LIVE_SCHEME}:`);
  const path = location.uri.replace(/[?#].*$/, '');
  const file = path.slice(path.lastIndexOf('/') + 1);
  let name: string;
  try {
    name = decodeURIComponent(file);
  } catch {
    name = file;
  }
  return live ? `${name} (live, read-only)` : `${name || location.uri}:${location.range.start.line + 1}`;
}

/** `45s`, `12m`, `5h 12m`, `3d 4h`: the two largest units, zeros left out. */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/** `1 object`, `2 objects`: for English nouns with a regular plural. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
