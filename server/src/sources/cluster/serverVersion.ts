// The cluster's own Kubernetes version (GET /version), so a simulation follows that version's behaviour where
// versions differ (engine/simulation/kubeVersion.ts). Read once per CLI run; a failure only means the default.

import type { ApiClient } from './apiClient';

export interface ServerVersion {
  /** `1.33`, as the simulation takes it; undefined when /version could not be read or parsed. */
  version?: string;
  /** Why it is not known (the request's error, or an answer without a version). */
  problem?: string;
}

/** `gitVersion` first (`v1.33.2-gke.100`), else `major`.`minor` (`"1"`, `"28+"`). */
export async function readServerVersion(client: ApiClient, signal?: AbortSignal): Promise<ServerVersion> {
  try {
    const body = await client.getJson<Record<string, unknown>>('/version', undefined, signal);
    const git = typeof body.gitVersion === 'string' ? /^v?(\d+)\.(\d+)/.exec(body.gitVersion) : null;
    if (git) return { version: `${git[1]}.${git[2]}` };
    const major = typeof body.major === 'string' ? /^\d+/.exec(body.major)?.[0] : undefined;
    const minor = typeof body.minor === 'string' ? /^\d+/.exec(body.minor)?.[0] : undefined;
    if (major && minor) return { version: `${major}.${minor}` };
    return { problem: '/version names no version' };
  } catch (e) {
    return { problem: `GET /version failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}
