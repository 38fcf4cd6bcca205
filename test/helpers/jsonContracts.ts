// The top-level keys of `kubectl gc simulate -o json` (version 2, docs/cli.md): one list for every test of the contract.

/** Version 1's fields where they were, plus the Report's `counts`, `summary`, `targets` and `version`; `aborted` only when cut short. */
export const SIMULATE_JSON_KEYS = [
  'aborted',
  'controllers',
  'counts',
  'deleted',
  'findings',
  'kubernetesVersion',
  'notes',
  'orphaned',
  'remaining',
  'steps',
  'stuck',
  'summary',
  'targets',
  'version',
] as const;
