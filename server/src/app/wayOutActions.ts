// Doing a way out, only when asked (issue 18): the editor's "Remove finalizer…" / "Apply fix…" on a stuck live
// object. Nothing is sent unless writes are allowed (the server's own setting), the way out is re-simulated on what
// the connection reads now and is still the one the user confirmed (same command, same outcome), and it is a JSON
// patch (comments, DELETEs and a Namespace's finalize are not sent). Then a server-side dry run (`dryRun=All`: RBAC,
// admission webhooks, validation; nothing stored), and only when it passes, the same PATCH for real. Every patch starts
// with the test of the uid the user saw (engine/writePreconditions.ts): sent by name, it reaches no other object.

import type { ApplyWayOutParams, ApplyWayOutResult, ObjectIdentity, SentPatch } from '../../../shared/src/protocol';
import type { Inventory } from '../engine/inventory';
import { describe, splitApiVersion } from '../engine/model';
import { UID_PATH } from '../engine/writePreconditions';
import { patchPath, preconditionRefused, sendJsonPatch, type PatchAnswer, type PatchTarget } from '../sources/cluster/clusterWrites';
import type { ClusterTarget } from '../sources/cluster/kubeconfig';
import type { SimulationSettings } from './simulationCache';
import { waysOut } from './waysOut';
import { clusterRefusal, type WayOutCluster } from './wayOutCluster';

export interface WayOutContext {
  inventory: Inventory;
  options: SimulationSettings;
  /** `kubeGcLens.cluster.allowWrites` as the server read it. */
  allowWrites: boolean;
  /** Why the settings could not be read when asked: writes are then off, whatever allowWrites said before (fail closed). */
  settingsUnreadable?: string;
  target: ClusterTarget;
  timeoutMs: number;
  /** Which cluster the view and the row are of, and which the connection reaches now (wayOutCluster.ts). */
  cluster: WayOutCluster;
}

/** Said when writes are off: how to turn them on, and where that does not apply. */
export const WRITES_OFF =
  'Writes to the cluster are off. To let the editor send a way out, set "kubeGcLens.cluster.allowWrites": true in your ' +
  'user settings (a workspace cannot set it, and it is ignored in Restricted Mode).';

/** What the server knows of the user's consent to writes: the setting, and whether it could be read just now. */
export type WritePermission = Pick<WayOutContext, 'allowWrites' | 'settingsUnreadable'>;

/** Said when the settings could not be read: writes are treated as off, whatever they were. */
export function settingsUnreadableMessage(error: string): string {
  return (
    `Writes to the cluster are off: the editor's settings could not be read (${error}), so "kubeGcLens.cluster.allowWrites" ` +
    'is treated as off and nothing was sent. Try again once the settings can be read (reload the window if this persists).'
  );
}

export async function applyWayOut(p: ApplyWayOutParams, ctx: WayOutContext): Promise<ApplyWayOutResult> {
  const refused = (message: string): ApplyWayOutResult => ({ ok: false, stage: 'refused', status: 0, message, sent: [] });
  if (ctx.settingsUnreadable !== undefined) return refused(settingsUnreadableMessage(ctx.settingsUnreadable));
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
  // Fail closed: a patch that does not first test the uid of the object it is for is never sent.
  const first = ops[0];
  if (!first || first.op !== 'test' || first.path !== UID_PATH || first.value !== object.uid)
    return refused(`"${way.title}" carries no precondition on the uid of ${describe(object)}: nothing was sent.`);
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
    sent.push({ method: 'PATCH', path, body, uid: object.uid });
    return sendJsonPatch(ctx.target, path, body, ctx.timeoutMs, object.uid);
  };
  const answer = (stage: 'dry-run' | 'patch', a: PatchAnswer, done: string): ApplyWayOutResult =>
    a.ok
      ? { ok: true, stage, status: a.status, message: done, sent }
      : preconditionRefused(a)
        ? { ok: false, stage, status: a.status, message: changedMessage(object, a), sent, objectChanged: true }
        : { ok: false, stage, status: a.status, message: a.message, sent };
  const dry = await send(true);
  if (!dry.ok || p.dryRunOnly) return answer('dry-run', dry, `The dry run passed: ${way.title}.`);
  return answer('patch', await send(false), `Done: ${way.title}.`);
}

/** The refusal of a patch's preconditions, for a person: the object changed since they looked; then the server's words. */
export function changedMessage(object: ObjectIdentity, a: PatchAnswer): string {
  const what =
    a.status === 404
      ? `${describe(object)} (uid ${object.uid}) is no longer in the cluster`
      : `${describe(object)} changed since you looked: it is no longer the object (uid ${object.uid}), or no longer in the state, that the way out was shown for, and the apiserver refused the patch's preconditions`;
  return `${what}, so nothing was changed. Look at it again before choosing a way out. (The apiserver answered ${a.status}: ${a.message})`;
}
