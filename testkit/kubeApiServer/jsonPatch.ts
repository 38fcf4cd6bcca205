// RFC 6902 JSON patch, the operations a way out sends (test, remove, add, replace), as the apiserver applies a
// `application/json-patch+json` PATCH: any failed operation fails the whole patch and nothing changes.

export interface PatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

export class JsonPatchError extends Error {}

type Container = Record<string, unknown> | unknown[];

/** The patched copy of `doc`; a JsonPatchError (the apiserver's 422 "the server rejected our request…") on any failure. */
export function applyJsonPatch<T>(doc: T, ops: unknown): T {
  if (!Array.isArray(ops)) throw new JsonPatchError('a JSON patch must be an array of operations');
  let out = JSON.parse(JSON.stringify(doc)) as unknown;
  for (const raw of ops as PatchOperation[]) {
    if (!raw || typeof raw.op !== 'string' || typeof raw.path !== 'string') throw new JsonPatchError('an operation needs "op" and "path"');
    const tokens = pointer(raw.path);
    if (tokens.length === 0) {
      if (raw.op === 'test' && !equal(out, raw.value)) throw new JsonPatchError(`testing value ${raw.path} failed`);
      if (raw.op === 'add' || raw.op === 'replace') out = clone(raw.value);
      continue;
    }
    const parent = walk(out, tokens.slice(0, -1), raw.path);
    const last = tokens[tokens.length - 1];
    const isArray = Array.isArray(parent);
    const index = isArray ? (last === '-' ? parent.length : Number(last)) : -1;
    if (isArray && (!/^(\d+|-)$/.test(last) || index > parent.length)) throw new JsonPatchError(`${raw.path}: no such index`);
    const has = isArray ? index < parent.length : Object.prototype.hasOwnProperty.call(parent, last);
    switch (raw.op) {
      case 'test':
        if (!has || !equal(isArray ? parent[index] : (parent as Record<string, unknown>)[last], raw.value))
          throw new JsonPatchError(`testing value ${raw.path} failed`);
        break;
      case 'remove':
        if (!has) throw new JsonPatchError(`unable to remove nonexistent key: ${raw.path}`);
        if (isArray) parent.splice(index, 1);
        else delete (parent as Record<string, unknown>)[last];
        break;
      case 'add':
        if (isArray) parent.splice(index, 0, clone(raw.value));
        else (parent as Record<string, unknown>)[last] = clone(raw.value);
        break;
      case 'replace':
        if (!has) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${raw.path}`);
        if (isArray) parent[index] = clone(raw.value);
        else (parent as Record<string, unknown>)[last] = clone(raw.value);
        break;
      default:
        throw new JsonPatchError(`unsupported operation "${raw.op}"`);
    }
  }
  return out as T;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new JsonPatchError(`"${path}" is not a JSON pointer`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function walk(doc: unknown, tokens: string[], path: string): Container {
  let at = doc;
  for (const t of tokens) {
    if (Array.isArray(at)) at = at[Number(t)];
    else if (at && typeof at === 'object') at = (at as Record<string, unknown>)[t];
    else at = undefined;
    if (at === undefined) throw new JsonPatchError(`${path}: a parent does not exist`);
  }
  if (!at || typeof at !== 'object') throw new JsonPatchError(`${path}: the parent is not an object or array`);
  return at as Container;
}

const clone = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
