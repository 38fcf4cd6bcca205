// Which open documents look like Kubernetes: they start the language client, show the status bar item and
// the editor's "Simulate Delete…" entry (context key kubeGcLens.activeEditorIsKubernetes).

import * as vscode from 'vscode';
import { KUBERNETES_LANGUAGES, looksLikeKubernetes } from './logic/looksLikeKubernetes';

export const ACTIVE_EDITOR_IS_KUBERNETES = 'kubeGcLens.activeEditorIsKubernetes';

const SCHEMES = ['file', 'untitled'];
/** Typing re-checks a document after this pause, not on every keystroke (the check reads the whole text). */
const EDIT_DEBOUNCE_MS = 300;
/** Per document, the answer for one version. */
const cache = new WeakMap<vscode.TextDocument, { version: number; kubernetes: boolean }>();

export function isKubernetesDocument(doc: vscode.TextDocument): boolean {
  if (!SCHEMES.includes(doc.uri.scheme) || !KUBERNETES_LANGUAGES.includes(doc.languageId)) return false;
  const hit = cache.get(doc);
  if (hit?.version === doc.version) return hit.kubernetes;
  const kubernetes = looksLikeKubernetes(doc.languageId, doc.getText());
  cache.set(doc, { version: doc.version, kubernetes });
  return kubernetes;
}

/** Calls `onFirst` once a Kubernetes document is (or becomes) open; reports whether the active editor holds one. */
export function watchKubernetesDocuments(onFirst: () => void, onActiveChange: (kubernetes: boolean) => void): vscode.Disposable {
  let seen = false;
  let active: boolean | undefined;
  let timer: NodeJS.Timeout | undefined;
  const consider = (doc: vscode.TextDocument) => {
    if (seen || !isKubernetesDocument(doc)) return;
    seen = true;
    onFirst();
  };
  const updateActive = () => {
    const doc = vscode.window.activeTextEditor?.document;
    const kubernetes = doc !== undefined && isKubernetesDocument(doc);
    if (kubernetes === active) return;
    active = kubernetes;
    void vscode.commands.executeCommand('setContext', ACTIVE_EDITOR_IS_KUBERNETES, kubernetes);
    onActiveChange(kubernetes);
  };
  vscode.workspace.textDocuments.forEach(consider);
  updateActive();
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument(consider),
    // An untitled document becomes Kubernetes as its apiVersion and kind are typed.
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!KUBERNETES_LANGUAGES.includes(e.document.languageId)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        consider(e.document);
        updateActive();
      }, EDIT_DEBOUNCE_MS);
    }),
    vscode.window.onDidChangeActiveTextEditor(updateActive),
    { dispose: () => clearTimeout(timer) },
  );
}
