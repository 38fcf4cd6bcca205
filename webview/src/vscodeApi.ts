// The VS Code webview API the page gets (acquireVsCodeApi, callable once), typed for what we use.

import type { WebviewToHostMessage } from './model/protocolTypes';

export interface VsCodeApi {
  postMessage(message: WebviewToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function vscodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}
