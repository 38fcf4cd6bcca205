// Doing a way out, only when asked (issue 18): the editor's "Remove finalizer…" / "Apply fix…" on a stuck live
// object. Nothing is sent unless writes are allowed (the server's own setting), the way out is re-simulated on what
// the connection reads now and is still the one the user confirmed (same command, same outcome), and it is a JSON
// patch (comments, DELETEs and a Namespace's finalize are not sent). Then a server-side dry run (`dryRun=All`: RBAC,
// admission webhooks, validation; nothing stored), and only when it passes, the same PATCH for real.

import type { ApplyWayOutParams, ApplyWayOutResult, SentPatch } from '../../../shared/src/protocol';
import type { Inventory } from '../engine/inventory';
import { describe, splitApiVersion } from '../engine/model';
import { patchPath, sendJsonPatch, type PatchTarget } from '../sources/cluster/clusterWrites';
import type { ClusterTarget } from '../sources/cluster/kubeconfig';
import type { SimulationSettings } from './simulationCache';
import { waysOut } from './waysOut';
import { clusterRefusal, type WayOutCluster } from './wayOutCluster';

export interface WayOutContext {
  inventory: Inventory;
  options: SimulationSettings;
  /** `kubeGcLens.cluster.allowWrites` as the server read it. */
  allowWrites: boolean;
  target: ClusterTarget;
  timeoutMs: number;
  /** Which cluster the view and the row are of, and which the connection reaches now (wayOutCluster.ts). */
  cluster: WayOutCluster;
}

/** Said when writes are off: how to turn them on, and where that does not apply. */
export const WRITES_OFF =
  'Writes to the cluster are off. To let the editor send a way out, set "kubeGcLens.cluster.allowWrites": true in your ' +
  'user settings (a workspace cannot set it, and it is ignored in Restricted Mode).';

export async function applyWayOut(p: ApplyWayOutParams, ctx: WayOutContext): Promise<ApplyWayOutResult> {
  const refused = (message: string): ApplyWayOutResult => ({ ok: false, stage: 'refused', status: 0, message, sent: [] });
  if (!ctx.allowWrites) return refused(WRITES_OFF);
  const otherCluster = clusterRefusal(p, ctx.cluster);
  if (otherCluster) return refused(otherCluster);
  const { inventory } = ctx;
  const stuck = inventory.objects.get(p.uid);
  if (!stuck) return refused(`The object (uid ${p.uid}) is no longer in the cluster: nothing was sent.`);
  const way = waysOut(inventory, p.uid, ctx.options).find((w) => w.command === p.command);
  if (!way)
    return refused(
      `This way out is no longer offered for ${describe(stuck)}: the cluster changed since it was shown, so nothing was sent. Refresh and look again.`,
    );
  if (!way.patch) return refused(`"${way.title}" is not something the editor sends: run it yourself (${way.command}).`);
  if (p.summary !== undefined && p.summary !== way.outcome.summary)
    return refused(
      `The simulated outcome changed since it was shown, so nothing was sent. It is now: ${way.outcome.summary}. Look again before confirming.`,
    );
  const { target: object, subresource, ops } = way.patch;
  const current = inventory.objects.get(object.uid);
  const mapping = current && inventory.kinds.restMapping(current.apiVersion, current.kind);
  if (!current || !mapping)
    return refused(`${describe(object)} is no longer in the cluster (or its kind is no longer served): nothing was sent.`);
  const patchTarget: PatchTarget = {
    group: mapping.group,
    version: splitApiVersion(current.apiVersion).version,
    resource: mapping.plural,
    ...(mapping.namespaced ? { namespace: current.namespace } : {}),
    name: current.name,
    ...(subresource ? { subresource } : {}),
  };
  const body = JSON.stringify(ops);
  const sent: SentPatch[] = [];
  const send = async (dryRun: boolean) => {
    const path = patchPath(patchTarget, dryRun);
    sent.push({ method: 'PATCH', path, body });
    return sendJsonPatch(ctx.target, path, body, ctx.timeoutMs);
  };
  const dry = await send(true);
  if (!dry.ok || p.dryRunOnly)
    return { ok: dry.ok, stage: 'dry-run', status: dry.status, message: dry.ok ? `The dry run passed: ${way.title}.` : dry.message, sent };
  const real = await send(false);
  return { ok: real.ok, stage: 'patch', status: real.status, message: real.ok ? `Done: ${way.title}.` : real.message, sent };
}
