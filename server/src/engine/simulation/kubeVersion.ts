// Which Kubernetes version's behaviour a simulation follows. The rules are read from 1.33–1.37; where an older
// version behaves differently (docs/gc-rules.md, "Versions") the simulation follows the version asked for.

export interface KubeVersion {
  major: number;
  minor: number;
}

/** The newest version the simulation follows, and the default for files. */
export const NEWEST_KUBE_VERSION: KubeVersion = { major: 1, minor: 37 };

/** `1.32`, `v1.32.4`, `1.32.4-gke.100`, or a `/version` answer's major and minor (`"1"`, `"28+"`). */
export function parseKubeVersion(text: string): KubeVersion | undefined {
  const m = /^v?(\d+)\.(\d+)\+?(?:[.-].*)?$/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

export function kubeVersionText(v: KubeVersion): string {
  return `${v.major}.${v.minor}`;
}

export function atLeast(v: KubeVersion, major: number, minor: number): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

/** R57: OrderedNamespaceDeletion is on by default from 1.33 (beta) and locked on from 1.34. */
export function orderedNamespaceDeletion(v: KubeVersion): boolean {
  return atLeast(v, 1, 33);
}
