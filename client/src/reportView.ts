// Where a Simulate Delete report (or the Report of other requests: a finalizer removed, a workload scaled) is
// shown. The markdown (logic/reportMarkdown.ts) is served as a read-only
// virtual document (scheme kube-gc-lens-report) and shown in a webview, rendered by VS Code's own markdown
// renderer (`markdown.api.render`, the engine behind the markdown preview).
//
// Why a webview and not `markdown.showPreview` of that document: every object in the report links to its
// source, and the markdown preview follows neither kind of link. It ignores `command:` links on purpose
// (microsoft/vscode#215939, "disabled for security reasons") and webviews do not open `file:` links (markdown-it
// does not even render them as links). Our webview allows exactly two commands, kubeGcLens.revealLocation
// and kubeGcLens.showInGraph (`enableCommandUris`), runs no script and loads nothing (reportHtml.ts). Without the markdown extension, the
// virtual document opens in a text editor, where the same `command:` links are ctrl+click-able.

import * as vscode from 'vscode';
import { reportPage } from './logic/reportHtml';
import { loadingPage } from './logic/reportLoading';
import {
  REVEAL_LOCATION_COMMAND,
  renderSimulateReport,
  reportTitle,
  SHOW_IN_GRAPH,
  type ReportSource,
  type ShownReport,
} from './logic/reportMarkdown';

export const REPORT_SCHEME = 'kube-gc-lens-report';
/** Reports kept for their virtual documents; older ones say they are gone. */
const KEPT_REPORTS = 20;

export class ReportView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly reports = new Map<string, string>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  private panel: vscode.WebviewPanel | undefined;
  private sequence = 0;
  /** The skeleton shown while a report is computed (showLoading), until a report or its `done()`. */
  private loading: { panel: vscode.WebviewPanel } | undefined;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.toString()) ?? 'This report is no longer kept. Run **Simulate Delete…** again.\n';
  }

  /** `source.cluster`: the report was computed on that live cluster (it says so, and what it could not read). */
  async show(report: ShownReport, source: ReportSource = {}): Promise<void> {
    const markdown = renderSimulateReport(report, { ...source, graphLink: true });
    const title = reportTitle(report, source);
    const uri = this.remember(title, markdown);
    let body: unknown;
    try {
      body = await vscode.commands.executeCommand('markdown.api.render', markdown);
    } catch {
      body = undefined; // the markdown extension is disabled
    }
    if (typeof body !== 'string') {
      if (this.loading) {
        this.loading = undefined;
        this.panel?.dispose(); // it holds the skeleton: the report opens as a document instead
      }
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
      return;
    }
    this.loading = undefined;
    const panel = this.reusablePanel(title);
    panel.title = title;
    panel.webview.html = reportPage(title, body);
  }

  /**
   * Shows the title and a skeleton in the report panel while a report is computed (instead of a blank page).
   * `done()` undoes it when no report follows (cancelled, failed): the previous report comes back, or a panel
   * opened for it closes. A report shown meanwhile (`show`) replaces the skeleton for good.
   */
  showLoading(title: string, message: string): { update(message: string): void; done(): void } {
    const existed = this.panel !== undefined;
    const panel = this.reusablePanel(title);
    const previous = { title: panel.title, html: panel.webview.html };
    const loading = { panel };
    this.loading = loading;
    panel.title = title;
    panel.webview.html = loadingPage(title, message);
    const current = () => this.loading === loading && this.panel === panel;
    return {
      update: (m) => {
        if (current()) panel.webview.html = loadingPage(title, m);
      },
      done: () => {
        if (!current()) return;
        this.loading = undefined;
        if (!existed) panel.dispose();
        else {
          panel.title = previous.title;
          panel.webview.html = previous.html;
        }
      },
    };
  }

  dispose(): void {
    this.panel?.dispose();
    this.registration.dispose();
    this.changeEmitter.dispose();
  }

  private remember(title: string, markdown: string): vscode.Uri {
    // The path ends in .md, so the document opens as markdown; the number keeps reports apart.
    const file =
      title
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 120) || 'report';
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${++this.sequence}/${file}.md` });
    this.reports.set(uri.toString(), markdown);
    while (this.reports.size > KEPT_REPORTS) this.reports.delete(this.reports.keys().next().value!);
    return uri;
  }

  /** One report panel, reused: a new simulation replaces the previous report, as a results view does. */
  private reusablePanel(title: string): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal(this.panel.viewColumn ?? vscode.ViewColumn.Beside, false);
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      'kubeGcLens.report',
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: false,
        enableForms: false,
        enableCommandUris: [REVEAL_LOCATION_COMMAND, SHOW_IN_GRAPH],
        enableFindWidget: true,
        localResourceRoots: [],
      },
    );
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }
}
