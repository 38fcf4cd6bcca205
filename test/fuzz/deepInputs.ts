// Large and deep inputs for deep.test.ts (built in the child process, so megabytes never cross a pipe).

const MB = 1024 * 1024;

export const GOOD_FIRST = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n  namespace: demo\n  uid: u-first\n';
export const GOOD_THIRD =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: third\n  namespace: demo\n  uid: u-third\n  ownerReferences:\n' +
  '  - {apiVersion: v1, kind: ConfigMap, name: first, uid: u-first}\n';

export interface DeepInput {
  name: string;
  file: string;
  build(): string;
  /** What must come out: one located error (`deep`), or the good objects and no error (`loads`). */
  expect: 'deep' | 'loads';
  /** The good documents around it, which must load either way. */
  around?: boolean;
}

/** `[` `{` or similar, `n` times. */
const repeat = (s: string, bytes: number) => s.repeat(Math.ceil(bytes / s.length));
const between = (deep: string) => `${GOOD_FIRST}---\n${deep}\n---\n${GOOD_THIRD}`;
/** Block mappings nested one space deeper per line, about `bytes` long in all. */
function indentation(bytes: number): string {
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; total < bytes; i++) {
    const l = `${' '.repeat(i)}a:`;
    lines.push(l);
    total += l.length + 1;
  }
  return `${lines.join('\n')} x`;
}

export const DEEP_INPUTS: DeepInput[] = [
  { name: '1 MB of [', file: 'deep.yaml', build: () => repeat('[', MB), expect: 'deep' },
  { name: '5 MB of [', file: 'deep.yaml', build: () => repeat('[', 5 * MB), expect: 'deep' },
  { name: '5 MB of [ in .json', file: 'deep.json', build: () => repeat('[', 5 * MB), expect: 'deep' },
  { name: '1 MB of [ between two good documents', file: 'deep.yaml', build: () => between(repeat('[', MB)), expect: 'deep', around: true },
  { name: '1 MB of {a: nesting', file: 'deep.yaml', build: () => between(`x: ${repeat('{a: ', MB)}`), expect: 'deep', around: true },
  {
    name: '1 MB of "- " (block sequences on one line)',
    file: 'deep.yaml',
    build: () => between(repeat('- ', MB)),
    expect: 'deep',
    around: true,
  },
  {
    name: '1 MB of block mappings, one space deeper per line',
    file: 'deep.yaml',
    build: () => between(indentation(MB)),
    expect: 'deep',
    around: true,
  },
  {
    name: 'a 5 MB single-line scalar',
    file: 'long.yaml',
    build: () => between(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long\n  namespace: demo\ndata:\n  k: ${'x'.repeat(5 * MB)}`),
    expect: 'loads',
    around: true,
  },
];
