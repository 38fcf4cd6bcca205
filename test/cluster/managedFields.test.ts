// managedFields cut out of served JSON before parsing: always what JSON.parse and deleting every
// metadata.managedFields give, and the text untouched when it is not as expected.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutManagedFields } from '../../server/src/sources/cluster/managedFields';

type J = Record<string, unknown>;

/** The reference: parse everything, then delete ObjectMeta's managedFields wherever an object has a metadata. */
function reference(text: string): unknown {
  const drop = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(drop);
    else if (v && typeof v === 'object') {
      const o = v as J;
      const m = o.metadata as J | undefined;
      if (m && typeof m === 'object' && Array.isArray(m.managedFields)) delete m.managedFields;
      for (const x of Object.values(o)) drop(x);
    }
  };
  const parsed = JSON.parse(text) as unknown;
  drop(parsed);
  return parsed;
}

const cut = (text: string) => withoutManagedFields(Buffer.from(text)).toString('utf8');

const mf = [
  {
    apiVersion: 'v1',
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"a]}\\"b"}': { '.': {} } } },
    },
    manager: 'kubectl',
    operation: 'Update',
    time: '2026-01-01T00:00:00Z',
  },
];

describe('withoutManagedFields', () => {
  it('cuts ObjectMeta managedFields wherever they are in the metadata (last, first, only key), in a list and in one object', () => {
    const list = {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '5' },
      items: [
        { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a', uid: 'u1', managedFields: mf } },
        { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { managedFields: mf, name: 'b', uid: 'u2' } },
        { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { managedFields: mf } },
        { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'none', uid: 'u4' } },
      ],
    };
    const text = JSON.stringify(list);
    const out = cut(text);
    expect(JSON.parse(out)).toEqual(reference(text));
    expect(out).not.toMatch(/managedFields/);
    const event = JSON.stringify({ type: 'MODIFIED', object: list.items[0] });
    expect(JSON.parse(cut(event))).toEqual(reference(event));
  });

  it('leaves what only looks like managedFields: inside strings, an annotation of that name, a null, other text', () => {
    const tricky = {
      metadata: {
        name: 'x',
        annotations: { managedFields: '[not, an, array]', note: '{"managedFields":[1,2]} and ,"managedFields":[3]' },
        labels: { 'a\\"managedFields': 'b' },
        managedFields: null,
      },
      data: { 'k"managedFields":[': 'v' },
    };
    const text = JSON.stringify(tricky);
    expect(cut(text)).toBe(text);
    expect(withoutManagedFields(Buffer.from(text))).toEqual(Buffer.from(text));
  });

  it('leaves a text whose managedFields never close as it is (JSON.parse then says what is wrong)', () => {
    const broken = '{"metadata":{"name":"x","managedFields":[{"manager":"k"}';
    expect(cut(broken)).toBe(broken);
  });

  it('matches the reference on the real dumps that carry managedFields (test/fixtures)', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir)) {
        const p = join(dir, e);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.json')) files.push(p);
      }
    };
    walk(join(__dirname, '../fixtures/loader/sonobuoy'));
    walk(join(__dirname, '../fixtures/cluster-dumps'));
    let changed = 0;
    for (const f of files) {
      const text = JSON.stringify(JSON.parse(readFileSync(f, 'utf8'))); // compact, as an apiserver writes it
      const out = cut(text);
      if (out !== text) changed++;
      expect(JSON.parse(out)).toEqual(reference(text));
    }
    expect(changed).toBeGreaterThan(3);
  });
});
