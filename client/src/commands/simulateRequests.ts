// Simulating a change besides DELETE (issue 18): the "Simulate …" code actions (removing a finalizer or an
// ownerReference, scaling a workload: the count asked first) and a way out's Open Simulated Report. Asks
// kubeGcLens/simulateRequests (cluster/simulateRequests for a live object) and shows the Report as Simulate Delete does.

import * as vscode from 'vscode';
import { ClusterSimulateRequestsRequest, SimulateRequestsRequest, type PlanRequest } from '../../../shared/src/protocol';
import { contextName } from '../logic/clusterState';
import { simulateRequestsLogText } from '../logic/activityText';
import { replicasProblem, scaleRequest, targetName, type SimulateRequestsTarget } from '../logic/simulateRequests';
import { showSimulation, type SimulateDeps } from './simulationProgress';

export async function simulateRequests(deps: SimulateDeps, target: SimulateRequestsTarget | undefined): Promise<void> {
  if (!target) return;
  const requests = 'requests' in target ? target.requests : await askScale(target);
  if (!requests) return;
  const { client, cluster } = deps;
  const live = target.source === 'cluster';
  const context = live ? (contextName(cluster.state) ?? 'the cluster') : undefined;
  await showSimulation(deps, {
    context,
    doing: 'simulating',
    panelTitle: `Simulate${live ? ` on ${context}` : ''}`,
    panelText: (waiting) => `Simulating: ${waiting}`,
    ask: (token) => client.request(live ? ClusterSimulateRequestsRequest : SimulateRequestsRequest, { requests }, token),
    logText: (report, timing) => simulateRequestsLogText({ subject: report.subject, cluster: context, ...timing }),
  });
}

/** The replica count, asked in an input box that says what is wrong as the user types. */
async function askScale(target: Extract<SimulateRequestsTarget, { scale: unknown }>): Promise<PlanRequest[] | undefined> {
  const value = await vscode.window.showInputBox({
    title: `Simulate scaling ${targetName(target.scale)}`,
    prompt: 'To how many replicas? The report shows what the change releases (nothing is sent to any cluster).',
    value: String(target.replicas),
    validateInput: replicasProblem,
  });
  if (value === undefined || replicasProblem(value) !== undefined) return undefined;
  return [scaleRequest(target.scale, value)];
}
