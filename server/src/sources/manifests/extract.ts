// From one parsed document to KubeObjects: List and bare-array expansion, apiVersion/kind inference, type
// checks on the fields the garbage collector reads, and the few spec/status facts the engine needs. Only
// those paths are visited. Works on any Reader (plain JSON values or YAML nodes); problems carry the node
// (YAML, for its range) and the path from the document root (JSON, located later by the scanner).

import {
  splitApiVersion,
  type CrdFacts,
  type KubeObject,
  type NamespaceCondition,
  type ObjectFacts,
  type OwnerReference,
} from '../../engine/model';
import type { LoadProblemCode } from './loadProblem';
import { builtinApiVersion, inferFromPath, inferFromSelfLink, listElementKind, type InferredType } from './inferKind';
import { formatPath, typeName, type Path, type Reader, type ValueKind } from './reader';
import { isBlockerKind, readBlockerFacts, type FieldReads } from './blockerFacts';

/** The annotation that names who provisioned (and deletes) a PersistentVolume (R60). */
const PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';

export interface PendingProblem<N> {
  severity: 'error' | 'warning' | 'info';
  code: LoadProblemCode;
  message: string;
  /** Path from the document root. */
  path: Path;
  node?: N;
}

export interface ExtractedObject<N> {
  object: KubeObject;
  node: N;
  itemPath: number[];
}

/** Where an object is: its parent's path and, for an element, `items` (Lists) or nothing (arrays) plus the index. */
interface Where {
  parent: Path;
  viaItems: boolean;
  /** -1 for the document itself. */
  index: number;
}

const pathOf = (w: Where): Path => (w.index < 0 ? w.parent : w.viaItems ? [...w.parent, 'items', w.index] : [...w.parent, w.index]);
const ROOT: Where = { parent: [], viaItems: false, index: -1 };

interface ListContext {
  apiVersion?: string;
  /** Element kind of a typed list (DeploymentList → Deployment). */
  kind?: string;
  listKind: string;
}

/** One object being read: where it is and what went wrong so far. */
interface ObjCtx<N> {
  path: Path;
  errors: PendingProblem<N>[];
  warnings: PendingProblem<N>[];
}

/** Nested List documents deeper than this are refused (they only occur in hostile input). */
const MAX_LIST_DEPTH = 32;
/** Workloads whose spec.replicas says whether their controller runs (a Deployment scaled to 0 runs none). */
export const SCALABLE: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet']);
/** Workload kinds whose pod templates name container images, and the groups they are served in. */
/** Shared empties: nothing mutates an object's lists or facts in place (the engine copies before a change). */
const NO_REFERENCES = Object.freeze([]) as unknown as OwnerReference[];
const NO_FINALIZERS = Object.freeze([]) as unknown as string[];
const NO_FACTS: ObjectFacts = Object.freeze({});

/**
 * One copy of each short value that many objects repeat (apiVersion, kind, namespace, an owner's name and uid):
 * each value read is a string of its own, 24 bytes or more, and 200,000 Pods hold seven of them each. Bounded, so
 * that unique values (names) cost only the lookup once it is full.
 */
const INTERN_MAX_ENTRIES = 50_000;
const INTERN_MAX_LENGTH = 64;
const internTable = new Map<string, string>();

function interned(s: string): string {
  if (s.length > INTERN_MAX_LENGTH) return s;
  const hit = internTable.get(s);
  if (hit !== undefined) return hit;
  if (internTable.size < INTERN_MAX_ENTRIES) internTable.set(s, s);
  return s;
}

const internedOrUndefined = (s: string | undefined): string | undefined => (s === undefined ? s : interned(s));

/**
 * A new object with every optional field present (undefined when absent): all objects then share one shape, so
 * the engine's property reads stay monomorphic (building the inventory of 100,000 objects is measurably faster).
 */
export function newKubeObject(apiVersion: string, kind: string, namespace: string): KubeObject {
  return {
    apiVersion,
    kind,
    name: '',
    namespace,
    uid: '',
    syntheticUid: undefined,
    ownerReferences: NO_REFERENCES,
    finalizers: NO_FINALIZERS,
    deletionTimestamp: undefined,
    deletionGracePeriodSeconds: undefined,
    creationTimestamp: undefined,
    generation: undefined,
    resourceVersion: undefined,
    labels: undefined,
    facts: NO_FACTS,
    source: undefined,
  };
}

