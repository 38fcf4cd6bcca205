// Simulate Delete…: which object (the one at the cursor first), which policy, then the report.
// Code lenses call it with (uid, 'default') and skip both questions; the tree passes a uid only.
// While connected to a cluster it first asks where: the workspace's manifests or the live cluster. A live object
// is named by `{source: 'cluster', uid}` (the tree's live section; live documents' lenses) and simulated with
// ClusterSimulateRequest on the live graph; the report says so, and what the connection could not read.

import * as vscode from 'vscode';
import {
  ClusterSimulateRequest,
  ObjectAtRequest,
  ObjectsRequest,
  SimulateRequest,
  type ObjectSummary,
  type PolicyChoice,
} from '../../../shared/src/protocol';
import type { LazyLanguageClient } from '../lazyClient';
import { pickLiveObject as pickFromCluster } from '../liveObjectPicker';
import { contextName } from '../logic/clusterState';
import { KUBERNETES_LANGUAGES } from '../logic/looksLikeKubernetes';
import {
  isPolicyChoice,
  objectPickItems,
  parseSimulateTarget,
  POLICY_PICK_ITEMS,
  sourcePickItems,
  type SimulateTarget,
} from '../logic/pickItems';
import { describeObject } from '../logic/objects';
import { simulateLogText } from '../logic/activityText';
import { POLICY_LABELS } from '../logic/reportMarkdown';
import { showSimulation, type SimulateDeps } from './simulationProgress';

export async function simulateDelete(deps: SimulateDeps, targetArg?: unknown, policyArg?: unknown): Promise<void> {
  const { client, cluster } = deps;
  // From the editor's context menu the first argument is the document's Uri, not a uid.
  const target: (SimulateTarget & { steps?: Steps }) | undefined = parseSimulateTarget(targetArg) ?? (await pickTarget(deps));
  if (target === undefined) return;
  const policy = isPolicyChoice(policyArg) ? policyArg : await pickPolicy(target.steps);
  if (policy === undefined) return;
  const live = target.source === 'cluster';
  const context = live ? (contextName(cluster.state) ?? 'the cluster') : undefined;
  await showSimulation(deps, {
    context,
    doing: 'simulating the deletion',
    panelTitle: `Simulate Delete${live ? ` on ${context}` : ''} (${POLICY_LABELS[policy]})`,
    panelText: (waiting) => `Simulating the deletion: ${waiting}`,
    ask: (token) => client.request(live ? ClusterSimulateRequest : SimulateRequest, { uid: target.uid, policy }, token),
    logText: (report, timing) =>
      simulateLogText({ target: describeObject(report.target), policy: POLICY_LABELS[policy], cluster: context, ...timing }),
  });
}

/** The target and how many questions there are in all (for the quick picks' "(n/m)" titles). */
type Picked = SimulateTarget & { steps: Steps };
interface Steps {
  done: number;
  total: number;
}

async function pickTarget(deps: SimulateDeps): Promise<Picked | undefined> {
  const { client, cluster } = deps;
  const editor = vscode.window.activeTextEditor;
  const inManifest = editor !== undefined && KUBERNETES_LANGUAGES.includes(editor.document.languageId);
  const atCursor = inManifest
    ? client.uriOf(editor.document.uri).then((uri) =>
        client.request(ObjectAtRequest, {
          uri,
          position: { line: editor.selection.active.line, character: editor.selection.active.character },
        }),
      )
    : Promise.resolve(null);
  const context = cluster.state.phase === 'connected' ? contextName(cluster.state) : undefined;
  if (context === undefined) {
    const uid = await pickObject(client, atCursor, { done: 0, total: 2 });
    return uid === undefined ? undefined : { source: 'workspace', uid, steps: { done: 1, total: 2 } };
  }
  const cursorObject = await atCursor;
  const where = await vscode.window.showQuickPick(sourcePickItems(context, cursorObject ? describeObject(cursorObject) : undefined), {
    title: 'Simulate Delete (1/3)',
    placeHolder: "Delete an object of the workspace's manifests, or of the live cluster?",
  });
  if (!where) return undefined;
  const steps = { done: 1, total: 3 };
  const uid =
    where.source === 'cluster'
      ? await pickLiveObject(client, context, cursorObject, steps)
      : await pickObject(client, Promise.resolve(cursorObject), steps);
  return uid === undefined ? undefined : { source: where.source, uid, steps: { done: 2, total: 3 } };
}

async function pickObject(
  client: LazyLanguageClient,
  atCursorPromise: Promise<ObjectSummary | null>,
  steps: Steps,
): Promise<string | undefined> {
  const [objects, atCursor] = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Kube GC Lens: listing objects' },
    async () => Promise.all([client.request(ObjectsRequest, {}), atCursorPromise]),
  );
  if (objects.length === 0) {
    void vscode.window.showInformationMessage('Kube GC Lens: no Kubernetes object in the workspace yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(objectPickItems(objects, atCursor?.uid), {
    title: `Simulate Delete (${steps.done + 1}/${steps.total})`,
    placeHolder: atCursor ? `Delete ${describeObject(atCursor)}, or pick another object` : 'Which object to delete?',
    matchOnDescription: true,
  });
  return picked?.uid;
}

/**
 * The live objects, searched on the server as the user types (liveObjectPicker.ts); the one the manifest at the cursor
 * describes (same uid, or same group, kind, namespace and name) first.
 */
async function pickLiveObject(
  client: LazyLanguageClient,
  context: string,
  atCursor: ObjectSummary | null,
  steps: Steps,
): Promise<string | undefined> {
  const picked = await pickFromCluster(client, {
    title: `Simulate Delete on ${context} (${steps.done + 1}/${steps.total})`,
    placeholder: (match) =>
      match ? `Delete the live ${describeObject(match)}, or pick another live object` : `Which live object of ${context} to delete?`,
    atCursor,
    emptyMessage: `Kube GC Lens: the live cluster ${context} has no objects in scope.`,
  });
  return picked?.uid;
}

async function pickPolicy(steps: Steps = { done: 1, total: 2 }): Promise<PolicyChoice | undefined> {
  const picked = await vscode.window.showQuickPick(POLICY_PICK_ITEMS, {
    title: `Simulate Delete (${steps.done + 1}/${steps.total})`,
    placeHolder: 'Which propagation policy does the DELETE request carry?',
  });
  return picked?.policy;
}
