// The fast path for JSON: reads one well-formed object straight from JSON.parse output, with plain property
// access. It gives up (returns undefined) on anything unusual — a missing apiVersion/kind, a List, a wrong
// type anywhere it looks, a CustomResourceDefinition — and the general Extractor then reads the object and
// says what is wrong. For every object it accepts, it returns exactly what the Extractor would (a test checks
// this over the real corpus), so it only changes how fast the common case is.

import type { KubeObject, NamespaceCondition, ObjectFacts, OwnerReference } from '../../engine/model';
import { newKubeObject, SCALABLE, WORKLOAD_GROUPS } from './extract';
import { isBlockerKind } from './blockerFacts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nullish = (v: unknown) => v === undefined || v === null;

/** A bail-out marker: the general extractor must read this object. */
const BAIL = Symbol('bail');
type Maybe<T> = T | undefined | typeof BAIL;

function optStr(v: unknown): Maybe<string> {
  if (typeof v === 'string') return v;
  return nullish(v) ? undefined : BAIL;
}

function optInt(v: unknown): Maybe<number> {
  if (typeof v === 'number') return Number.isInteger(v) ? v : BAIL;
  return nullish(v) ? undefined : BAIL;
}

function optObj(v: unknown): Maybe<Obj> {
  if (isObj(v)) return v;
  return nullish(v) ? undefined : BAIL;
}

function optStrList(v: unknown): Maybe<string[]> {
  if (nullish(v)) return undefined;
  if (!Array.isArray(v)) return BAIL;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return BAIL;
  return v.slice() as string[];
}

export function fastObject(v: unknown): KubeObject | undefined {
  if (!isObj(v)) return undefined;
  const apiVersion = v.apiVersion;
  const kind = v.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind.endsWith('List')) return undefined;
  const obj = newKubeObject(apiVersion, kind, '');
  const m = v.metadata;
  if (isObj(m)) {
    const name = optStr(m.name);
    const generateName = optStr(m.generateName);
    const namespace = optStr(m.namespace);
    const uid = optStr(m.uid);
    const dt = optStr(m.deletionTimestamp);
    const grace = optInt(m.deletionGracePeriodSeconds);
    const ct = optStr(m.creationTimestamp);
    const gen = optInt(m.generation);
    // Only for a write's precondition: anything but a string is left out, never a reason to bail.
    const rv = typeof m.resourceVersion === 'string' ? m.resourceVersion : undefined;
    const fins = optStrList(m.finalizers);
    if (
      name === BAIL ||
      generateName === BAIL ||
      namespace === BAIL ||
      uid === BAIL ||
      dt === BAIL ||
      grace === BAIL ||
      ct === BAIL ||
      gen === BAIL ||
      fins === BAIL
    )
      return undefined;
    obj.name = name ?? generateName ?? '';
    obj.namespace = namespace ?? '';
    obj.uid = uid ?? '';
    if (dt !== undefined) obj.deletionTimestamp = dt;
    if (grace !== undefined) obj.deletionGracePeriodSeconds = grace;
    if (ct !== undefined) obj.creationTimestamp = ct;
    if (gen !== undefined) obj.generation = gen;
    if (rv) obj.resourceVersion = rv;
    if (fins) obj.finalizers = fins;
    const refs = m.ownerReferences;
    if (!nullish(refs)) {
      if (!Array.isArray(refs)) return undefined;
      const out: OwnerReference[] = [];
      for (let i = 0; i < refs.length; i++) {
        const r = refs[i];
        if (!isObj(r)) return undefined;
        const a = optStr(r.apiVersion);
        const k = optStr(r.kind);
        const n = optStr(r.name);
        const u = optStr(r.uid);
        if (a === BAIL || k === BAIL || n === BAIL || u === BAIL) return undefined;
        const ref: OwnerReference = { apiVersion: a ?? '', kind: k ?? '', name: n ?? '', uid: u ?? '' };
        const c = r.controller;
        const b = r.blockOwnerDeletion;
        if (typeof c === 'boolean') ref.controller = c;
        else if (!nullish(c)) return undefined;
        if (typeof b === 'boolean') ref.blockOwnerDeletion = b;
        else if (!nullish(b)) return undefined;
        out.push(ref);
      }
      obj.ownerReferences = out;
    }
    const labels = m.labels;
    if (!nullish(labels)) {
      if (!isObj(labels)) return undefined;
      for (const key in labels) if (typeof labels[key] !== 'string') return undefined;
      obj.labels = labels as Record<string, string>;
    }
  } else if (!nullish(m)) {
    return undefined;
  }
  const facts = fastFacts(v, apiVersion, kind);
  if (facts === undefined) return undefined;
  obj.facts = facts;
  return obj;
}

