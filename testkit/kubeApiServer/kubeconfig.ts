// The kubeconfig a client needs to reach the test server: the CA inline (certificate-authority-data, as cloud
// providers write it) and a bearer token.
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  context?: string;
  namespace?: string;
  /** 'token' (the default): a user with the server's token (any token when the server requires none); 'none': no credentials */
  user?: 'token' | 'none';
}

export const TEST_USER = 'test';

export function kubeconfigText(server: string, caPem: string | undefined, token: string | undefined, opts: KubeconfigOptions = {}): string {
  const context = opts.context ?? 'kube-api-test';
  const user = opts.user ?? 'token';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'kube-api-test',
        cluster: { server, ...(caPem ? { 'certificate-authority-data': Buffer.from(caPem).toString('base64') } : {}) },
      },
    ],
    users: [{ name: TEST_USER, user: user === 'token' ? { token: token ?? 'kube-api-test-token' } : {} }],
    contexts: [
      {
        name: context,
        context: { cluster: 'kube-api-test', user: TEST_USER, ...(opts.namespace ? { namespace: opts.namespace } : {}) },
      },
    ],
    'current-context': context,
    preferences: {},
  });
}
