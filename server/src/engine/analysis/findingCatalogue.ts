// The one finding catalogue: what each finding code means, for people. The CLI's help and SARIF read it at run
// time; docs/findings.md and package.json's severity settings are generated from it (npm run generate:findings).
// Messages never name rules; the catalogue does, by id (R1–R63: the GC semantics spec; R55, R70 on: docs/gc-rules.md).

import type { FindingCode, Severity } from './findingTypes';

/** The rules a finding follows, each with a title a reader can follow without the spec at hand. */
export const RULE_TITLES = {
  R12: 'what admission checks in an ownerReference',
  R13: 'at most one controller reference',
  R15: 'what admission checks in finalizers, and that an update cannot undo a deletion',
  R30: 'the garbage collector leaves an object being deleted alone',
  R34: 'how the garbage collector classifies each reference (classifyReferences)',
  R35: 'what the garbage collector decides from that classification',
  R38: 'an owner deleted in the foreground waits for its blocking dependents',
  R41: 'the garbage collector never touches an object without owners; a cycle of live owners is stable',
  R42: 'where an owner is looked up',
  R43: 'a namespaced owner in another namespace',
  R45: 'a cluster-scoped dependent of a namespaced owner kind',
  R46: 'a uid under other coordinates, and kinds nothing serves',
  R49: 'the cycle breaker has false positives',
  R50: 'deadlocks the garbage collector does not break',
  R52: 'both garbage-collector finalizers on one object',
  R57: 'the namespace controller deletes Pods first (Kubernetes 1.33 on)',
  R74: "an unavailable APIService fails the namespace controller's discovery",
  R75: 'a webhook that fails closed rejects the requests it intercepts',
  R83: "a webhook the apiserver cannot call, as a Namespace's condition reports it or as the input shows its Service",
  R85: "an APIService served by a Service is an add-on's, whatever its name",
  R86: 'no backend is restored in a namespace being deleted',
} as const;

export type RuleId = keyof typeof RULE_TITLES;

/** What a code means, in words: shared by findings and load problems. */
export interface CodeDoc {
  /** The default severity (the user's setting may change it in the editor). */
  severity: Severity;
  /** When the default depends on the case, how (shown after the default). */
  severityNote?: string;
  /** A short phrase. */
  title: string;
  /** A few sentences for a Kubernetes user: what happens, and why. */
  explanation: string;
}

export interface FindingDoc extends CodeDoc {
  code: FindingCode;
  /** Only reported in the editor while connected to a cluster: what applying the file would meet there. */
  live?: boolean;
  /** The rules this finding follows (empty: an input check, not a garbage-collector rule). */
  rules: readonly RuleId[];
}

