// `kube-gc-lens-server`: the language server process. VS Code starts it over IPC; any other editor runs
// `kube-gc-lens-server --stdio`. With --stdio, stdout belongs to LSP: console output goes to the client's log.

import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { serveConnection } from './connection';

const TRANSPORTS = ['--stdio', '--node-ipc', '--socket=', '--pipe=', '--clientProcessId'];

const USAGE = `kube-gc-lens-server: the Kube GC Lens language server (LSP).

Usage: kube-gc-lens-server --stdio        speak LSP on stdin/stdout (Neovim, Helix, Emacs, Sublime…)
       kube-gc-lens-server --node-ipc     speak LSP over Node IPC (how VS Code starts it)
       kube-gc-lens-server --socket=PORT  speak LSP over a TCP socket
`;

function main(): void {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stderr.write(USAGE);
    process.exitCode = 0;
    return;
  }
  if (!args.some((a) => TRANSPORTS.some((t) => a.startsWith(t)))) {
    process.stderr.write(`kube-gc-lens-server: no transport given.\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const connection = createConnection(ProposedFeatures.all);
  // Nothing may write to stdout but the connection: route console output to the client's log.
  console.log = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.info = (...a: unknown[]) => connection.console.info(a.map(String).join(' '));
  console.warn = (...a: unknown[]) => connection.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => connection.console.error(a.map(String).join(' '));
  console.debug = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  // A bug in one request must not take the editor features down: log it and keep serving.
  process.on('uncaughtException', (e) =>
    connection.console.error(`Unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );
  process.on('unhandledRejection', (e) =>
    connection.console.error(`Unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );
  serveConnection(connection);
}

main();
