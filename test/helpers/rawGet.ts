// One GET with the kubeconfig's credentials and exactly the headers given, its body as sent (not decompressed): what
// a server answers a client that asks for gzip, or does not, seen byte for byte.
import * as https from 'node:https';
import * as http from 'node:http';
import type { ClusterTarget } from '../../server/src/sources/cluster/kubeconfig';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it came over the wire. */
  body: Buffer;
}

export async function rawGet(target: ClusterTarget, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const opts: https.RequestOptions = { headers: {} };
  await target.applyAuth(opts);
  const url = new URL(path, target.server);
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      { ...opts, method: 'GET', agent: false, headers: { ...(opts.headers as Record<string, string>), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
