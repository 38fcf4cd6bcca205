// The check that decides when the language server starts: top-level apiVersion and kind, YAML or JSON.

import { describe, expect, it } from 'vitest';
import { looksLikeKubernetes } from '../../client/src/logic/looksLikeKubernetes';

describe('looksLikeKubernetes', () => {
  it('accepts YAML with top-level apiVersion and kind, in any order, in any document', () => {
    expect(looksLikeKubernetes('yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n')).toBe(true);
    expect(looksLikeKubernetes('yaml', '# comment\nkind: Pod\nmetadata: {}\napiVersion : v1\n')).toBe(true);
    expect(looksLikeKubernetes('yaml', 'foo: 1\n---\napiVersion: apps/v1\nkind: Deployment\n')).toBe(true);
    // kubectl get -o yaml: the List's own kind comes last, after every item.
    expect(looksLikeKubernetes('yaml', 'apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\nkind: List\n')).toBe(true);
  });

  it('rejects YAML without both keys at the top level', () => {
    expect(looksLikeKubernetes('yaml', 'apiVersion: v1\nmetadata: {}\n')).toBe(false);
    expect(looksLikeKubernetes('yaml', 'spec:\n  apiVersion: v1\n  kind: Pod\n')).toBe(false);
    expect(looksLikeKubernetes('yaml', 'name: my-app\nversion: 1.2.3\n')).toBe(false);
    expect(looksLikeKubernetes('yaml', '')).toBe(false);
  });

  it('accepts JSON with apiVersion and kind properties (and JSON written in a .yaml file)', () => {
    expect(looksLikeKubernetes('json', '{"apiVersion": "v1", "kind": "Pod"}')).toBe(true);
    expect(looksLikeKubernetes('json', '{\n  "kind" : "List",\n  "apiVersion":"v1","items":[]\n}')).toBe(true);
    expect(looksLikeKubernetes('yaml', '{"apiVersion": "v1", "kind": "Pod"}')).toBe(true);
  });

  it('rejects JSON without both properties, and other languages', () => {
    expect(looksLikeKubernetes('json', '{"name": "pkg", "version": "1.0.0"}')).toBe(false);
    expect(looksLikeKubernetes('json', '{"apiVersion": "v1"}')).toBe(false);
    // YAML syntax is not JSON.
    expect(looksLikeKubernetes('json', 'apiVersion: v1\nkind: Pod\n')).toBe(false);
    expect(looksLikeKubernetes('plaintext', 'apiVersion: v1\nkind: Pod\n')).toBe(false);
    expect(looksLikeKubernetes('helm', 'apiVersion: v1\nkind: Pod\n')).toBe(false);
  });
});