export const WORKLOAD_GROUPS = new Map<string, readonly string[]>([
  ['Deployment', ['apps', 'extensions']],
  ['StatefulSet', ['apps']],
  ['DaemonSet', ['apps', 'extensions']],
  ['ReplicaSet', ['apps', 'extensions']],
  ['Job', ['batch']],
]);

export class Extractor<N> {
  readonly objects: ExtractedObject<N>[] = [];
  readonly problems: PendingProblem<N>[] = [];
  private readonly inferred = new Map<string, { count: number; path: Path; node: N; message: (count: number) => string }>();

  /**
   * @param fast reads a well-formed object directly (the JSON fast path) or returns undefined, in which case
   * this extractor reads it and reports what is wrong.
   */
  constructor(
    private readonly r: Reader<N>,
    private readonly file: string,
    private readonly fast?: (n: N) => KubeObject | undefined,
  ) {}

  /** Reads one whole document (an object, a List, or a bare array of objects). */
  document(root: N): void {
    const k = this.r.kind(root);
    if (k === 'null' || k === 'absent') return; // empty or comment-only document
    if (k === 'seq') return this.array(root, [], [], 0);
    if (k !== 'map') {
      this.problems.push({
        severity: 'warning',
        code: 'not-kubernetes',
        path: [],
        node: root,
        message: `This document is ${typeName(k, this.r.flavour)}, not a Kubernetes object, so it was skipped.`,
      });
      return;
    }
    this.object(root, ROOT, [], undefined, 0);
  }

  /**
   * Elements of a List document's `items`, read without the List around them (a large YAML List is parsed a few items
   * at a time): `seq` holds items `firstIndex`, `firstIndex + 1`, …; returns how many it held.
   */
  listItems(seq: N, firstIndex: number, list: { apiVersion?: string; kind: string }): number {
    const ctxList: ListContext = { apiVersion: list.apiVersion, kind: listElementKind(list.kind), listKind: list.kind };
    const items = this.r.items(seq);
    for (let i = 0; i < items.length; i++) {
      const index = firstIndex + i;
      this.item(items[i], { parent: [], viaItems: true, index }, [index], ctxList, 1);
    }
    return items.length;
  }

  /** Adds the aggregated kind-inferred notes to `problems`. */
  finish(): void {
    for (const g of this.inferred.values()) {
      this.problems.push({ severity: 'info', code: 'kind-inferred', path: g.path, node: g.node, message: g.message(g.count) });
    }
    this.inferred.clear();
  }

  private looksKube(n: N): boolean {
    const r = this.r;
    return (
      r.kind(n) === 'map' && (r.get(n, 'apiVersion') !== undefined || r.get(n, 'kind') !== undefined || r.get(n, 'metadata') !== undefined)
    );
  }

  private array(n: N, path: Path, itemPath: number[], depth: number): void {
    const items = this.r.items(n);
    if (!items.some((it) => this.looksKube(it))) {
      if (items.length) {
        this.problems.push({
          severity: 'warning',
          code: 'not-kubernetes',
          path,
          node: n,
          message: `This is ${typeName('seq', this.r.flavour)} of ${items.length} entries that are not Kubernetes objects (none has apiVersion, kind or metadata), so it was skipped.`,
        });
      }
      return;
    }
    for (let i = 0; i < items.length; i++)
      this.item(items[i], { parent: path, viaItems: false, index: i }, itemPath.length ? [...itemPath, i] : [i], undefined, depth + 1);
  }

  private item(n: N, where: Where, itemPath: number[], list: ListContext | undefined, depth: number): void {
    const k = this.r.kind(n);
    if (k !== 'map') {
      const path = pathOf(where);
      this.problems.push({
        severity: 'error',
        code: 'not-kubernetes',
        path,
        node: n,
        message: `${formatPath(path)} is ${typeName(k, this.r.flavour)}, not a Kubernetes object, so it was skipped.`,
      });
      return;
    }
    this.object(n, where, itemPath, list, depth);
  }

