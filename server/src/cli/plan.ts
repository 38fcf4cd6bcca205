// `--plan FILE`: a sequence of DELETE requests, each applied after the previous one settles, or all back to back
// (R63) with `"arrival": "back-to-back"`.
// A plan may also say who acts and which version's behaviour to follow, as --controllers and --kube-version do.
//   {"arrival"?: "settled"|"back-to-back", "controllers"?, "kubeVersion"?, "deletes": [{"apiVersion", "kind", "namespace", "name", "propagationPolicy": "Foreground"|"Background"|"Orphan"|null}]}

import { LineCounter, parseDocument } from 'yaml';
import type { DeleteRequest, RequestArrival } from '../engine/simulation/types';
import { UsageError } from './args';
import { parseControllers } from '../engine/simulation/controllerSet';
import { parseKubeVersion } from '../engine/simulation/kubeVersion';

const POLICIES = ['Foreground', 'Background', 'Orphan'];
export const ARRIVALS: readonly RequestArrival[] = ['settled', 'back-to-back'];

export function parsePlan(
  text: string,
  file: string,
): { deletes: DeleteRequest[]; arrival?: RequestArrival; controllers?: string; kubeVersion?: string } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const pos = lineCounter.linePos(e.pos[0]);
    throw new UsageError(`${file}:${pos.line}:${pos.col}: the plan is not valid YAML or JSON: ${e.message.split('\n')[0]}`);
  }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const deletes = (data as { deletes?: unknown } | null)?.deletes;
  if (!Array.isArray(deletes)) throw new UsageError(`${file}: a plan is {"deletes": [ ... ]}; "deletes" is missing or not a list`);
  const arrival = (data as { arrival?: unknown }).arrival;
  if (arrival !== undefined && !ARRIVALS.includes(arrival as RequestArrival))
    throw new UsageError(`${file}: arrival must be settled or back-to-back`);
  const { controllers, kubeVersion } = data as { controllers?: unknown; kubeVersion?: unknown };
  if (controllers !== undefined) {
    const parsed = typeof controllers === 'string' ? parseControllers(controllers) : { error: 'it must be a string' };
    if ('error' in parsed)
      throw new UsageError(`${file}: controllers must be builtin, gc or a kube-controller-manager --controllers list: ${parsed.error}`);
  }
  if (kubeVersion !== undefined && (typeof kubeVersion !== 'string' || !parseKubeVersion(kubeVersion))) {
    throw new UsageError(`${file}: kubeVersion must be MAJOR.MINOR, e.g. "1.32"`);
  }
  const requests = deletes.map((d: unknown, i: number) => {
    const where = `${file}: deletes[${i}]`;
    if (!d || typeof d !== 'object' || Array.isArray(d)) throw new UsageError(`${where} must be a mapping`);
    const e = d as Record<string, unknown>;
    for (const k of ['apiVersion', 'kind', 'name'] as const) {
      if (typeof e[k] !== 'string' || !e[k]) throw new UsageError(`${where}.${k} must be a non-empty string`);
    }
    if (e.namespace !== undefined && e.namespace !== null && typeof e.namespace !== 'string')
      throw new UsageError(`${where}.namespace must be a string`);
    const policy = e.propagationPolicy;
    if (policy !== undefined && policy !== null && (typeof policy !== 'string' || !POLICIES.includes(policy))) {
      throw new UsageError(`${where}.propagationPolicy must be Foreground, Background, Orphan or null`);
    }
    if (e.orphanDependents !== undefined && typeof e.orphanDependents !== 'boolean')
      throw new UsageError(`${where}.orphanDependents must be true or false`);
    if (e.gracePeriodSeconds !== undefined && typeof e.gracePeriodSeconds !== 'number')
      throw new UsageError(`${where}.gracePeriodSeconds must be a number`);
    return {
      apiVersion: e.apiVersion as string,
      kind: e.kind as string,
      namespace: (e.namespace as string | undefined) ?? '',
      name: e.name as string,
      propagationPolicy: (policy ?? null) as DeleteRequest['propagationPolicy'],
      ...(e.orphanDependents !== undefined ? { orphanDependents: e.orphanDependents as boolean } : {}),
      ...(e.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: e.gracePeriodSeconds as number } : {}),
    };
  });
  return {
    deletes: requests,
    ...(arrival !== undefined ? { arrival: arrival as RequestArrival } : {}),
    ...(controllers !== undefined ? { controllers: (controllers as string).trim() } : {}),
    ...(kubeVersion !== undefined ? { kubeVersion: kubeVersion as string } : {}),
  };
}
