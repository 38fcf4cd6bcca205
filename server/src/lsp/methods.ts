// The editor protocol's methods (shared/src/wire/methods.ts) as the LSP library's request and notification types,
// for the connection, and the params table with the server's own check of a kube-controller-manager list.

import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver';
import * as wire from '../../../shared/src/wire/methods';
import { requestParamsTable } from '../../../shared/src/wire/validate';
import { parseControllers } from '../engine/simulation/controllerSet';

type AsLsp<D> =
  D extends wire.RequestDescriptor<infer P, infer R>
    ? [P] extends [void]
      ? RequestType0<R, void>
      : RequestType<P, R, void>
    : D extends wire.NotificationDescriptor<infer P>
      ? NotificationType<P>
      : never;

function asLsp<D extends wire.RequestDescriptor<never, unknown> | wire.NotificationDescriptor<never>>(d: D): AsLsp<D> {
  if (d.kind === 'notification') return new NotificationType(d.method) as AsLsp<D>;
  return (d.params === 0 ? new RequestType0(d.method) : new RequestType(d.method)) as AsLsp<D>;
}

export const SimulateRequest = asLsp(wire.SimulateRequest);
export const SimulateRequestsRequest = asLsp(wire.SimulateRequestsRequest);
export const ObjectsRequest = asLsp(wire.ObjectsRequest);
export const ObjectAtRequest = asLsp(wire.ObjectAtRequest);
export const StuckRequest = asLsp(wire.StuckRequest);
export const GraphRequest = asLsp(wire.GraphRequest);
export const CheckRequest = asLsp(wire.CheckRequest);
export const StatusNotification = asLsp(wire.StatusNotification);
export const ClusterContextsRequest = asLsp(wire.ClusterContextsRequest);
export const ClusterConnectRequest = asLsp(wire.ClusterConnectRequest);
export const ClusterDisconnectRequest = asLsp(wire.ClusterDisconnectRequest);
export const ClusterStatusNotification = asLsp(wire.ClusterStatusNotification);
export const ClusterSimulateRequest = asLsp(wire.ClusterSimulateRequest);
export const ClusterSimulateRequestsRequest = asLsp(wire.ClusterSimulateRequestsRequest);
export const ClusterStuckRequest = asLsp(wire.ClusterStuckRequest);
export const ClusterObjectsRequest = asLsp(wire.ClusterObjectsRequest);
export const ClusterSearchObjectsRequest = asLsp(wire.ClusterSearchObjectsRequest);
export const ClusterGraphRequest = asLsp(wire.ClusterGraphRequest);
export const ClusterGraphSummaryRequest = asLsp(wire.ClusterGraphSummaryRequest);
export const ClusterDocumentRequest = asLsp(wire.ClusterDocumentRequest);
export const ClusterApplyWayOutRequest = asLsp(wire.ClusterApplyWayOutRequest);

/** Every client → server request's params validator, by method. */
export const REQUEST_PARAMS = requestParamsTable((v) => {
  const parsed = parseControllers(v);
  return 'error' in parsed ? parsed.error : undefined;
});

/** The first problem with a request's params ("kubeGcLens/simulate: params.uid must be a string"), or undefined. */
export function validateRequestParams(method: string, params: unknown): string | undefined {
  const validate = REQUEST_PARAMS.get(method);
  if (!validate) return `${method}: not a request of this protocol`;
  const problem = validate(params);
  return problem && `${method}: ${problem}`;
}
