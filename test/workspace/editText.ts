// Random multi-document YAML and random edits of it, for the tests that compare reading an edited text document by
// document with reading it whole: every kind of document the reader treats differently (plain, flow, block scalars
// holding `---`, a List, a template, a syntax error, duplicate keys, comments only, `...` ends, CRLF), and edits that
// insert, delete or replace text, separators included, within a document or across several.

/** A small seeded generator (mulberry32): the same seed gives the same edits. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DOCUMENTS: ((i: number) => string)[] = [
  (i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: ns\n  uid: uid-${i}\ndata:\n  a: "1"\n`,
  (i) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-${i}\n  namespace: ns\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: cm-${i - 1}\n    uid: uid-${i - 1}\n  finalizers:\n  - example.com/hold\n`,
  (i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: script-${i}\ndata:\n  run.sh: |\n    echo one\n    ---\n    echo two\n`,
  (i) => `{apiVersion: v1, kind: Secret, metadata: {name: secret-${i}, namespace: ns}}\n`,
  () => `# only a comment here\n`,
  (i) => `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa-${i}\n...\n`,
  (i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name${i} }}\n`,
  () => `apiVersion: v1\nkind: [\n`,
  (i) => `apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata:\n  name: dup-${i}\n`,
  (i) =>
    `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: item-${i}\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: item-pod-${i}\n`,
  (i) => `apiVersion: apps/v1\r\nkind: Deployment\r\nmetadata:\r\n  name: crlf-${i}\r\n  namespace: ns\r\n`,
  (i) =>
    `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n  uid: ns-uid\n  deletionTimestamp: "2024-01-01T00:00:00Z"\n  finalizers:\n  - example.com/ns-${i}\n`,
];

const SEPARATORS = ['---\n', '---\n', '---\n', '--- \n', '--- # next\n', '---\r\n', '\n---\n'];

/** A multi-document text of `n` documents. */
export function multiDocument(n: number, next: () => number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 || next() < 0.3) parts.push(SEPARATORS[Math.floor(next() * SEPARATORS.length)]);
    parts.push(DOCUMENTS[Math.floor(next() * DOCUMENTS.length)](i));
  }
  return parts.join('');
}

const INSERTS = [
  'x',
  ' ',
  '\n',
  '\r\n',
  '#',
  '---',
  '---\n',
  '\n---\n',
  '...\n',
  '-',
  '|\n',
  '{',
  '}',
  ':',
  '  ',
  'kind: Pod\n',
  '  name: z\n',
  '  - a\n',
  'uid: uid-3\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: inserted\n',
  '{{ x }}',
];

/** One random edit: [start, end) of the text replaced by `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

export function randomEdit(text: string, next: () => number): Edit {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const at = next() < 0.05 ? 0 : next() < 0.05 ? text.length : Math.floor(next() * (text.length + 1));
  const r = next();
  if (r < 0.45) return { start: at, end: at, text: pick(INSERTS) };
  // Deletions: mostly small, sometimes across several documents.
  const length = next() < 0.8 ? 1 + Math.floor(next() * 6) : 1 + Math.floor(next() * 300);
  const end = Math.min(text.length, at + length);
  if (r < 0.8) return { start: at, end, text: '' };
  return { start: at, end, text: pick(INSERTS) };
}

export const applyEdit = (text: string, e: Edit): string => text.slice(0, e.start) + e.text + text.slice(e.end);
