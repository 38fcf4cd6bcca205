// One line per finding code: SARIF rule descriptions and `kubectl-gc --help`. The README has the long form.

import type { FindingCode } from '../../engine/analysis/findingTypes';

export const FINDING_DOCS: Record<FindingCode, string> = {
  'dangling-owner': 'The owner uid is absent: the garbage collector deletes the object as soon as it sees it.',
  'owner-uid-mismatch': 'An owner with that kind and name exists with another uid (manifest exported from another cluster).',
  'owner-coordinates-mismatch': 'The uid belongs to an object of another group, kind or name: the reference is dangling.',
  'owner-namespace-mismatch': 'The owner is in another namespace; owners are looked up in the dependent\'s namespace.',
  'cluster-scoped-dependent-of-namespaced-owner': 'A cluster-scoped object names a namespaced owner kind: it is never garbage-collected.',
  'unresolvable-owner-kind': 'Nothing serves the reference\'s apiVersion and kind: the GC retries forever and never collects the object.',
  'multiple-controllers': 'More than one ownerReference has controller: true: the apiserver rejects the object.',
  'invalid-owner-reference': 'An ownerReference the apiserver rejects (missing uid, kind, name or apiVersion; Event owner).',
  'invalid-finalizers': 'Finalizers the apiserver rejects (both orphan and foregroundDeletion, invalid names).',
  'ownership-cycle': 'Objects that own each other.',
  'foreground-deadlock': 'A foreground deletion of the owner would wait forever on this blocking dependent.',
  'finalizer-deadlock': 'Deleting the namespace deletes the controller that removes this finalizer: the namespace hangs in Terminating.',
  'stuck-terminating': 'An object already being deleted that cannot finish.',
  'conflicting-copies': 'The same uid appears twice with different content.',
  'collected-on-apply': 'Applying the file to the connected cluster gets the object garbage-collected: no owner it names exists there with its uid.',
  'live-dangling-owner': 'An owner the file names does not exist in the connected cluster with that uid; another owner does, so the GC drops the reference.',
  'live-terminating': 'The object is being deleted in the connected cluster (with why it cannot finish, if it cannot): applying the file does not stop that.',
  'live-uid-conflict': 'The object exists in the connected cluster with another uid: the file describes an earlier incarnation.',
};