export const FINDING_CATALOGUE: Record<FindingCode, FindingDoc> = {
  'dangling-owner': {
    code: 'dangling-owner',
    severity: 'error',
    severityNote: 'warning when another owner is present',
    title: 'The owner does not exist: the object is deleted',
    explanation:
      "The input holds no object with the owner's uid, nor one of its kind and name. The garbage collector treats the reference as " +
      'dangling: it deletes the object as soon as it sees it, or, when another owner is present, only removes this ' +
      'reference and keeps the object. An object already being deleted is left alone.',
    rules: ['R34', 'R35', 'R30'],
  },
  'owner-uid-mismatch': {
    code: 'owner-uid-mismatch',
    severity: 'error',
    title: 'The owner exists with another uid',
    explanation:
      'An owner of that kind and name exists, but with another uid: typical of manifests exported from one ' +
      'cluster and applied to another, where every object gets a new uid. The garbage collector finds the owner by kind ' +
      'and name, sees another uid and treats the reference as dangling: the object is deleted unless another owner is present.',
    rules: ['R34', 'R35'],
  },
  'owner-coordinates-mismatch': {
    code: 'owner-coordinates-mismatch',
    severity: 'error',
    title: 'The uid belongs to an object of another group, kind or name',
    explanation:
      "The garbage collector looks an owner up by the reference's kind and name, never by uid, so it finds " +
      'nothing with this uid and treats the reference as dangling: the object is deleted unless another owner is present.',
    rules: ['R34', 'R46'],
  },
  'owner-namespace-mismatch': {
    code: 'owner-namespace-mismatch',
    severity: 'error',
    title: 'The owner is in another namespace',
    explanation:
      "The reference's uid is an object of that kind and name in another namespace. An ownerReference has no " +
      "namespace: a namespaced owner is looked up in its dependent's namespace, where it does not exist. The reference is dangling and the object is deleted unless another owner is present; " +
      'the real owner and its other dependents are not affected.',
    rules: ['R42', 'R43'],
  },
  'cluster-scoped-dependent-of-namespaced-owner': {
    code: 'cluster-scoped-dependent-of-namespaced-owner',
    severity: 'warning',
    title: 'A cluster-scoped object names a namespaced owner kind',
    explanation:
      'An ownerReference has no namespace, so the garbage collector cannot look a namespaced owner up from a ' +
      'cluster-scoped object. It never collects the object, even after the owner is deleted.',
    rules: ['R45'],
  },
  'unresolvable-owner-kind': {
    code: 'unresolvable-owner-kind',
    severity: 'warning',
    title: "Nothing serves the owner's apiVersion and kind",
    explanation:
      'A retired version (`extensions/v1beta1`), a kind in the wrong group (`v1 ReplicaSet`) or a lower-case kind ' +
      '(`daemonset`) cannot be resolved. The garbage collector retries the object forever: it is never collected, and ' +
      "its other references are never cleaned up either. When an object of the input has the reference's uid, the " +
      'message names it and says how the reference differs (kind, apiVersion, name, namespace); in the editor a quick ' +
      'fix writes the kind and apiVersion as that object has them when only their case is wrong.',
    rules: ['R34', 'R46'],
  },
  'multiple-controllers': {
    code: 'multiple-controllers',
    severity: 'error',
    title: 'More than one controller reference',
    explanation:
      'More than one ownerReference says `controller: true`. Only one owner may be the managing controller: the ' +
      'apiserver rejects the object on create and update.',
    rules: ['R13'],
  },
  'invalid-owner-reference': {
    code: 'invalid-owner-reference',
    severity: 'error',
    title: 'An ownerReference the apiserver rejects',
    explanation:
      'A missing uid, kind, name or apiVersion; an apiVersion that is not `<group>/<version>` or `<version>`; or a ' +
      'core `v1` Event as owner. Admission refuses the whole object.',
    rules: ['R12'],
  },
  'invalid-finalizers': {
    code: 'invalid-finalizers',
    severity: 'error',
    title: 'Finalizers the apiserver rejects',
    explanation:
      'A finalizer name that is not a qualified name (such as `example.com/cleanup`), or both `orphan` and ' +
      '`foregroundDeletion` on one object. Were such an object stored anyway, the garbage collector would orphan its ' +
      'dependents and leave `foregroundDeletion` in place.',
    rules: ['R15', 'R52'],
  },
  'ownership-cycle': {
    code: 'ownership-cycle',
    severity: 'warning',
    title: 'Objects that own each other',
    explanation:
      'Objects that own each other, or an object that names itself as its owner. The garbage collector leaves ' +
      'such a cycle alone while its members exist; deleting one member in the foreground relies on the garbage ' +
      "collector's cycle breaker, which can let an owner go before its dependents.",
    rules: ['R41', 'R35', 'R49'],
  },
  'foreground-deadlock': {
    code: 'foreground-deadlock',
    severity: 'warning',
    title: 'A foreground deletion of the owner would wait forever',
    explanation:
      'This dependent blocks its owner (`blockOwnerDeletion: true`) and cannot finish: a finalizer nobody removes, ' +
      'or it is its own owner. A foreground deletion of the owner leaves it Terminating with `foregroundDeletion` ' +
      'forever. Setting `blockOwnerDeletion: false` on the reference lets the owner go.',
    rules: ['R38', 'R50'],
  },
  'finalizer-deadlock': {
    code: 'finalizer-deadlock',
    severity: 'warning',
    title: 'Deleting the namespace would hang on this finalizer',
    explanation:
      'Deleting the namespace deletes the operator that removes this finalizer before the object that carries ' +
      'it (from Kubernetes 1.33 the namespace controller deletes Pods first; before, it is a race). The object keeps its ' +
      'finalizer and the namespace stays Terminating. Confirmed by simulating the namespace deletion. Delete the object ' +
      'first, or run the operator in another namespace.',
    rules: ['R57'],
  },
  'stuck-terminating': {
    code: 'stuck-terminating',
    severity: 'warning',
    title: 'An object being deleted that cannot finish',
    explanation:
      'The object has a `deletionTimestamp` but cannot go: a finalizer nobody removes, a blocking dependent that ' +
      'cannot finish, a Pod waiting for a kubelet. The message gives the chain of reasons.',
    rules: ['R50'],
  },
  'conflicting-copies': {
    code: 'conflicting-copies',
    severity: 'warning',
    title: 'The same uid twice, with different content',
    explanation:
      'A cluster holds one object per uid: the first copy in the input is used and the other is ignored. A manifest ' +
      'without a uid has one made up from its group, kind, namespace and name, so two differing copies of it conflict ' +
      "too. The message names the object (`Kind namespace/name`) and each copy's file.",
    rules: [],
  },
  'unavailable-apiservice': {
    code: 'unavailable-apiservice',
    severity: 'warning',
    title: 'An unavailable APIService keeps every Namespace from finishing its deletion',
    explanation:
      'The APIService is served by a Service (an aggregated API such as metrics.k8s.io) and its `Available` condition is ' +
      'not True: the aggregator answers its discovery with 503, so the namespace controller, which discovers every ' +
      'resource type before it finalizes a Namespace, ends each pass in an error and never removes `kubernetes` from ' +
      "`spec.finalizers`. Every Namespace being deleted stays Terminating, whatever it holds, until the APIService's " +
      "backend answers again or the APIService is deleted. An APIService served by a Service is an add-on's whatever " +
      "its name (`v1beta1.metrics.k8s.io` is metrics-server's or prometheus-adapter's): deleting it once its backend is " +
      "gone is the usual fix, and its add-on registers it again when reinstalled. Kubernetes' own groups are Local " +
      "(served by kube-apiserver, never unavailable); OpenShift's, served from `openshift-*` namespaces, are never to " +
      'be deleted. A backend whose namespace is being deleted cannot be restored there: reinstall the add-on in another ' +
      'namespace and point the APIService at it.',
    rules: ['R74', 'R85', 'R86'],
  },
  'blocking-webhook': {
    code: 'blocking-webhook',
    severity: 'warning',
    severityNote: "error when a Namespace's condition reports the apiserver failing to call it",
    title: 'A webhook without a backend rejects the requests a deletion needs',
    explanation:
      'The webhook has `failurePolicy: Fail` and its Service does not exist or has no ready endpoints, so every request it ' +
      'intercepts fails. Deleting a namespace needs DELETE requests for its content and UPDATEs that remove finalizers ' +
      "(the namespace controller's finalize of the Namespace is an UPDATE of `namespaces/finalize`); whatever the webhook " +
      'matches (rules, namespaceSelector, objectSelector) stays. Restore its backend, or set `failurePolicy: Ignore` ' +
      'while it is down. Webhooks called by URL, and webhooks with matchConditions, are not judged. A terminating ' +
      'Namespace\'s `NamespaceDeletionContentFailure` that says `failed calling webhook "NAME": …` is the apiserver\'s ' +
      'own report that the webhook fails (then an error); a Service in a namespace being deleted cannot answer either. ' +
      "Where the input holds nothing of the Service's namespace, whether it answers is unknown and the webhook is not judged.",
    rules: ['R75', 'R83'],
  },
  'collected-on-apply': {
    code: 'collected-on-apply',
    severity: 'error',
    live: true,
    title: 'Applying the file gets the object garbage-collected',
    explanation:
      "No owner the file names exists in the connected cluster with its uid (for example, the file's owner uid " +
      "is not the live Deployment's), or its only owners are being deleted in the foreground. The garbage collector " +
      'deletes the object right after it is applied.',
    rules: ['R34', 'R35'],
  },
  'live-dangling-owner': {
    code: 'live-dangling-owner',
    severity: 'warning',
    live: true,
    title: 'Applying the file drops this ownerReference',
    explanation:
      'An owner the file names does not exist in the connected cluster with that uid, but another owner does: ' +
      'the garbage collector removes the dangling reference and the object stays.',
    rules: ['R34', 'R35'],
  },
  'live-terminating': {
    code: 'live-terminating',
    severity: 'warning',
    live: true,
    title: 'The object is being deleted in the connected cluster',
    explanation:
      'The live object is being deleted (the message says since when, its finalizers, and why it cannot finish ' +
      'if it cannot). Applying the file does not stop that: it only updates an object that is going away.',
    rules: ['R15'],
  },
  'live-uid-conflict': {
    code: 'live-uid-conflict',
    severity: 'warning',
    live: true,
    title: 'The file describes an earlier incarnation of the object',
    explanation:
      'The file carries a `metadata.uid` and the live object has another. The apiserver refuses to change a uid, ' +
      'so applying the file fails until `metadata.uid` is removed.',
    rules: [],
  },
};

/** A severity as people read it (the editor's word for info). */
export function severityWord(s: Severity): string {
  return s === 'info' ? 'information' : s;
}

/** The default severity in words, with how it varies. */
export function defaultSeverityText(doc: CodeDoc): string {
  return doc.severityNote ? `${severityWord(doc.severity)} (${doc.severityNote})` : severityWord(doc.severity);
}
