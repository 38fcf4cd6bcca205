// R83: a way out whose request a fail-closed webhook intercepts, where the input holds nothing that tells whether the
// webhook's Service answers (a partial dump: the webhook configuration alone). The webhook is not accused, but the
// way out says it may be rejected, and what to do then.

import { inventoryView } from '../engine/analysis/blockerFindings';
import type { Inventory } from '../engine/inventory';
import { isChange, type UserRequest } from '../engine/simulation/changeRequest';
import { unjudgedWebhooks, type AdmissionRequest } from '../engine/simulation/clusterBlockers';
import { splitApiVersion } from '../engine/model';

/** The admission request a way out's request is, on the object the input holds; undefined when it is none. */
function admissionOf(inventory: Inventory, r: UserRequest): AdmissionRequest | undefined {
  const ref = isChange(r) ? ('target' in r ? r.target : undefined) : r;
  if (!ref) return undefined;
  const object = inventory.find(splitApiVersion(ref.apiVersion).group, ref.kind, ref.namespace, ref.name);
  if (!object) return undefined;
  if (!isChange(r)) return { operation: 'DELETE', object };
  if (r.verb === 'remove-finalizer') {
    const finalize = object.kind === 'Namespace' && !object.finalizers.includes(r.finalizer);
    return { operation: 'UPDATE', object, ...(finalize ? { subresource: 'finalize' } : {}) };
  }
  if (r.verb === 'scale') return { operation: 'UPDATE', object, subresource: 'scale' };
  if (r.verb === 'remove-owner-reference' || r.verb === 'set-owner-reference') return { operation: 'UPDATE', object };
  return undefined;
}

/** What to say of the webhooks that intercept the requests and whose backend is unknown; undefined when none. */
export function webhookDoubt(inventory: Inventory, requests: readonly UserRequest[]): string | undefined {
  const view = inventoryView(inventory);
  const said: string[] = [];
  for (const r of requests) {
    const req = admissionOf(inventory, r);
    if (!req) continue;
    for (const { configuration, webhook } of unjudgedWebhooks(view, req)) {
      const svc = `${webhook.service!.namespace}/${webhook.service!.name}`;
      const text = `webhook ${webhook.name} of ${configuration.kind} ${configuration.name} (failurePolicy: Fail) intercepts this ${req.operation}, and the input holds nothing that tells whether its Service ${svc} answers: if the apiserver answers "failed calling webhook", fix that webhook first`;
      if (!said.includes(text)) said.push(text);
    }
  }
  return said.length ? said.join('; ') : undefined;
}
