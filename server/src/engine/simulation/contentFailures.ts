// R83: a terminating Namespace whose NamespaceDeletionContentFailure names a webhook the apiserver failed to call
// keeps its content, whether or not the input holds that content: the namespace controller's DELETEs of it are
// rejected on every pass, so it never finalizes the Namespace while the webhook fails. It goes on once the webhook
// lets requests through (its backend back, failurePolicy: Ignore, its configuration deleted).

import type { KubeObject } from '../model';
import { failingWebhooks, type BlockerView, type WebhookBlocker } from './clusterBlockers';
import { CONTENT_FAILURE } from './namespaceConditions';
import { reportedFailures, type ReportedFailure } from './webhookFailures';

/** The simulation's store or the input: what is held now, and the webhook configurations the input held. */
export interface ContentFailureView extends BlockerView {
  ofKindAtStart(kind: string): Iterable<KubeObject>;
}

export interface ContentFailure {
  failure: ReportedFailure;
  /** The webhook as it still fails now; absent when the input holds no configuration with a webhook of that name. */
  blocker?: WebhookBlocker;
}

const CONFIG_KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];

/** The webhook failures this Namespace's content-failure condition reports that still hold. */
export function heldContentFailures(ns: KubeObject, view: ContentFailureView): ContentFailure[] {
  const out: ContentFailure[] = [];
  for (const failure of reportedFailures(ns)) {
    if (failure.condition !== CONTENT_FAILURE) continue;
    const named = (c: KubeObject) => (c.facts.webhooks ?? []).some((h) => h.name === failure.webhook);
    let blocker: WebhookBlocker | undefined;
    for (const kind of CONFIG_KINDS)
      for (const c of view.ofKind(kind))
        if (!blocker && named(c)) blocker = failingWebhooks(view, c).find((b) => b.webhook.name === failure.webhook);
    if (blocker) out.push({ failure, blocker });
    // Not in the input: nothing in view can clear it, so the condition is taken to persist (it is rewritten every pass).
    else if (!CONFIG_KINDS.some((kind) => [...view.ofKindAtStart(kind)].some(named))) out.push({ failure });
  }
  return out;
}