  private object(n: N, where: Where, itemPath: number[], list: ListContext | undefined, depth: number): void {
    if (this.fast) {
      const quick = this.fast(n);
      if (quick) {
        this.objects.push({ object: quick, node: n, itemPath });
        return;
      }
    }
    const path = pathOf(where);
    const r = this.r;
    const ctx: ObjCtx<N> = { path, errors: [], warnings: [] };
    let apiVersion = internedOrUndefined(this.str(ctx, n, [], 'apiVersion'));
    let kind = internedOrUndefined(this.str(ctx, n, [], 'kind'));
    if (ctx.errors.length) return this.flush(ctx);

    // Lists: `kind: List` and typed lists (`kubectl get -o yaml`, client-go).
    if (kind !== undefined && kind.endsWith('List')) {
      const itemsNode = r.get(n, 'items');
      const ik = r.kind(itemsNode);
      if (ik === 'seq' || ik === 'null' || (ik === 'absent' && kind === 'List')) {
        if (depth >= MAX_LIST_DEPTH) {
          this.problems.push({
            severity: 'error',
            code: 'too-deep',
            path,
            node: n,
            message: `Lists are nested more than ${MAX_LIST_DEPTH} deep here, so this one was skipped.`,
          });
          return;
        }
        if (ik !== 'seq') return;
        const ctxList: ListContext = { apiVersion, kind: listElementKind(kind), listKind: kind };
        const items = r.items(itemsNode as N);
        for (let i = 0; i < items.length; i++)
          this.item(items[i], { parent: path, viaItems: true, index: i }, itemPath.length ? [...itemPath, i] : [i], ctxList, depth + 1);
        return;
      }
      if (kind === 'List') {
        ctx.errors.push(this.wrongType(ctx, itemsNode as N, ['items'], ik, 'a list'));
        return this.flush(ctx);
      }
      // Any other kind ending in "List" without a list of items is an ordinary object.
    }

    const metaNode = r.get(n, 'metadata');
    const mk = r.kind(metaNode);
    if (mk !== 'map' && mk !== 'null' && mk !== 'absent') {
      ctx.errors.push(this.wrongType(ctx, metaNode as N, ['metadata'], mk, 'a mapping'));
      return this.flush(ctx);
    }
    const meta = mk === 'map' ? (metaNode as N) : undefined;
    const M = ['metadata'];
    const namespace = meta !== undefined ? interned(this.str(ctx, meta, M, 'namespace') ?? '') : '';

    if (apiVersion === undefined || kind === undefined) {
      const inferred = this.infer(apiVersion, kind, meta, namespace, list);
      if (!inferred) {
        const hasAny = apiVersion !== undefined || kind !== undefined || mk !== 'absent';
        let message: string;
        if (apiVersion === undefined && kind === undefined) {
          message = hasAny
            ? 'This object has metadata but no apiVersion or kind, and its type could not be inferred from an enclosing List, metadata.selfLink or the file path, so it was skipped.'
            : 'This is not a Kubernetes object (it has no apiVersion, kind or metadata), so it was skipped.';
        } else if (apiVersion === undefined) {
          const suggestion = builtinApiVersion(kind!);
          message = `This object has kind ${kind} but no apiVersion${suggestion ? ` (for ${kind} it is ${suggestion})` : ''}, so it was skipped.`;
        } else {
          message = `This object has apiVersion ${apiVersion} but no kind, so it was skipped.`;
        }
        this.problems.push({ severity: hasAny ? 'error' : 'warning', code: 'not-kubernetes', path, node: n, message });
        return;
      }
      const missing =
        apiVersion === undefined && kind === undefined ? 'apiVersion and kind' : apiVersion === undefined ? 'apiVersion' : 'kind';
      apiVersion ??= inferred.apiVersion;
      kind ??= inferred.kind;
      this.noteInferred(missing, apiVersion, kind, inferred.from, path, n);
    }

    const obj = newKubeObject(apiVersion, kind, namespace);
    if (meta !== undefined) this.metadata(ctx, meta, obj);
    if (ctx.errors.length) return this.flush(ctx);
    obj.facts = this.facts(ctx, n, apiVersion, kind);
    this.flush(ctx);
    this.objects.push({ object: obj, node: n, itemPath });
  }

  private flush(ctx: ObjCtx<N>): void {
    for (const p of ctx.errors) this.problems.push(p);
    for (const p of ctx.warnings) this.problems.push(p);
  }

