// Restricted Mode (an untrusted workspace): which settings a workspace may set for us, and reading the others from
// the user's settings only. package.json declares `capabilities.untrustedWorkspaces: {supported: "limited",
// restrictedConfigurations: [...RESTRICTED_SETTINGS]}`; test/client/workspaceTrust.test.ts checks that every
// contributed setting is in exactly one of the two lists below, so a new setting cannot be forgotten.
//
// Reading manifests is safe: the language server only reads files and nothing it reads leaves the machine. What a
// repository must not choose is what we do with a cluster, with the user's credentials.

/**
 * Settings a workspace could abuse, and why: VS Code gives an extension only the user's value of these in Restricted
 * Mode, and readTrusted() enforces the same: VS Code 1.99 still serves an untrusted workspace's value of a restricted
 * setting once its settings also hold an object at a prefix of the key (`"kubeGcLens.cluster": {"kubeconfig": …}`,
 * which also lets a flat `"kubeGcLens.cluster.autoConnect": true` beside it through).
 */
export const RESTRICTED_SETTINGS: Readonly<Record<string, string>> = {
  'kubeGcLens.cluster.kubeconfig':
    'a kubeconfig the repository chooses (one it ships, say) names the server that receives our requests and the ' +
    'credentials they carry (a tokenFile or client key anywhere on disk, an exec plugin or auth-provider command)',
  'kubeGcLens.cluster.autoConnect':
    'connects as soon as the folder is opened, with no action of the user: network requests with their credentials',
  'kubeGcLens.cluster.context': "chooses which of the user's clusters and credentials are used (production rather than a dev cluster)",
  'kubeGcLens.cluster.namespaces':
    "each namespace is one LIST and one WATCH per resource type: thousands of names are load on the user's cluster, " +
    'made with their credentials',
  'kubeGcLens.cluster.allowWrites':
    "lets the editor change the user's cluster (a way out's PATCH, after a confirmation): only the user may turn it on, " +
    'and it is ignored in Restricted Mode whatever its value (logic/wayOuts.ts writesAllowed)',
  'kubeGcLens.cluster.requestTimeoutSeconds':
    "bounds how long a request to the user's cluster may hold the connection; 0 turns the deadline off, which a " +
    'repository must not choose for the user (a trickling server would then hold the connection forever)',
};

/** Every other setting we contribute, and why a workspace may set it even in Restricted Mode. */
export const UNRESTRICTED_SETTINGS: Readonly<Record<string, string>> = {
  'kubeGcLens.simulation.controllers': 'an enum that only changes what the simulation models; it runs no code and reaches no cluster',
  'kubeGcLens.finalizerOwners': "describes the repository's own manifests (which workload removes a finalizer); analysis only",
  'kubeGcLens.severity': "how the findings on the repository's own manifests are shown; display only",
  'kubeGcLens.files.include':
    'globs matched under each workspace folder (the walk starts there, so `..` matches nothing outside); ' +
    'files are only read, never run or sent anywhere',
  'kubeGcLens.files.exclude': 'globs of files not to read; can only read less',
  'kubeGcLens.cluster.stuckAfterMinutes':
    "a number that only changes how a live object's age is labelled (stuck vs still cleaning up); no request depends on it",
};

export function isRestricted(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(RESTRICTED_SETTINGS, key);
}

/** What `WorkspaceConfiguration.inspect()` returns, as far as it matters here. */
export interface SettingInspection {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * A reader of `section`'s settings as trust allows: in a trusted workspace `get` (VS Code's own merge of every
 * scope); in Restricted Mode a restricted setting is the user's value, else the default, whatever the workspace
 * and folder settings say.
 */
export function readTrusted<K extends string>(
  section: string,
  get: (key: K) => unknown,
  inspect: (key: K) => SettingInspection | undefined,
  trusted: boolean,
): (key: K) => unknown {
  return (key) => {
    if (trusted || !isRestricted(`${section}.${key}`)) return get(key);
    const i = inspect(key);
    return i?.globalValue !== undefined ? i.globalValue : i?.defaultValue;
  };
}

/** Said wherever Restricted Mode changes what a cluster command does. */
export const RESTRICTED_MODE_NOTE =
  "Restricted Mode: this workspace's own kubeGcLens.cluster settings (kubeconfig, context, " +
  'namespaces, autoConnect) are not used, only yours, and kubeconfig commands (exec plugins) do not run. Trust the workspace to use them.';
