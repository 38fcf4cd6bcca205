// apiVersion and kind of objects that were stored without them (client-go typed lists, sonobuoy and
// Insights Operator dumps), from what names the type: the enclosing typed List, metadata.selfLink, or the
// file's path. Only built-in kinds are inferred; a custom resource without kind stays unknown.

import { KindRegistry, type KindInfo } from '../../engine/kinds/kindRegistry';

export interface InferredType {
  apiVersion: string;
  kind: string;
  /** Cluster-scoped kinds cannot hold a namespaced object and the other way round. */
  namespaced?: boolean;
  /** "the file name core_v1_pods.json", "metadata.selfLink", "the enclosing DeploymentList". */
  from: string;
}

let registry: KindRegistry | undefined;
const reg = () => (registry ??= new KindRegistry());

function apiVersionOf(info: KindInfo, versionHint?: string): string {
  const v = versionHint && info.servedVersions.includes(versionHint) ? versionHint : info.servedVersions[0];
  return info.group ? `${info.group}/${v}` : v;
}

/** Built-in kinds whose kind, plural or singular (not a short name) is `name`, case-insensitive. */
function builtinNamed(name: string): KindInfo[] {
  const lower = name.toLowerCase();
  if (!/^[a-z][a-z0-9]*$/.test(lower)) return [];
  return reg()
    .resolveType(lower)
    .filter((i) => i.origin === 'builtin' && (i.plural === lower || i.singular === lower || i.kind.toLowerCase() === lower));
}

/** `/api/v1/namespaces/ns/pods/x`, `/apis/apps/v1/namespaces/ns/deployments/x`, `/api/v1/nodes/x`. */
export function inferFromSelfLink(selfLink: string): InferredType | undefined {
  const segs = selfLink.split('?')[0].split('/').filter(Boolean);
  let group: string;
  let version: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    group = '';
    version = segs[1];
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1];
    version = segs[2];
    rest = segs.slice(3);
  } else {
    return undefined;
  }
  const resource = rest[0] === 'namespaces' && rest.length >= 4 ? rest[2] : rest[0];
  const info = builtinNamed(resource).find((i) => i.group === group && i.plural === resource);
  if (!info) return undefined;
  return { apiVersion: apiVersionOf(info, version), kind: info.kind, from: 'metadata.selfLink' };
}

const pathCache = new Map<string, InferredType[]>();

/**
 * Candidate types named by a file path, nearest first: the sonobuoy stem `<group>_<version>_<resource>`,
 * then the file stem and up to three parent folders matched against built-in kinds (`ServiceAccounts.json`,
 * `config/node/<name>.json`, `namespaces/<ns>/pods/<name>/<x>.json`). A folder just above the match that
 * names an API group picks between kinds of the same name (Event in "" and events.k8s.io).
 */
export function inferFromPath(file: string): InferredType[] {
  const cached = pathCache.get(file);
  if (cached) return cached;
  const out: InferredType[] = [];
  const parts = file
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .split(/[\\/]+/)
    .filter(Boolean);
  const base = parts.pop() ?? '';
  const stem = base.replace(/\.[^.]*$/, '');
  const sonobuoy = /^(.+)_(v\d+(?:(?:alpha|beta)\d+)?)_([a-z0-9]+)$/i.exec(stem);
  if (sonobuoy) {
    const group = sonobuoy[1] === 'core' ? '' : sonobuoy[1];
    const info = builtinNamed(sonobuoy[3]).find((i) => i.group === group);
    if (info)
      out.push({
        apiVersion: apiVersionOf(info, sonobuoy[2]),
        kind: info.kind,
        namespaced: info.namespaced,
        from: `the file name ${base}`,
      });
  }
  const segments = [stem, ...parts.slice(-3).reverse()];
  segments.forEach((seg, idx) => {
    const matches = builtinNamed(seg);
    if (!matches.length) return;
    // The folder above a folder match (idx >= 1) may name the group: cluster-scoped-resources/<group>/<plural>/.
    const above = parts[parts.length - idx - 1];
    const groupHint = above === 'core' ? '' : above;
    const info = matches.find((m) => m.group === groupHint) ?? matches[0];
    const what = idx === 0 ? `the file name ${base}` : `the folder name ${seg}`;
    out.push({ apiVersion: apiVersionOf(info), kind: info.kind, namespaced: info.namespaced, from: what });
  });
  if (pathCache.size > 10_000) pathCache.clear();
  pathCache.set(file, out);
  return out;
}

/** The element kind of a typed list kind: DeploymentList → Deployment; undefined for plain `List`. */
export function listElementKind(listKind: string): string | undefined {
  return listKind.length > 4 && listKind.endsWith('List') ? listKind.slice(0, -4) : undefined;
}

/** The apiVersion a built-in kind is served at (preferred version), for suggestions in messages. */
export function builtinApiVersion(kind: string): string | undefined {
  const info = reg()
    .all()
    .find((i) => i.origin === 'builtin' && i.kind === kind);
  return info ? apiVersionOf(info) : undefined;
}
