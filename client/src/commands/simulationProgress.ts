// From a simulation's request until its report is on screen (a first one waits for the workspace and the markdown
// renderer): a notification that can cancel, the report panel's title with a skeleton instead of a blank page, and
// a line in the Output channel with how long it took. Simulate Delete and the other requests share it.

import * as vscode from 'vscode';
import { simulateProgressMessage } from '../logic/activityText';
import type { ShownReport } from '../logic/reportMarkdown';
import type { ClusterConnection } from '../cluster';
import type { LazyLanguageClient } from '../lazyClient';
import type { ReportView } from '../reportView';

/** What a simulation command needs: the language client, the report view and the cluster connection. */
export interface SimulateDeps {
  client: LazyLanguageClient;
  reports: ReportView;
  cluster: ClusterConnection;
}

export interface SimulationRun<R extends ShownReport> {
  /** On a live object, the cluster's context; absent: the workspace's manifests. */
  context?: string;
  /** The notification's title ("simulating the deletion"). */
  doing: string;
  /** The report panel's title, and its text while waiting (`waiting`: what the server is still doing). */
  panelTitle: string;
  panelText: (waiting: string) => string;
  ask: (token: vscode.CancellationToken) => Promise<R | null>;
  /** The Output channel's line once shown. */
  logText: (report: R, timing: { answeredMs: number; shownMs: number }) => string;
}

export async function showSimulation<R extends ShownReport>(deps: SimulateDeps, run: SimulationRun<R>): Promise<void> {
  const { client, reports } = deps;
  const live = run.context !== undefined;
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Kube GC Lens: ${run.doing}${live ? ` on ${run.context}` : ''}…`,
      cancellable: true,
    },
    async (progress, token) => {
      const waiting = live ? simulateProgressMessage('ready') : simulateProgressMessage(client.status?.state);
      progress.report({ message: waiting });
      const loading = reports.showLoading(run.panelTitle, run.panelText(waiting));
      try {
        const asked = performance.now();
        const report = await run.ask(token);
        const answered = performance.now();
        if (report === null) {
          loading.done();
          void vscode.window.showWarningMessage(`Kube GC Lens: that object is no longer in the ${live ? 'live cluster' : 'workspace'}.`);
          return;
        }
        progress.report({ message: 'showing the report…' });
        await reports.show(report, live ? { cluster: run.context } : {});
        client.output.info(run.logText(report, { answeredMs: answered - asked, shownMs: performance.now() - answered }));
      } catch (e) {
        loading.done();
        throw e;
      }
    },
  );
}
