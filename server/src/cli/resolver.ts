// TYPE and NAME from the command line resolved as kubectl resolves them: the kind among those the input serves (Kind,
// plural or short name, `.group`), the object among the input's (namespaced: in -n, else the default namespace).

import type { Inventory } from '../engine/inventory';
import type { KindInfo } from '../engine/kinds/kindRegistry';
import type { KubeObject } from '../engine/model';
import type { ObjectRef } from '../engine/simulation/changeRequest';

export type Fail = (why: string) => never;

export class Resolver {
  constructor(
    readonly inventory: Inventory,
    readonly namespace: string,
  ) {}

  /** The kind TYPE names, and the object reference it would have in -n (nothing said about whether it exists). */
  refOf(type: string, name: string, fail: Fail): { ref: ObjectRef; info: KindInfo; resource: string } {
    const info = this.inventory.kinds.resolveType(type)[0];
    if (!info) return fail(`the server doesn't have a resource type "${type}"`);
    const ns = info.namespaced ? this.namespace : '';
    return {
      ref: { apiVersion: this.inventory.kinds.preferredApiVersion(info), kind: info.kind, namespace: ns, name },
      info,
      resource: info.group ? `${info.plural}.${info.group}` : info.plural,
    };
  }

  /** TYPE and NAME against the kinds the input serves and its objects (namespaced: in -n, else the default namespace). */
  resolve(type: string, name: string, fail: Fail): { ref: ObjectRef; object: KubeObject; info: KindInfo } {
    const { ref, info, resource } = this.refOf(type, name, fail);
    const object = this.inventory.find(info.group, info.kind, ref.namespace, name);
    if (!object)
      return fail(
        `${resource} "${name}" not found${info.namespaced ? ` in namespace "${ref.namespace}"` : ''} in the input${this.elsewhere(info, name)}`,
      );
    return { ref, object, info };
  }

  /** The object a restored controller is meant to release: the first terminating one holding the finalizer, else any. */
  holderOf(finalizer: string): KubeObject | undefined {
    let any: KubeObject | undefined;
    for (const o of this.inventory.objects.values()) {
      if (!o.finalizers.includes(finalizer)) continue;
      if (o.deletionTimestamp !== undefined) return o;
      any ??= o;
    }
    return any;
  }

  /** "; it exists in namespace storefront: pass -n storefront" when the name is in other namespaces of the input. */
  private elsewhere(info: KindInfo, name: string): string {
    if (!info.namespaced) return '';
    const namespaces = [
      ...new Set(
        [...this.inventory.ofKind(info.kind)]
          .filter((o) => o.name === name && this.inventory.kindOf(o)?.group === info.group)
          .map((o) => o.namespace),
      ),
    ].sort();
    if (namespaces.length === 0) return '';
    if (namespaces.length === 1) return `; it exists in namespace ${namespaces[0]}: pass -n ${namespaces[0]}`;
    return `; it exists in namespaces ${namespaces.join(', ')}: pass -n with one of them`;
  }
}

/** "deployment/web" split as kubectl splits TYPE/NAME; undefined when it is not that. */
export function splitTypeName(typeName: string): { type: string; name: string } | undefined {
  const slash = typeName.indexOf('/');
  if (slash <= 0 || slash === typeName.length - 1) return undefined;
  return { type: typeName.slice(0, slash), name: typeName.slice(slash + 1) };
}

export const describeRef = (r: ObjectRef) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
