// The language server in this process (testkit/lsp/inMemoryServer.ts), with a raw writer for JSON-RPC messages the
// client library cannot send (`params: null`, no params, an array) and a second reader for their answers.

import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { InitializedNotification, InitializeRequest } from 'vscode-languageserver-protocol';
import { type ServerStatus } from '../../shared/src/protocol';
import { StatusNotification } from '../../server/src/lsp/methods';
import { startInMemoryServer, type InMemoryServer } from '../../testkit/lsp/inMemoryServer';

/** A JSON-RPC answer as it came over the wire. */
export interface RawResponse {
  id: string;
  result?: unknown;
  error?: { code: number; message: string };
}

/** `raw(method, NO_PARAMS)`: a request without a params member. */
export const NO_PARAMS = Symbol('no params');

export class InProcessServer {
  readonly connection: ProtocolConnection;
  private readonly server: InMemoryServer;
  /** window/logMessage lines, as `type: message` (1 error, 2 warning, 3 info, 4 log). */
  readonly logs: string[] = [];
  private ready: Promise<void>;
  /** Writes JSON-RPC messages exactly as given (`params: null`, no params, an array…), which the client library cannot. */
  private readonly rawWriter: StreamMessageWriter;
  private readonly rawAnswers = new Map<string, (m: RawResponse) => void>();
  private rawId = 0;

  constructor() {
    this.server = startInMemoryServer();
    this.connection = createProtocolConnection(this.server.reader, this.server.writer);
    // A second reader on the server's output sees the answers to raw requests (the client connection drops them).
    new StreamMessageReader(this.server.output).listen((m) => {
      const id = (m as { id?: unknown }).id;
      if (typeof id === 'string') this.rawAnswers.get(id)?.(m as unknown as RawResponse);
    });
    this.rawWriter = new StreamMessageWriter(this.server.input);
    this.connection.onNotification('window/logMessage', (p: { type: number; message: string }) => {
      this.logs.push(`${p.type}: ${p.message}`);
    });
    this.ready = new Promise((resolve) => {
      this.connection.onNotification(StatusNotification, (s: ServerStatus) => {
        if (s.state === 'ready') resolve();
      });
    });
    this.connection.listen();
  }

  /** initialize (no folder, no parent process to watch) and initialized; resolves once the server is "ready". */
  async initialize(): Promise<void> {
    await this.connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, workspaceFolders: null, capabilities: {} });
    await this.connection.sendNotification(InitializedNotification.type, {});
    await this.ready;
  }

  /** Sends a request with exactly these params (`NO_PARAMS`: no params member) and resolves with the raw answer. */
  raw(method: string, params: unknown): Promise<RawResponse> {
    const id = `raw-${++this.rawId}`;
    const answered = new Promise<RawResponse>((resolve) => this.rawAnswers.set(id, resolve));
    const message = { jsonrpc: '2.0', id, method, ...(params === NO_PARAMS ? {} : { params }) };
    void this.rawWriter.write(message as Parameters<StreamMessageWriter['write']>[0]);
    return answered;
  }

  /** The same with params written as JSON text, framed by hand: values JSON.stringify cannot write (100,000 levels). */
  rawText(method: string, paramsJson: string): Promise<RawResponse> {
    const id = `raw-${++this.rawId}`;
    const answered = new Promise<RawResponse>((resolve) => this.rawAnswers.set(id, resolve));
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"params":${paramsJson}}`;
    this.server.input.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return answered;
  }

  dispose(): void {
    this.connection.dispose();
    this.server.dispose();
  }
}
