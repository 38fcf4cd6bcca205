// What a request is about, as the apiserver's RequestInfoResolver reads it from the method and the path: the verb,
// and group/version/resource/namespace/name/subresource for resource requests.
import type { Discovery } from './discovery';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'discovery' | 'other';

export type DiscoveryDoc = 'version' | 'api' | 'apiVersion' | 'apis' | 'group' | 'groupVersion';

export interface RequestInfo {
  verb: Verb;
  discovery?: DiscoveryDoc;
  group?: string;
  version?: string;
  resource?: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** a path no resource or discovery document answers */
  unknownPath?: boolean;
}

const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

export function resolveRequest(method: string, pathname: string, query: Record<string, string>, discovery: Discovery): RequestInfo {
  let segments: string[];
  try {
    segments = pathname
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
  } catch {
    return { verb: 'other', unknownPath: true };
  }
  const read = method === 'GET' || method === 'HEAD';
  const docVerb: Verb = read ? 'discovery' : 'other';
  const [root, a, b] = segments;
  if (segments.length === 1 && root === 'version') return { verb: docVerb, discovery: 'version' };
  if (root === 'api' && segments.length <= 2) {
    return segments.length === 1 ? { verb: docVerb, discovery: 'api' } : { verb: docVerb, discovery: 'apiVersion', group: '', version: a };
  }
  if (root === 'apis' && segments.length <= 3) {
    if (segments.length === 1) return { verb: docVerb, discovery: 'apis' };
    if (segments.length === 2) return { verb: docVerb, discovery: 'group', group: a };
    return { verb: docVerb, discovery: 'groupVersion', group: a, version: b };
  }
  let group: string;
  let version: string;
  let rest: string[];
  if (root === 'api') [group, version, rest] = ['', a, segments.slice(2)];
  else if (root === 'apis') [group, version, rest] = [a, b, segments.slice(3)];
  else return { verb: 'other', unknownPath: true };

  // The legacy watch prefix: /api/v1/watch/namespaces/x/pods.
  const watchPath = rest[0] === 'watch';
  if (watchPath) rest = rest.slice(1);
  let namespace: string | undefined;
  let resource: string;
  let name: string | undefined;
  let subresource: string | undefined;
  const namespaceSubresource =
    group === '' && rest.length === 3 && discovery.resource('', version, 'namespaces')?.subresources.some((s) => s.name === rest[2]);
  if (rest[0] === 'namespaces' && rest.length >= 3 && !namespaceSubresource) {
    [namespace, resource, name, subresource] = [rest[1], rest[2], rest[3], rest[4]];
    if (rest.length > 5) return { verb: 'other', unknownPath: true };
  } else {
    [resource, name, subresource] = [rest[0], rest[1], rest[2]];
    if (rest.length === 0 || rest.length > 3) return { verb: 'other', unknownPath: true };
    // The apiserver files a namespace's own requests under that namespace.
    if (resource === 'namespaces' && name !== undefined) namespace = name;
  }

  let verb: Verb;
  switch (method) {
    case 'GET':
    case 'HEAD':
      verb = watchPath || TRUE.has(query.watch ?? '') ? 'watch' : name === undefined ? 'list' : 'get';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name === undefined ? 'deletecollection' : 'delete';
      break;
    default:
      verb = 'other';
  }
  return {
    verb,
    group,
    version,
    resource,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}