  private infer(
    apiVersion: string | undefined,
    kind: string | undefined,
    meta: N | undefined,
    namespace: string,
    list: ListContext | undefined,
  ): InferredType | undefined {
    const fits = (t: InferredType) =>
      (kind === undefined || kind === t.kind) &&
      (apiVersion === undefined || splitApiVersion(apiVersion).group === splitApiVersion(t.apiVersion).group);
    if (list?.kind && list.apiVersion && (kind === undefined || kind === list.kind)) {
      return { apiVersion: list.apiVersion, kind: list.kind, from: `the enclosing ${list.listKind}` };
    }
    if (meta !== undefined) {
      const selfLink = this.r.get(meta, 'selfLink');
      if (this.r.kind(selfLink) === 'string') {
        const t = inferFromSelfLink(this.r.value(selfLink as N) as string);
        if (t && fits(t)) return t;
        if (t) return undefined;
      }
    }
    for (const t of inferFromPath(this.file)) {
      if (t.namespaced !== undefined && t.namespaced !== (namespace !== '')) continue;
      if (fits(t)) return t;
    }
    return undefined;
  }

  private noteInferred(missing: string, apiVersion: string, kind: string, from: string, path: Path, node: N): void {
    const key = `${missing}\u0000${apiVersion}\u0000${kind}\u0000${from}`;
    const g = this.inferred.get(key);
    if (g) {
      g.count++;
      return;
    }
    this.inferred.set(key, {
      count: 1,
      path,
      node,
      message: (count) =>
        `${count === 1 ? 'An object' : `${count} objects`} without ${missing} ${count === 1 ? 'was' : 'were'} read as ${apiVersion} ${kind}, inferred from ${from}.`,
    });
  }

  // -------------------------------------------------------------------------------------------------
  // metadata

  private metadata(ctx: ObjCtx<N>, meta: N, obj: KubeObject): void {
    const M = ['metadata'];
    obj.name = this.str(ctx, meta, M, 'name') ?? this.str(ctx, meta, M, 'generateName') ?? '';
    obj.uid = this.str(ctx, meta, M, 'uid') ?? '';
    const dt = this.str(ctx, meta, M, 'deletionTimestamp');
    if (dt !== undefined) obj.deletionTimestamp = dt;
    const grace = this.int(ctx, meta, M, 'deletionGracePeriodSeconds');
    if (grace !== undefined) obj.deletionGracePeriodSeconds = grace;
    const ct = this.str(ctx, meta, M, 'creationTimestamp');
    if (ct !== undefined) obj.creationTimestamp = ct;
    const gen = this.int(ctx, meta, M, 'generation');
    if (gen !== undefined) obj.generation = gen;
    // Read for a write's precondition only: anything but a string is left out, never a problem of the manifest.
    const rv = this.r.get(meta, 'resourceVersion');
    if (this.r.kind(rv) === 'string' && this.r.value(rv as N)) obj.resourceVersion = this.r.value(rv as N) as string;
    const fins = this.strList(ctx, meta, M, 'finalizers');
    if (fins) obj.finalizers = fins;
    const refs = this.ownerReferences(ctx, meta);
    if (refs) obj.ownerReferences = refs;
    const labels = this.labels(ctx, meta);
    if (labels) obj.labels = labels;
  }

  private ownerReferences(ctx: ObjCtx<N>, meta: N): OwnerReference[] | undefined {
    const r = this.r;
    const node = r.get(meta, 'ownerReferences');
    const k = r.kind(node);
    if (k === 'absent' || k === 'null') return undefined;
    if (k !== 'seq') {
      ctx.errors.push(this.wrongType(ctx, node as N, ['metadata', 'ownerReferences'], k, 'a list'));
      return undefined;
    }
    const out: OwnerReference[] = [];
    const items = r.items(node as N);
    for (let i = 0; i < items.length; i++) {
      const e = items[i];
      const P = ['metadata', 'ownerReferences', i];
      const ek = r.kind(e);
      if (ek !== 'map') {
        ctx.errors.push(this.wrongType(ctx, e, P, ek, 'a mapping'));
        continue;
      }
      const ref: OwnerReference = {
        apiVersion: interned(this.str(ctx, e, P, 'apiVersion') ?? ''),
        kind: interned(this.str(ctx, e, P, 'kind') ?? ''),
        name: interned(this.str(ctx, e, P, 'name') ?? ''),
        uid: interned(this.str(ctx, e, P, 'uid') ?? ''),
      };
      const controller = this.bool(ctx, e, P, 'controller');
      if (controller !== undefined) ref.controller = controller;
      const block = this.bool(ctx, e, P, 'blockOwnerDeletion');
      if (block !== undefined) ref.blockOwnerDeletion = block;
      out.push(ref);
    }
    // A list grown by push keeps room for 16: one reference each for 200,000 objects is 25 MB of that room.
    return out.slice();
  }

