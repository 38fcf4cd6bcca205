// The language server in this process: the same connection.ts bindings and KubeGcLensServer as dist/server.js, over
// a pair of in-memory streams, without main.ts (no process-wide handlers, no stdio). Its watchdog never ends the
// process: an `exit` notification only closes the connection.

import { PassThrough } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { createConnection, createProtocolConnection, ProposedFeatures, type Connection, type WatchDog } from 'vscode-languageserver';
import { serveConnection } from '../../server/src/lsp/connection';

export interface InMemoryServer {
  /** The client's end: what the server writes, and where to write to it. */
  reader: StreamMessageReader;
  writer: StreamMessageWriter;
  /** The server's end, to read what it wrote with a second reader. */
  output: PassThrough;
  input: PassThrough;
  dispose(): void;
}

export function startInMemoryServer(): InMemoryServer {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let shutdownReceived = false;
  const watchDog: WatchDog = {
    initialize: () => undefined,
    get shutdownReceived() {
      return shutdownReceived;
    },
    set shutdownReceived(value) {
      shutdownReceived = value;
    },
    exit: () => server.dispose(),
  };
  const server: Connection = createConnection(
    (logger) => createProtocolConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient), logger),
    watchDog,
    ProposedFeatures.all,
  );
  serveConnection(server);
  return {
    reader: new StreamMessageReader(toClient),
    writer: new StreamMessageWriter(toServer),
    output: toClient,
    input: toServer,
    dispose: () => server.dispose(),
  };
}