/** Facts as the Extractor computes them; undefined when it would have something to warn about. */
function fastFacts(v: Obj, apiVersion: string, kind: string): ObjectFacts | undefined {
  const facts: ObjectFacts = {};
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  if (group === '') {
    switch (kind) {
      case 'Pod': {
        const spec = optObj(v.spec);
        if (spec === BAIL) return undefined;
        if (spec) {
          const nodeName = optStr(spec.nodeName);
          const grace = optInt(spec.terminationGracePeriodSeconds);
          if (nodeName === BAIL || grace === BAIL) return undefined;
          if (nodeName !== undefined) facts.nodeName = nodeName;
          if (grace !== undefined) facts.terminationGracePeriodSeconds = grace;
          const vols = spec.volumes;
          if (!nullish(vols)) {
            if (!Array.isArray(vols)) return undefined;
            const claims: string[] = [];
            const ephemeral: string[] = [];
            for (const vol of vols) {
              if (!isObj(vol)) continue;
              const eph = optObj(vol.ephemeral);
              if (eph === BAIL) return undefined;
              if (eph) {
                const name = optStr(vol.name);
                if (name === BAIL) return undefined;
                if (name !== undefined) ephemeral.push(name);
              }
              const pvc = optObj(vol.persistentVolumeClaim);
              if (pvc === BAIL) return undefined;
              if (!pvc) continue;
              const claim = optStr(pvc.claimName);
              if (claim === BAIL) return undefined;
              if (claim !== undefined) claims.push(claim);
            }
            if (claims.length) facts.claimNames = claims;
            if (ephemeral.length) facts.ephemeralVolumes = ephemeral;
          }
          if (!images(spec, facts)) return undefined;
        }
        return phase(v, facts) ? facts : undefined;
      }
      case 'Namespace': {
        const spec = optObj(v.spec);
        if (spec === BAIL) return undefined;
        if (spec) {
          const fins = optStrList(spec.finalizers);
          if (fins === BAIL) return undefined;
          // As the Extractor: `spec: {}` is finalized, no spec at all is a manifest (R56).
          facts.namespaceFinalizers = fins ?? [];
        }
        return phase(v, facts) && namespaceConditions(v, facts) ? facts : undefined;
      }
      case 'PersistentVolumeClaim': {
        const spec = optObj(v.spec);
        if (spec === BAIL) return undefined;
        if (spec) {
          const vn = optStr(spec.volumeName);
          if (vn === BAIL) return undefined;
          if (vn !== undefined) facts.volumeName = vn;
        }
        return facts;
      }
      case 'PersistentVolume': {
        const spec = optObj(v.spec);
        if (spec === BAIL) return undefined;
        if (spec) {
          const ref = optObj(spec.claimRef);
          if (ref === BAIL) return undefined;
          if (ref) {
            const ns = optStr(ref.namespace);
            const name = optStr(ref.name);
            const uid = optStr(ref.uid);
            if (ns === BAIL || name === BAIL || uid === BAIL) return undefined;
            facts.claimRef = uid === undefined ? { namespace: ns ?? '', name: name ?? '' } : { namespace: ns ?? '', name: name ?? '', uid };
          }
          const policy = optStr(spec.persistentVolumeReclaimPolicy);
          if (policy === BAIL) return undefined;
          if (policy !== undefined) facts.reclaimPolicy = policy;
        }
        const meta = optObj(v.metadata);
        const ann = meta && meta !== BAIL ? optObj(meta.annotations) : undefined;
        if (ann === BAIL) return undefined;
        const provisioner = ann ? optStr(ann['pv.kubernetes.io/provisioned-by']) : undefined;
        if (provisioner === BAIL) return undefined;
        if (provisioner !== undefined) facts.provisionedBy = provisioner;
        return phase(v, facts) ? facts : undefined;
      }
      case 'Endpoints':
        return undefined;
      default:
        return facts;
    }
  }
  // CRDs and the objects that can block a namespace (blockerFacts.ts) are few: the Extractor reads them.
  if ((kind === 'CustomResourceDefinition' && group === 'apiextensions.k8s.io') || isBlockerKind(group, kind)) return undefined;
  let podSpecPath: string[] | undefined;
  if (WORKLOAD_GROUPS.get(kind)?.includes(group)) podSpecPath = ['spec', 'template', 'spec'];
  else if (kind === 'CronJob' && group === 'batch') podSpecPath = ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  if (podSpecPath) {
    let cur: Obj | undefined = v;
    for (const key of podSpecPath) {
      const next: Maybe<Obj> = optObj(cur[key]);
      if (next === BAIL) return undefined;
      if (!next) {
        cur = undefined;
        break;
      }
      cur = next;
    }
    if (cur && !images(cur, facts)) return undefined;
  }
  if (SCALABLE.has(kind) && group === 'apps') {
    const spec = optObj(v.spec);
    if (spec === BAIL) return undefined;
    const replicas = spec ? spec.replicas : undefined;
    if (typeof replicas === 'number' && Number.isInteger(replicas)) {
      if (replicas === 0) facts.scaledToZero = true;
    } else if (!nullish(replicas)) return undefined; // the YAML path's warning says what is wrong
  }
  return facts;
}

