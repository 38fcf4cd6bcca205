// labelSelector and fieldSelector of LIST and WATCH, with the apiserver's grammar for what the tests need:
// labels: `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`; fields: `f=v`, `f==v`, `f!=v` on
// metadata.name, metadata.namespace and, for pods, spec.nodeName and status.phase.
export type Obj = Record<string, unknown>;
export type Predicate = (obj: Obj) => boolean;

export class SelectorError extends Error {}

function labelsOf(obj: Obj): Record<string, string> {
  const labels = (obj.metadata as Obj | undefined)?.labels;
  return labels && typeof labels === 'object' ? (labels as Record<string, string>) : {};
}

const REQUIREMENT = /\s*(!?)\s*([A-Za-z0-9][-A-Za-z0-9_./]*)\s*(?:(==|=|!=)\s*([-A-Za-z0-9_.]*)|\s(in|notin)\s*\(([^)]*)\))?\s*(?:,|$)/y;

export function parseLabelSelector(text: string): Predicate | undefined {
  if (text.trim() === '') return undefined;
  const tests: Predicate[] = [];
  REQUIREMENT.lastIndex = 0;
  while (REQUIREMENT.lastIndex < text.length) {
    const start = REQUIREMENT.lastIndex;
    const m = REQUIREMENT.exec(text);
    if (!m || REQUIREMENT.lastIndex === start) throw new SelectorError(`unable to parse requirement: ${JSON.stringify(text.slice(start))}`);
    const [, not, key, op, value, setOp, setValues] = m;
    if (not) {
      if (op || setOp) throw new SelectorError(`unable to parse requirement: ${JSON.stringify(m[0])}`);
      tests.push((o) => !(key in labelsOf(o)));
    } else if (op === '!=') {
      tests.push((o) => labelsOf(o)[key] !== value);
    } else if (op) {
      tests.push((o) => labelsOf(o)[key] === value);
    } else if (setOp) {
      const values = new Set(setValues.split(',').map((v) => v.trim()));
      tests.push(setOp === 'in' ? (o) => values.has(labelsOf(o)[key]) : (o) => !values.has(labelsOf(o)[key]));
    } else {
      tests.push((o) => key in labelsOf(o));
    }
  }
  return (o) => tests.every((t) => t(o));
}

const FIELDS: Record<string, (obj: Obj) => unknown> = {
  'metadata.name': (o) => (o.metadata as Obj | undefined)?.name,
  'metadata.namespace': (o) => (o.metadata as Obj | undefined)?.namespace ?? '',
};
const POD_FIELDS: Record<string, (obj: Obj) => unknown> = {
  'spec.nodeName': (o) => (o.spec as Obj | undefined)?.nodeName ?? '',
  'status.phase': (o) => (o.status as Obj | undefined)?.phase ?? '',
};

export function parseFieldSelector(text: string, resource: string): Predicate | undefined {
  if (text.trim() === '') return undefined;
  const tests = text.split(',').map((part): Predicate => {
    const m = /^\s*([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [, field, op, value] = m;
    const get = FIELDS[field] ?? (resource === 'pods' ? POD_FIELDS[field] : undefined);
    if (!get) throw new SelectorError(`field label not supported: ${field}`);
    return op === '!=' ? (o) => String(get(o) ?? '') !== value : (o) => String(get(o) ?? '') === value;
  });
  return (o) => tests.every((t) => t(o));
}

export function both(a: Predicate | undefined, b: Predicate | undefined): Predicate | undefined {
  return a && b ? (o) => a(o) && b(o) : (a ?? b);
}
