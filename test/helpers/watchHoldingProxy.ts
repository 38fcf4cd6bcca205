// A loopback proxy in front of a real control plane that can hold back watch events, the way a user's view lags its
// cluster (a slow link, a congested apiserver, a watch cache behind): the product connects to it over plain http
// (a kubeconfig with insecure-skip-tls-verify, no credentials of its own) and every request goes on to the apiserver
// with the admin's credentials and the product's own headers (its User-Agent reaches the audit log). While held, the
// bytes of every watch response are kept, in order, and released with release(); every other request passes.

import * as http from 'node:http';
import * as https from 'node:https';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';

export interface WatchHoldingProxy {
  /** A kubeconfig (context "proxied") that reaches the control plane through the proxy. */
  kubeconfig: string;
  /** From now on, watch events are kept back. */
  hold(): void;
  /** Sends what was kept, and lets watch events through again. */
  release(): void;
  close(): Promise<void>;
}

export async function startWatchHoldingProxy(upstreamKubeconfig: string, dir: string, context = 'admin'): Promise<WatchHoldingProxy> {
  const target = resolveTarget({ kubeconfig: upstreamKubeconfig, context, allowExec: false });
  const auth: https.RequestOptions = { headers: {} };
  await target.applyAuth(auth);
  const upstream = new URL(target.server);
  let held = false;
  const kept: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const watch = /[?&]watch=(true|1)(&|$)/.test(req.url ?? '');
    const headers = { ...req.headers, host: upstream.host, ...(auth.headers as Record<string, string>) };
    const out = https.request(
      { ...auth, method: req.method, hostname: upstream.hostname, port: upstream.port, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          if (watch && held) kept.push(() => res.write(chunk));
          else res.write(chunk);
        });
        answer.on('end', () => (watch && held ? kept.push(() => res.end()) : res.end()));
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const kubeconfig = path.join(dir, 'proxied-kubeconfig.yaml');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{ name: proxied, cluster: { server: "http://127.0.0.1:' + port + '", insecure-skip-tls-verify: true } }]',
      'users: [{ name: proxied, user: {} }]',
      'contexts: [{ name: proxied, context: { cluster: proxied, user: proxied } }]',
      'current-context: proxied',
      '',
    ].join('\n'),
  );
  return {
    kubeconfig,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const send of kept.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
