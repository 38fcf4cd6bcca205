// The one way the server registers a custom request (shared/src/wire/methods.ts): its params are checked first, against the
// method's validator in REQUEST_PARAMS, and params that are not what the wire module says get JSON-RPC InvalidParams
// (-32602) naming the first bad field ("kubeGcLens/simulate: params.uid must be a string"), so no handler ever
// reads a field of null or of the wrong type. A method without a validator cannot be registered.

import {
  ErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type RequestType,
  type RequestType0,
} from 'vscode-languageserver';
import { ClusterUnavailable } from '../app/liveSession';
import { REQUEST_PARAMS, validateRequestParams } from './methods';

type Answer<R> = R | Promise<R>;

export function onCustomRequest<P, R>(
  c: Connection,
  type: RequestType<P, R, void>,
  handler: (params: P, token: CancellationToken) => Answer<R>,
): void;
export function onCustomRequest<R>(c: Connection, type: RequestType0<R, void>, handler: (token: CancellationToken) => Answer<R>): void;
export function onCustomRequest(
  c: Connection,
  type: RequestType<unknown, unknown, void> | RequestType0<unknown, void>,
  handler: (...args: never[]) => Answer<unknown>,
): void {
  const method = type.method;
  if (!REQUEST_PARAMS.has(method)) throw new Error(`${method} has no params validator (shared/src/wire/validate.ts)`);
  const takesParams = type.numberOfParams > 0;
  // Registered by name, so the connection checks nothing itself and calls the handler with (params, token), (token)
  // when there are none, or (...array, token) for positional params: [x] reads as x, as vscode-jsonrpc sends it.
  c.onRequest(method, (...args: unknown[]) => {
    const token = args.pop() as CancellationToken;
    const params = args.length === 0 ? undefined : args.length === 1 ? args[0] : args;
    const problem = validateRequestParams(method, params);
    if (problem) throw new ResponseError(ErrorCodes.InvalidParams, problem);
    const call = handler as (...a: unknown[]) => Answer<unknown>;
    return asResponseError(() => (takesParams ? call(params, token) : call(token)));
  });
}

/**
 * The server listens to no custom notification (kubeGcLens/status and cluster/status go to the client). One sent to it
 * anyway, whatever its params, is dropped, and said once per method in the client's log (never on stdout).
 * Notifications of other namespaces without a handler are dropped silently, as the connection always did.
 */
export function ignoreCustomNotifications(c: Connection): void {
  const said = new Set<string>();
  c.onNotification((method: string) => {
    if (!method.startsWith('kubeGcLens/') || said.has(method)) return;
    said.add(method);
    c.console.log(`Ignored the notification ${method.slice(0, 200)}: the server does not listen to it.`);
  });
}

/** The application layer's errors as JSON-RPC errors: a cluster that cannot be used keeps its own code. */
async function asResponseError<T>(answer: () => Answer<T>): Promise<T> {
  try {
    return await answer();
  } catch (e) {
    if (e instanceof ClusterUnavailable) throw new ResponseError(e.code, e.message);
    throw e;
  }
}
