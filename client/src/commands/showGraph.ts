// Show Ownership Graph: the workspace's, or, while connected, the live cluster's (a quick pick asks which; on a large
// cluster a second one asks which namespace).

import * as vscode from 'vscode';
import type { ClusterConnection } from '../cluster';
import type { GraphPanels } from '../graph/graphPanel';
import { contextName } from '../logic/clusterState';
import { escapeIcons } from '../logic/pickItems';

export async function showGraph(graphs: GraphPanels, cluster: ClusterConnection): Promise<void> {
  const context = cluster.state.phase === 'connected' ? contextName(cluster.state) : undefined;
  if (!context) {
    graphs.show({ kind: 'workspace' });
    return;
  }
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Workspace manifests', description: 'every Kubernetes file of the workspace', source: 'workspace' as const },
      {
        label: `Live cluster (${escapeIcons(context)})`,
        description: 'read-only: the objects the connection lists',
        source: 'cluster' as const,
      },
    ],
    { title: 'Show Ownership Graph', placeHolder: "The graph of the workspace's manifests, or of the live cluster?" },
  );
  if (!picked) return;
  // A large cluster then asks which namespace (graph/graphPanel.ts, logic/graphScope.ts).
  if (picked.source === 'cluster') await graphs.showCluster(context);
  else graphs.show({ kind: 'workspace' });
}
