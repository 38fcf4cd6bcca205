// Test helper: manifests in, engine out. Every rule test goes through the same path the CLI uses.
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { buildInventory } from '../../server/src/engine/inventory';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { analyze, type AnalysisOptions } from '../../server/src/engine/analysis/analyze';
import type { DeleteRequest, PropagationPolicy, SimulationOptions, SimulationResult } from '../../server/src/engine/simulation/types';
import type { UserRequest } from '../../server/src/engine/simulation/changeRequest';

export function scenario(yamlText: string, opts: { defaultNamespace?: string } = {}) {
  const { objects, problems } = parseManifestText(yamlText, 'scenario.yaml');
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length)
    throw new Error(`scenario manifests do not load: ${errors.map((p) => `${p.line}:${p.column} ${p.reason}`).join('; ')}`);
  const inventory = buildInventory(objects, { defaultNamespace: opts.defaultNamespace ?? 'default' });
  return {
    objects,
    problems,
    inventory,
    /** Strict mode (`--controllers=gc`) unless the options say otherwise. */
    simulate: (requests: readonly UserRequest[], options: Partial<SimulationOptions> = {}): SimulationResult =>
      simulate(inventory, requests, { controllers: 'gc', ...options }),
    findings: (options: AnalysisOptions = {}) => analyze(inventory, options),
  };
}

export function del(
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  propagationPolicy?: PropagationPolicy | null,
  extra: Partial<DeleteRequest> = {},
): DeleteRequest {
  return { apiVersion, kind, namespace, name, propagationPolicy: propagationPolicy ?? null, ...extra };
}

/** "Kind/name" of every entry, in order: compact expectations. */
export function names(entries: { kind: string; name: string }[]): string[] {
  return entries.map((e) => `${e.kind}/${e.name}`);
}
