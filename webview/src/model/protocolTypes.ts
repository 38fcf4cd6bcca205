// The webview's window on the one protocol module (server/src/protocol.ts): types only, so that no LSP library
// enters the webview bundle (eslint.config.mjs allows only type imports of it from webview/).

export type {
  GraphData, GraphEdgeData, GraphExportFormat, GraphNodeData, GraphRenderer, GraphScope, GraphSource, HostToWebviewMessage,
  PolicyChoice, SimulateReport, WebviewToHostMessage,
} from '../../../server/src/protocol';
export type { FindingCode } from '../../../server/src/engine/analysis/findingTypes';
export type { SimulationStep as SimulationStepData } from '../../../server/src/engine/simulation/types';
