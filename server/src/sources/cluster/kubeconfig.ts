// Which cluster, as the user's kubeconfig says, through @kubernetes/client-node (every auth it supports:
// tokens, client certificates, basic auth, OIDC, exec plugins). Files are found as kubectl finds them:
// --kubeconfig, else KUBECONFIG (a list of files, merged), else ~/.kube/config. Commands from a kubeconfig
// (exec plugins, the gcp/azure auth providers' cmd-path) only run when the caller allows it: the editor
// allows them in trusted workspaces only.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type * as https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

export class KubeconfigError extends Error {}

export interface KubeconfigOptions {
  /** An explicit kubeconfig file (kubectl's --kubeconfig). */
  kubeconfig?: string;
  /** A context other than the current one (kubectl's --context). */
  context?: string;
  /** May the kubeconfig run commands (exec plugins, auth-provider cmd-path)? */
  allowExec: boolean;
  env?: Record<string, string | undefined>;
}

export interface ContextInfo {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
  server?: string;
  current: boolean;
}

/** A resolved connection target: everything the API client needs, nothing it can write with. */
export interface ClusterTarget {
  context: string;
  server: string;
  /** The context's namespace, or "default" (what kubectl uses without -n). */
  namespace: string;
  user: string;
  /** Requests go through a proxy agent made by the library (cluster.proxy-url). */
  proxied: boolean;
  /** Sets TLS material, credentials and, for proxies, the agent on request options. */
  applyAuth(opts: https.RequestOptions): Promise<void>;
}

/** The kubeconfig files kubectl would read, in merge order. */
export function kubeconfigFiles(opts: Pick<KubeconfigOptions, 'kubeconfig' | 'env'>): string[] {
  const env = opts.env ?? process.env;
  if (opts.kubeconfig) return [opts.kubeconfig];
  if (env.KUBECONFIG) return env.KUBECONFIG.split(delimiter).filter(Boolean);
  return [join(env.HOME || homedir(), '.kube', 'config')];
}

export function loadKubeConfig(opts: Pick<KubeconfigOptions, 'kubeconfig' | 'env'>): KubeConfig {
  const files = kubeconfigFiles(opts);
  const present = files.filter((f) => existsSync(f));
  if (present.length === 0) {
    const where = opts.kubeconfig
      ? `--kubeconfig ${opts.kubeconfig}`
      : (opts.env ?? process.env).KUBECONFIG
        ? `KUBECONFIG (${files.join(delimiter)})`
        : files[0];
    throw new KubeconfigError(`no kubeconfig found: ${where} does not exist. Point KUBECONFIG or --kubeconfig at one, as for kubectl.`);
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(present[0]);
    for (const f of present.slice(1)) {
      const more = new KubeConfig();
      more.loadFromFile(f);
      kc.mergeConfig(more);
    }
  } catch (e) {
    throw new KubeconfigError(`cannot read the kubeconfig ${present.join(', ')}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return kc;
}

export function listContexts(kc: KubeConfig): ContextInfo[] {
  const current = kc.getCurrentContext();
  return kc.getContexts().map((c) => ({
    name: c.name,
    cluster: c.cluster,
    user: c.user,
    namespace: c.namespace,
    server: kc.getCluster(c.cluster)?.server,
    current: c.name === current,
  }));
}

export function resolveTarget(opts: KubeconfigOptions): ClusterTarget {
  const kc = loadKubeConfig(opts);
  if (opts.context) {
    if (!kc.getContextObject(opts.context)) {
      const names = kc.getContexts().map((c) => c.name);
      throw new KubeconfigError(
        `context "${opts.context}" is not in the kubeconfig${names.length ? ` (it has: ${names.join(', ')})` : ''}`,
      );
    }
    kc.setCurrentContext(opts.context);
  }
  const contextName = kc.getCurrentContext();
  const context = kc.getContextObject(contextName);
  if (!contextName || !context)
    throw new KubeconfigError('the kubeconfig has no current context: pass --context, or run `kubectl config use-context NAME`');
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server)
    throw new KubeconfigError(`context "${contextName}" names cluster "${context.cluster}", which has no server in the kubeconfig`);
  const user = kc.getCurrentUser();
  const runs = user ? commandOf(user) : undefined;
  if (runs && !opts.allowExec) {
    throw new KubeconfigError(
      `context "${contextName}" authenticates by running a command (${runs}); commands from a kubeconfig run only in a trusted workspace`,
    );
  }
  if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
    throw new KubeconfigError(
      `cluster "${cluster.name}" is served over plain http (${cluster.server}); @kubernetes/client-node requires insecure-skip-tls-verify: true for that`,
    );
  }
  return {
    context: contextName,
    server: cluster.server,
    namespace: context.namespace || 'default',
    user: context.user,
    proxied: Boolean(cluster.proxyUrl),
    applyAuth: (o) => kc.applyToHTTPSOptions(o),
  };
}

/** The command a kubeconfig user runs to authenticate, if any. */
function commandOf(user: {
  exec?: { command?: string };
  authProvider?: { name?: string; config?: Record<string, string> };
}): string | undefined {
  if (user.exec?.command) return `exec plugin ${user.exec.command}`;
  const cmd = user.authProvider?.config?.['cmd-path'];
  if (cmd) return `auth provider ${user.authProvider?.name ?? ''} cmd-path ${cmd}`.replace('  ', ' ');
  return undefined;
}
