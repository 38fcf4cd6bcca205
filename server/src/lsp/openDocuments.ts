// The documents the editor has open, by URI, with their text as the editor has it (full or incremental changes).
// The server class keeps them itself, rather than vscode-languageserver's TextDocuments (which needs a connection),
// so that it stays transport-free.

import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams } from 'vscode-languageserver';

export class OpenDocuments {
  private readonly byUri = new Map<string, TextDocument>();

  get(uri: string): TextDocument | undefined {
    return this.byUri.get(uri);
  }

  all(): TextDocument[] {
    return [...this.byUri.values()];
  }

  open(p: DidOpenTextDocumentParams): TextDocument {
    const { uri, languageId, version, text } = p.textDocument;
    const doc = TextDocument.create(uri, languageId, version, text);
    this.byUri.set(uri, doc);
    return doc;
  }

  /** The document after the changes, or undefined when it is not open (a client bug: ignored). */
  change(p: DidChangeTextDocumentParams): TextDocument | undefined {
    const doc = this.byUri.get(p.textDocument.uri);
    if (!doc) return undefined;
    // A client may omit the version (null): keep counting.
    const version = p.textDocument.version ?? doc.version + 1;
    const updated = TextDocument.update(doc, p.contentChanges, version);
    this.byUri.set(updated.uri, updated);
    return updated;
  }

  close(p: DidCloseTextDocumentParams): TextDocument | undefined {
    const doc = this.byUri.get(p.textDocument.uri);
    this.byUri.delete(p.textDocument.uri);
    return doc;
  }
}
