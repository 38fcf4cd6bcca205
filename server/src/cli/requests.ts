// What `kubectl gc simulate` is asked to do, from its command line: TYPE/NAME (or TYPE NAME …) DELETE targets and the
// request flags besides DELETE (cli/changeFlags.ts: `--remove-finalizer`, `--remove-owner-reference`,
// `--set-owner-reference`, `--scale`, `--restore-controller`, `--restore-backend`, `--set-webhook-failure-policy`), in
// command-line order, each resolved against the kinds and objects of the input as kubectl resolves them. Simulated
// only: nothing is sent anywhere.

import type { Inventory } from '../engine/inventory';
import type { UserRequest } from '../engine/simulation/changeRequest';
import type { DeleteRequest, PropagationPolicy } from '../engine/simulation/types';
import { UsageError, flag, type ParsedArgs } from './args';
import { changeOf } from './changeFlags';
import { Resolver } from './resolver';

/** The DELETE targets and the request flags, in the order they were given. */
export function requestsOf(args: ParsedArgs, inventory: Inventory, policy: PropagationPolicy | null): UserRequest[] {
  const resolver = new Resolver(inventory, flag(args, 'namespace') ?? inventory.defaultNamespace);
  // A request flag given after N positionals comes before the target at positional index N.
  const keyed: { key: number; request: UserRequest }[] = [
    ...deleteTargets(args.positional).map(({ index, type, name }) => ({
      key: index,
      request: deleteOf(resolver, type, name, policy),
    })),
    ...args.requests.map((r) => ({ key: r.afterPositionals - 0.5, request: changeOf(r, resolver) })),
  ];
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.request);
}

/** TYPE/NAME … or TYPE NAME …, as kubectl takes them, with each name's index among the positionals. */
function deleteTargets(pos: string[]): { index: number; type: string; name: string }[] {
  if (pos.length === 0) return [];
  if (pos[0].includes('/')) {
    return pos.map((p, index) => {
      const slash = p.indexOf('/');
      if (slash <= 0 || slash === p.length - 1)
        throw new UsageError(`"${p}" is not TYPE/NAME; use one form for all arguments (TYPE/NAME … or TYPE NAME …)`);
      return { index, type: p.slice(0, slash), name: p.slice(slash + 1) };
    });
  }
  if (pos.length < 2) throw new UsageError(`resource(s) were provided, but no name was specified: ${pos[0]} NAME`);
  return pos.slice(1).map((name, i) => {
    if (name.includes('/'))
      throw new UsageError(
        `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (${name})`,
      );
    return { index: i + 1, type: pos[0], name };
  });
}

function deleteOf(resolver: Resolver, type: string, name: string, policy: PropagationPolicy | null): DeleteRequest {
  const { ref } = resolver.resolve(type, name, (why) => {
    throw new UsageError(why);
  });
  return { ...ref, propagationPolicy: policy };
}
