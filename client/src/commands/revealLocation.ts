// kubeGcLens.revealLocation(uri, range): open the document and select the range. Used by the server's code
// lenses ("Owned by …"), the report's links and the Stuck Objects tree.

import * as vscode from 'vscode';
import { parseRevealArgs } from '../logic/revealArgs';

/** `options`: where to open it when no editor shows it yet, and whether to keep the focus where it is (the graph). */
export async function revealLocation(
  uriArg: unknown,
  rangeArg: unknown,
  options: { viewColumn?: vscode.ViewColumn; preserveFocus?: boolean } = {},
): Promise<void> {
  const target = parseRevealArgs(uriArg, rangeArg);
  if (!target) {
    void vscode.window.showErrorMessage('Kube GC Lens: this link does not name a document and a range.');
    return;
  }
  const uri = vscode.Uri.parse(target.uri, true);
  const { start, end } = target.range;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  // Reuse the editor already showing the document; from the report (a webview, so no active text editor) open
  // it in the first column rather than on top of the report.
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  const viewColumn = visible?.viewColumn ?? options.viewColumn ?? vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.One;
  const editor = await vscode.window.showTextDocument(uri, {
    selection: range,
    viewColumn,
    preview: true,
    preserveFocus: options.preserveFocus,
  });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
