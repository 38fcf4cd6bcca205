// The live-object quick pick (Open Live Object…, Simulate Delete… on the live cluster): the server searches as the
// user types and answers at most 200 objects with the number of matches, so a large cluster opens at once. The state
// (modes, debounce, stale answers, items) is client/src/logic/liveObjectSearch.ts; this module only shows it.

import * as vscode from 'vscode';
import { ClusterSearchObjectsRequest, type ObjectSummary } from '../../shared/src/protocol';
import type { LazyLanguageClient } from './lazyClient';
import { LiveObjectSearch, type SearchPickItem, type SearchView } from './logic/liveObjectSearch';

export interface LiveObjectPickOptions {
  title: string;
  /** The placeholder, given the live object of the manifest at the cursor once it is found. */
  placeholder: (pinned: ObjectSummary | undefined) => string;
  /** The object of the manifest at the cursor: its live counterpart is offered first. */
  atCursor?: ObjectSummary | null;
  /** Said (an information message) instead of an empty picker when nothing is in scope. */
  emptyMessage: string;
}

/** Shows the picker; resolves with the object picked, or undefined (Esc, nothing in scope, the server failed). */
export function pickLiveObject(lsp: LazyLanguageClient, options: LiveObjectPickOptions): Promise<ObjectSummary | undefined> {
  const quickPick = vscode.window.createQuickPick<SearchPickItem>();
  quickPick.title = options.title;
  quickPick.placeholder = options.placeholder(undefined);
  quickPick.matchOnDescription = true;
  quickPick.busy = true;
  let shownItems = '';
  const show = (view: SearchView) => {
    // Setting the items moves the selection to the first one: only when they changed.
    const key = JSON.stringify(view.items);
    if (key !== shownItems) {
      shownItems = key;
      quickPick.items = view.items;
    }
    quickPick.busy = view.busy;
    quickPick.title = view.note ? `${options.title} · ${view.note}` : options.title;
    quickPick.placeholder = options.placeholder(view.pinned);
  };
  const search = new LiveObjectSearch({
    atCursor: options.atCursor,
    render: show,
    search: async (request, signal) => {
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      signal.addEventListener('abort', onAbort);
      try {
        return await lsp.request(ClusterSearchObjectsRequest, request, cancel.token);
      } finally {
        signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  });

  return new Promise((resolve) => {
    let picked: ObjectSummary | undefined;
    let hidden = false;
    const subscriptions: vscode.Disposable[] = [
      quickPick.onDidChangeValue((value) => search.setQuery(value)),
      quickPick.onDidAccept(() => {
        const item = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
        const o = item && search.accepts(item.uid) ? search.object(item.uid) : undefined;
        if (!o) return;
        picked = o;
        quickPick.hide();
      }),
      quickPick.onDidHide(() => {
        hidden = true;
        search.dispose();
        for (const s of subscriptions) s.dispose();
        quickPick.dispose();
        resolve(picked);
      }),
    ];
    quickPick.show();
    search.start().then(
      (first) => {
        if (hidden || first.total > 0) return;
        quickPick.hide();
        void vscode.window.showInformationMessage(options.emptyMessage);
      },
      (e: unknown) => {
        if (hidden) return;
        quickPick.hide();
        void vscode.window.showErrorMessage(`Kube GC Lens: cannot list the live objects: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  });
}