function images(podSpec: Obj, facts: ObjectFacts): boolean {
  let out: string[] | undefined;
  for (const key of ['initContainers', 'containers']) {
    const list = podSpec[key];
    if (nullish(list)) continue;
    if (!Array.isArray(list)) return false;
    for (const c of list) {
      if (!isObj(c)) continue;
      const image = optStr(c.image);
      if (image === BAIL) return false;
      if (image !== undefined && !(out ??= []).includes(image)) out.push(image);
    }
  }
  if (out?.length) facts.images = out;
  return true;
}

function phase(v: Obj, facts: ObjectFacts): boolean {
  const status = optObj(v.status);
  if (status === BAIL) return false;
  if (!status) return true;
  const p = optStr(status.phase);
  if (p === BAIL) return false;
  if (p !== undefined) facts.phase = p;
  return true;
}

function namespaceConditions(v: Obj, facts: ObjectFacts): boolean {
  const status = v.status;
  if (!isObj(status) || nullish(status.conditions)) return true; // phase() has bailed on a status of the wrong type
  if (!Array.isArray(status.conditions)) return false;
  const out: NamespaceCondition[] = [];
  for (const c of status.conditions) {
    if (!isObj(c)) continue;
    const type = optStr(c.type);
    const st = optStr(c.status);
    const reason = optStr(c.reason);
    const message = optStr(c.message);
    const since = optStr(c.lastTransitionTime);
    if (type === BAIL || st === BAIL || reason === BAIL || message === BAIL || since === BAIL) return false;
    if (type === undefined || st === undefined) continue;
    const condition: NamespaceCondition = { type, status: st };
    if (reason !== undefined) condition.reason = reason;
    if (message !== undefined) condition.message = message;
    if (since !== undefined) condition.lastTransitionTime = since;
    out.push(condition);
  }
  if (out.length) facts.namespaceConditions = out;
  return true;
}
