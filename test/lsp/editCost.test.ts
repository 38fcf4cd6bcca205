// Edits cost what they change: the language server re-reads only the YAML documents an edit touched (counted at the
// reader: fastYamlDocument reads each plain document once), and a burst of didChange is applied once, before any
// request is answered, from the final text.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HoverRequest, type Hover, type MarkupContent } from 'vscode-languageserver-protocol';
import { ObjectAtRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { fastYamlDocument } from '../../server/src/sources/manifests/yamlFast';

vi.mock('../../server/src/sources/manifests/yamlFast', async (original) => {
  const m = await original<typeof import('../../server/src/sources/manifests/yamlFast')>();
  return { ...m, fastYamlDocument: vi.fn(m.fastYamlDocument) };
});

const reads = vi.mocked(fastYamlDocument);
const URI = 'file:///edits/stream.yaml';
const DOCUMENTS = 400;

/** DOCUMENTS plain ConfigMaps, the first one owning the second; `cm-N`'s name is on line 4 + 7·N. */
function stream(): string {
  const docs: string[] = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const owner = i === 1 ? '  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: cm-0\n    uid: uid-0\n' : '';
    docs.push(`---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: ns\n  uid: uid-${i}\n${owner}`);
  }
  return docs.join('');
}

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;

describe('edits of a big multi-document file', () => {
  let session: LspSession;
  beforeEach(async () => {
    session = new LspSession();
    await session.initialize();
  });
  afterEach(async () => {
    await session.dispose();
  });

  const objectAt = (line: number, character: number) =>
    session.connection.sendRequest(ObjectAtRequest, { uri: URI, position: { line, character } });

  it('re-reads only the document an edit touched, and moves the others', async () => {
    const text = stream();
    await session.open(URI, text);
    const middle = lineOf(text, 'name: cm-200\n');
    expect((await objectAt(middle, 9))?.name).toBe('cm-200');
    expect(reads.mock.calls.length).toBeGreaterThanOrEqual(DOCUMENTS);

    reads.mockClear();
    // One character typed in the name of cm-200: only that document is read again.
    await session.edit(URI, { start: { line: middle, character: 12 }, end: { line: middle, character: 12 } }, 'x');
    expect((await objectAt(middle, 9))?.name).toBe('cm-2x00');
    expect(reads.mock.calls.length).toBe(1);

    reads.mockClear();
    // A line added at the top (inside the first document): the rest move down a line, none is read again.
    await session.edit(URI, { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, '  labels: {}\n');
    expect((await objectAt(middle + 1, 9))?.name).toBe('cm-2x00');
    expect((await objectAt(lineOf(text, 'name: cm-399') + 1, 9))?.name).toBe('cm-399');
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('applies a burst of didChange once, and a request after it answers from the final text', async () => {
    const text = stream();
    await session.open(URI, text);
    const line = lineOf(text, 'name: cm-0\n');
    expect((await objectAt(line, 9))?.name).toBe('cm-0');
    reads.mockClear();
    // Ten characters typed one message each, sent back to back, then a hover and an objectAt.
    const typed = 'renamed-cm';
    const sent: Promise<void>[] = [];
    for (let i = 0; i < typed.length; i++) {
      const at = { line, character: 8 + i };
      sent.push(session.edit(URI, { start: at, end: at }, typed[i]));
    }
    const hover = session.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI }, position: { line, character: 9 } });
    const object = objectAt(line, 9);
    await Promise.all(sent);
    expect((await object)?.name).toBe('renamed-cmcm-0');
    // The hover is on the name as it is after the burst (its range ends where the final name ends).
    const answer = (await hover) as Hover | null;
    expect(answer?.range).toEqual({ start: { line, character: 8 }, end: { line, character: 8 + 'renamed-cmcm-0'.length } });
    expect((answer?.contents as MarkupContent).value).toContain('dependent');
    // One update for the burst: the edited document read once, not once per keystroke.
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
  });
});
