// The webview's window on the wire module (shared/src/protocol.ts): the shapes the host sends and receives.

export type {
  FindingCode,
  GraphData,
  GraphEdgeData,
  GraphExportFormat,
  GraphNodeData,
  GraphRenderer,
  GraphScope,
  GraphSource,
  HostToWebviewMessage,
  PolicyChoice,
  SimulateReport,
  SimulationStep as SimulationStepData,
  WebviewToHostMessage,
} from '../../../shared/src/protocol';
