// Findings for the blockers outside ownership (issue 18): `unavailable-apiservice` on an APIService that is not
// Available (no Namespace can finish deleting while it is, R74) and `blocking-webhook` on a webhook configuration
// whose failurePolicy: Fail webhook has no backend and intercepts DELETE or UPDATE (R75), naming what they hold now.

import type { Inventory } from '../inventory';
import { describe, identityOf, type KubeObject } from '../model';
import { apiServiceDeletionWarning, closedIn } from '../simulation/apiServiceFixes';
import { backendClause, isDown, unavailableApiServices, webhookBackend, type BlockerView } from '../simulation/clusterBlockers';
import { describeReported } from '../simulation/webhookFailures';
import type { BlockReason, SimulationResult } from '../simulation/types';
import type { Finding, RelatedInformation } from './findingTypes';
import { rangeOf } from './locate';

const MAX_NAMED = 5;

/** The blockers of an inventory as the input holds them. */
export function inventoryView(inventory: Inventory): BlockerView {
  return {
    ofKind: (kind) => inventory.ofKind(kind),
    ofKindAtStart: (kind) => inventory.ofKind(kind),
    getByName: (group, kind, namespace, name) => inventory.find(group, kind, namespace, name),
    kinds: inventory.kinds,
  };
}

function related(o: KubeObject, message: string): RelatedInformation {
  return { message, object: identityOf(o), file: o.source?.file, range: rangeOf(o, { kind: 'object' }) };
}

/** uid of a blocker (APIService, webhook configuration) → the stuck objects whose why-chain names it. */
function heldBy(base: SimulationResult, type: BlockReason['type']): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (root: string, reasons: BlockReason[] = []) => {
    for (const r of reasons) {
      if (r.type === type && r.object && (r.fixes || r.infrastructure)) {
        const set = out.get(r.object.uid) ?? new Set();
        out.set(r.object.uid, set.add(root));
      }
      walk(root, r.blockedBy);
    }
  };
  for (const s of base.stuck) walk(s.uid, s.blockedBy);
  return out;
}

function heldText(inventory: Inventory, uids: Set<string> | undefined): { text: string; related: RelatedInformation[] } {
  const objects = [...(uids ?? [])].map((u) => inventory.objects.get(u)).filter((o): o is KubeObject => o !== undefined);
  if (!objects.length) return { text: '', related: [] };
  const named = objects.slice(0, MAX_NAMED).map((o) => describe(o));
  const more = objects.length > MAX_NAMED ? ` and ${objects.length - MAX_NAMED} more` : '';
  return {
    text: ` It holds ${named.join(', ')}${more} now.`,
    related: objects.slice(0, MAX_NAMED).map((o) => related(o, `held: ${describe(o)}`)),
  };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export function blockerFindings(inventory: Inventory, base: SimulationResult): Finding[] {
  const view = inventoryView(inventory);
  const out: Finding[] = [];
  const byApiService = heldBy(base, 'unavailable-apiservice');
  const closed = closedIn(view);
  for (const b of unavailableApiServices(view)) {
    const held = heldText(inventory, byApiService.get(b.apiService.uid));
    // R85: served by a Service, it is an add-on's whatever its name; deleting it is the usual fix once its backend is gone.
    // R86: no backend comes back in a namespace being deleted.
    const restore = closed(b.facts.service!.namespace)
      ? 'Reinstall its add-on in another namespace and point the APIService at it'
      : 'Restore its backend';
    // R90: a stale one is deleted first.
    const keep = b.infrastructure
      ? ` Do not delete it: ${b.infrastructure}; ${lowerFirst(restore)}.`
      : b.stale
        ? ` Its add-on is gone or going, as ${b.stale}: delete the APIService, or ${lowerFirst(restore)}: ${apiServiceDeletionWarning(b.facts)}.`
        : ` ${restore}, or delete the APIService if its add-on is gone: ${apiServiceDeletionWarning(b.facts)}.`;
    out.push({
      code: 'unavailable-apiservice',
      severity: 'warning',
      message: `APIService ${b.apiService.name} is unavailable (${b.why}): discovery of ${b.facts.group}/${b.facts.version} fails, so no Namespace can finish deleting while it is.${held.text}${keep}`,
      object: identityOf(b.apiService),
      location: { kind: 'object' },
      file: b.apiService.source?.file,
      range: rangeOf(b.apiService, { kind: 'object' }),
      related: held.related,
    });
  }
  const byWebhook = heldBy(base, 'blocking-webhook');
  for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
    for (const config of inventory.ofKind(kind)) {
      (config.facts.webhooks ?? []).forEach((h) => {
        if (h.failurePolicy !== 'Fail' || !h.service) return;
        if (!h.rules.some((r) => r.operations.some((op) => op === '*' || op === 'DELETE' || op === 'UPDATE'))) return;
        const { state, reported } = webhookBackend(view, h);
        if (!isDown(state)) return;
        const held = heldText(inventory, byWebhook.get(config.uid));
        // R83: the apiserver's own report that it rejects what the webhook intercepts is an error, not a prediction.
        const seen = reported ? ` ${describeReported(reported)}.` : '';
        out.push({
          code: 'blocking-webhook',
          severity: reported ? 'error' : 'warning',
          message: `Webhook ${h.name} fails closed (failurePolicy: Fail) and ${backendClause(h.service, state)}: the apiserver rejects every DELETE and UPDATE it intercepts, so what it matches cannot be deleted or have its finalizers removed.${seen}${held.text}`,
          object: identityOf(config),
          location: { kind: 'object' },
          file: config.source?.file,
          range: rangeOf(config, { kind: 'object' }),
          related: held.related,
        });
      });
    }
  }
  return out;
}
