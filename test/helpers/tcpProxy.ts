// A loopback TCP proxy (node:net) that terminates nothing: bytes pass as they are, TLS included, so the client talks
// to whatever server is behind it with its own credentials. `retarget` points it at another server (a cluster
// replaced behind the same URL, a load balancer moved): open connections are cut, new ones go to the new server.
import * as net from 'node:net';

export interface TcpProxy {
  /** The port clients connect to, on 127.0.0.1. */
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Sends new connections to `upstream` (`https://127.0.0.1:1234` or a port) and cuts the open ones. */
  retarget(upstream: string | number): void;
  close(): Promise<void>;
}

const portOf = (upstream: string | number) => (typeof upstream === 'number' ? upstream : Number(new URL(upstream).port));

export async function startTcpProxy(upstream: string | number): Promise<TcpProxy> {
  let target = portOf(upstream);
  let accepted = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    accepted++;
    const server_ = net.connect({ host: '127.0.0.1', port: target });
    open.add(client);
    open.add(server_);
    const cut = () => {
      client.destroy();
      server_.destroy();
      open.delete(client);
      open.delete(server_);
    };
    client.on('error', cut).on('close', cut);
    server_.on('error', cut).on('close', cut);
    client.pipe(server_);
    server_.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => accepted,
    retarget(next) {
      target = portOf(next);
      for (const s of [...open]) s.destroy();
      open.clear();
    },
    close() {
      for (const s of [...open]) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