  private labels(ctx: ObjCtx<N>, meta: N): Record<string, string> | undefined {
    const r = this.r;
    const node = r.get(meta, 'labels');
    const k = r.kind(node);
    if (k === 'absent' || k === 'null') return undefined;
    if (k !== 'map') {
      ctx.warnings.push(this.wrongType(ctx, node as N, ['metadata', 'labels'], k, 'a mapping', 'warning'));
      return undefined;
    }
    const same = r.stringRecord?.(node as N);
    if (same) return same;
    const out: Record<string, string> = {};
    for (const [key, v] of r.entries(node as N)) {
      const vk = r.kind(v);
      if (vk === 'string') {
        if (key === '__proto__')
          Object.defineProperty(out, key, { value: r.value(v), enumerable: true, writable: true, configurable: true });
        else out[key] = r.value(v) as string;
      } else if (vk !== 'null') {
        ctx.warnings.push(this.wrongType(ctx, v, ['metadata', 'labels', key], vk, 'a string', 'warning'));
      }
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------------
  // facts (best effort: a wrong type is a warning and the fact is left out)

  private facts(ctx: ObjCtx<N>, n: N, apiVersion: string, kind: string): ObjectFacts {
    const facts: ObjectFacts = {};
    const { group } = splitApiVersion(apiVersion);
    const W = 'warning' as const;
    if (group === '') {
      switch (kind) {
        case 'Pod': {
          const spec = this.map(ctx, n, [], 'spec', W);
          if (spec !== undefined) {
            const S = ['spec'];
            const nodeName = this.str(ctx, spec, S, 'nodeName', W);
            if (nodeName !== undefined) facts.nodeName = nodeName;
            const grace = this.int(ctx, spec, S, 'terminationGracePeriodSeconds', W);
            if (grace !== undefined) facts.terminationGracePeriodSeconds = grace;
            const { claims, ephemeral } = this.claimNames(ctx, spec);
            if (claims.length) facts.claimNames = claims;
            if (ephemeral.length) facts.ephemeralVolumes = ephemeral;
            this.images(ctx, spec, S, facts);
          }
          this.phase(ctx, n, facts);
          break;
        }
        case 'Namespace': {
          const spec = this.map(ctx, n, [], 'spec', W);
          const fins = spec !== undefined ? this.strList(ctx, spec, ['spec'], 'finalizers', W) : undefined;
          // R56: `spec: {}` is a finalized Namespace; no spec at all is a manifest (create adds `kubernetes`).
          if (fins) facts.namespaceFinalizers = fins;
          else if (spec !== undefined) facts.namespaceFinalizers = [];
          this.phase(ctx, n, facts);
          const conditions = this.namespaceConditions(ctx, n);
          if (conditions?.length) facts.namespaceConditions = conditions;
          break;
        }
        case 'PersistentVolumeClaim': {
          const spec = this.map(ctx, n, [], 'spec', W);
          const vn = spec !== undefined ? this.str(ctx, spec, ['spec'], 'volumeName', W) : undefined;
          if (vn !== undefined) facts.volumeName = vn;
          break;
        }
        case 'PersistentVolume': {
          const spec = this.map(ctx, n, [], 'spec', W);
          const ref = spec !== undefined ? this.map(ctx, spec, ['spec'], 'claimRef', W) : undefined;
          if (ref !== undefined) {
            const P = ['spec', 'claimRef'];
            const claimRef: { namespace: string; name: string; uid?: string } = {
              namespace: this.str(ctx, ref, P, 'namespace', W) ?? '',
              name: this.str(ctx, ref, P, 'name', W) ?? '',
            };
            const uid = this.str(ctx, ref, P, 'uid', W);
            if (uid !== undefined) claimRef.uid = uid;
            facts.claimRef = claimRef;
          }
          const policy = spec !== undefined ? this.str(ctx, spec, ['spec'], 'persistentVolumeReclaimPolicy', W) : undefined;
          if (policy !== undefined) facts.reclaimPolicy = policy;
          const provisioner = this.provisionedBy(ctx, n);
          if (provisioner !== undefined) facts.provisionedBy = provisioner;
          this.phase(ctx, n, facts);
          break;
        }
        case 'Endpoints':
          readBlockerFacts(this.fieldReads(ctx), n, group, kind, facts);
          break;
      }
    } else if (kind === 'CustomResourceDefinition' && group === 'apiextensions.k8s.io') {
      const crd = this.crd(ctx, n);
      if (crd) facts.crd = crd;
    } else if (isBlockerKind(group, kind)) {
      readBlockerFacts(this.fieldReads(ctx), n, group, kind, facts);
    } else if (WORKLOAD_GROUPS.get(kind)?.includes(group)) {
      const P = ['spec', 'template', 'spec'];
      const podSpec = this.path(ctx, n, P);
      if (podSpec !== undefined) this.images(ctx, podSpec, P, facts);
      if (SCALABLE.has(kind) && group === 'apps') {
        const spec = this.map(ctx, n, [], 'spec', W);
        const replicas = spec !== undefined ? this.int(ctx, spec, ['spec'], 'replicas', W) : undefined;
        if (replicas === 0) facts.scaledToZero = true;
      }
    } else if (kind === 'CronJob' && group === 'batch') {
      const P = ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
      const podSpec = this.path(ctx, n, P);
      if (podSpec !== undefined) this.images(ctx, podSpec, P, facts);
    }
    for (const _ in facts) return facts;
    return NO_FACTS; // most objects have no facts: one shared empty record, not one each
  }

  /** metadata.annotations["pv.kubernetes.io/provisioned-by"]. */
  private provisionedBy(ctx: ObjCtx<N>, n: N): string | undefined {
    const meta = this.map(ctx, n, [], 'metadata', 'warning');
    const ann = meta !== undefined ? this.map(ctx, meta, ['metadata'], 'annotations', 'warning') : undefined;
    return ann !== undefined ? this.str(ctx, ann, ['metadata', 'annotations'], PROVISIONED_BY, 'warning') : undefined;
  }

  private phase(ctx: ObjCtx<N>, n: N, facts: ObjectFacts): void {
    const status = this.map(ctx, n, [], 'status', 'warning');
    const phase = status !== undefined ? this.str(ctx, status, ['status'], 'phase', 'warning') : undefined;
    if (phase !== undefined) facts.phase = phase;
  }

  /** status.conditions of a Namespace: entries without a string type and status are left out. */
  private namespaceConditions(ctx: ObjCtx<N>, n: N): NamespaceCondition[] | undefined {
    const W = 'warning' as const;
    const status = this.map(ctx, n, [], 'status', W);
    const list = status !== undefined ? this.list(ctx, status, ['status'], 'conditions', W) : undefined;
    if (!list) return undefined;
    const out: NamespaceCondition[] = [];
    list.forEach((c, i) => {
      if (this.r.kind(c) !== 'map') return;
      const P = ['status', 'conditions', i];
      const type = this.str(ctx, c, P, 'type', W);
      const st = this.str(ctx, c, P, 'status', W);
      const reason = this.str(ctx, c, P, 'reason', W);
      const message = this.str(ctx, c, P, 'message', W);
      const since = this.str(ctx, c, P, 'lastTransitionTime', W);
      if (type === undefined || st === undefined) return;
      const condition: NamespaceCondition = { type, status: st };
      if (reason !== undefined) condition.reason = reason;
      if (message !== undefined) condition.message = message;
      if (since !== undefined) condition.lastTransitionTime = since;
      out.push(condition);
    });
    return out;
  }

  /** persistentVolumeClaim volumes' claims, and the names of ephemeral volumes (R59). */
  private claimNames(ctx: ObjCtx<N>, spec: N): { claims: string[]; ephemeral: string[] } {
    const r = this.r;
    const claims: string[] = [];
    const ephemeral: string[] = [];
    const vols = this.list(ctx, spec, ['spec'], 'volumes', 'warning');
    vols?.forEach((v, i) => {
      if (r.kind(v) !== 'map') return;
      const P = ['spec', 'volumes', i];
      const pvc = this.map(ctx, v, P, 'persistentVolumeClaim', 'warning');
      const claim = pvc !== undefined ? this.str(ctx, pvc, [...P, 'persistentVolumeClaim'], 'claimName', 'warning') : undefined;
      if (claim !== undefined) claims.push(claim);
      if (this.map(ctx, v, P, 'ephemeral', 'warning') !== undefined) {
        const name = this.str(ctx, v, P, 'name', 'warning');
        if (name !== undefined) ephemeral.push(name);
      }
    });
    return { claims, ephemeral };
  }

  private images(ctx: ObjCtx<N>, podSpec: N, P: Path, facts: ObjectFacts): void {
    const r = this.r;
    const images: string[] = [];
    for (const key of ['initContainers', 'containers']) {
      const list = this.list(ctx, podSpec, P, key, 'warning');
      list?.forEach((c, i) => {
        if (r.kind(c) !== 'map') return;
        const image = this.str(ctx, c, [...P, key, i], 'image', 'warning');
        if (image !== undefined && !images.includes(image)) images.push(image);
      });
    }
    if (images.length) facts.images = images;
  }

  private crd(ctx: ObjCtx<N>, n: N): CrdFacts | undefined {
    const W = 'warning' as const;
    const spec = this.map(ctx, n, [], 'spec', W);
    if (spec === undefined) return undefined;
    const S = ['spec'];
    const group = this.str(ctx, spec, S, 'group', W);
    const names = this.map(ctx, spec, S, 'names', W);
    if (group === undefined || names === undefined) return undefined;
    const N_ = ['spec', 'names'];
    const kind = this.str(ctx, names, N_, 'kind', W);
    const plural = this.str(ctx, names, N_, 'plural', W);
    if (!kind || !plural) return undefined;
    const singular = this.str(ctx, names, N_, 'singular', W) || kind.toLowerCase();
    const shortNames = this.strList(ctx, names, N_, 'shortNames', W) ?? [];
    const listKind = this.str(ctx, names, N_, 'listKind', W);
    const scope = this.str(ctx, spec, S, 'scope', W);
    const served: string[] = [];
    let storage: string | undefined;
    const versions = this.list(ctx, spec, S, 'versions', W);
    versions?.forEach((v, i) => {
      if (this.r.kind(v) !== 'map') return;
      const P = ['spec', 'versions', i];
      const name = this.str(ctx, v, P, 'name', W);
      if (!name) return;
      if (this.bool(ctx, v, P, 'served', W) === true) served.push(name);
      if (this.bool(ctx, v, P, 'storage', W) === true) storage = name;
    });
    if (!versions) {
      // apiextensions.k8s.io/v1beta1 with the single `version` field.
      const single = this.str(ctx, spec, S, 'version', W);
      if (single) {
        served.push(single);
        storage = single;
      }
    }
    const servedVersions = storage && served.includes(storage) ? [storage, ...served.filter((v) => v !== storage)] : served;
    const crd: CrdFacts = { group, kind, plural, singular, shortNames, namespaced: scope !== 'Cluster', servedVersions };
    if (listKind !== undefined) crd.listKind = listKind;
    return crd;
  }

  // -------------------------------------------------------------------------------------------------
  // typed field access

  private wrongType(
    ctx: ObjCtx<N>,
    node: N,
    rel: Path,
    found: ValueKind | 'absent',
    expected: string,
    severity: 'error' | 'warning' = 'error',
  ): PendingProblem<N> {
    let message = `${formatPath(rel)} must be ${expected}, found ${typeName(found, this.r.flavour)}`;
    if (expected === 'a boolean' && found === 'string') {
      const v = String(this.r.value(node));
      if (/^(yes|no|on|off|y|n)$/i.test(v)) message += ` ("${v}" is a string in YAML 1.2, as Kubernetes reads it; write true or false)`;
    }
    message += severity === 'warning' ? '; it is ignored.' : '.';
    return { severity, code: 'wrong-type', message, path: [...ctx.path, ...rel], node };
  }

  private field(
    ctx: ObjCtx<N>,
    parent: N,
    rel: Path,
    key: string,
    want: ValueKind,
    expected: string,
    severity: 'error' | 'warning',
  ): N | undefined {
    const v = this.r.get(parent, key);
    const k = this.r.kind(v);
    if (k === want) return v;
    if (k === 'absent' || k === 'null') return undefined;
    (severity === 'error' ? ctx.errors : ctx.warnings).push(this.wrongType(ctx, v as N, [...rel, key], k, expected, severity));
    return undefined;
  }

  private str(ctx: ObjCtx<N>, parent: N, rel: Path, key: string, severity: 'error' | 'warning' = 'error'): string | undefined {
    const v = this.field(ctx, parent, rel, key, 'string', 'a string', severity);
    return v === undefined ? undefined : (this.r.value(v) as string);
  }

  private bool(ctx: ObjCtx<N>, parent: N, rel: Path, key: string, severity: 'error' | 'warning' = 'error'): boolean | undefined {
    const v = this.field(ctx, parent, rel, key, 'boolean', 'a boolean', severity);
    return v === undefined ? undefined : (this.r.value(v) as boolean);
  }

  private int(ctx: ObjCtx<N>, parent: N, rel: Path, key: string, severity: 'error' | 'warning' = 'error'): number | undefined {
    const v = this.field(ctx, parent, rel, key, 'number', 'a whole number', severity);
    if (v === undefined) return undefined;
    const x = this.r.value(v) as number;
    if (Number.isInteger(x)) return x;
    (severity === 'error' ? ctx.errors : ctx.warnings).push({
      severity,
      code: 'wrong-type',
      path: [...ctx.path, ...rel, key],
      node: v,
      message: `${formatPath([...rel, key])} must be a whole number, found ${x}${severity === 'warning' ? '; it is ignored.' : '.'}`,
    });
    return undefined;
  }

  private map(ctx: ObjCtx<N>, parent: N, rel: Path, key: string, severity: 'error' | 'warning' = 'error'): N | undefined {
    return this.field(ctx, parent, rel, key, 'map', 'a mapping', severity);
  }

  private list(ctx: ObjCtx<N>, parent: N, rel: Path, key: string, severity: 'error' | 'warning' = 'error'): readonly N[] | undefined {
    const v = this.field(ctx, parent, rel, key, 'seq', 'a list', severity);
    return v === undefined ? undefined : this.r.items(v);
  }

  private strList(ctx: ObjCtx<N>, parent: N, rel: Path, key: string, severity: 'error' | 'warning' = 'error'): string[] | undefined {
    const items = this.list(ctx, parent, rel, key, severity);
    if (!items) return undefined;
    const out: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const k = this.r.kind(items[i]);
      if (k === 'string') out.push(this.r.value(items[i]) as string);
      else
        (severity === 'error' ? ctx.errors : ctx.warnings).push(this.wrongType(ctx, items[i], [...rel, key, i], k, 'a string', severity));
    }
    return out;
  }

  /** Typed reads bound to one object, each wrong type a warning (blockerFacts.ts reads through them). */
  private fieldReads(ctx: ObjCtx<N>): FieldReads<N> {
    const W = 'warning' as const;
    return {
      kind: (n) => this.r.kind(n),
      str: (p, rel, key) => this.str(ctx, p, rel, key, W),
      bool: (p, rel, key) => this.bool(ctx, p, rel, key, W),
      map: (p, rel, key) => this.map(ctx, p, rel, key, W),
      list: (p, rel, key) => this.list(ctx, p, rel, key, W),
      strList: (p, rel, key) => this.strList(ctx, p, rel, key, W),
      strMap: (p, rel, key) => {
        const m = this.map(ctx, p, rel, key, W);
        if (m === undefined) return undefined;
        const out: Record<string, string> = {};
        for (const [k, v] of this.r.entries(m)) {
          if (this.r.kind(v) === 'string') out[k] = this.r.value(v) as string;
          else ctx.warnings.push(this.wrongType(ctx, v, [...rel, key, k], this.r.kind(v) as ValueKind, 'a string', W));
        }
        return out;
      },
    };
  }

  /** The mapping at a path of mappings, silently undefined if any step is missing; wrong types warn. */
  private path(ctx: ObjCtx<N>, n: N, keys: string[]): N | undefined {
    let cur: N | undefined = n;
    for (let i = 0; i < keys.length && cur !== undefined; i++) cur = this.map(ctx, cur, keys.slice(0, i), keys[i], 'warning');
    return cur;
  }
}
