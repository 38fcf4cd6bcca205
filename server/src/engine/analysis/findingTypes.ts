// Findings: what the analysis reports without deleting anything. Codes are a public contract (CLI JSON,
// SARIF rule ids, LSP diagnostic codes); never rename one.

import type { ObjectIdentity, Range } from '../model';

export const FINDING_CODES = [
  'dangling-owner',
  'owner-uid-mismatch',
  'owner-coordinates-mismatch',
  'owner-namespace-mismatch',
  'cluster-scoped-dependent-of-namespaced-owner',
  'unresolvable-owner-kind',
  'multiple-controllers',
  'invalid-owner-reference',
  'invalid-finalizers',
  'ownership-cycle',
  'foreground-deadlock',
  'finalizer-deadlock',
  'stuck-terminating',
  'conflicting-copies',
  'unavailable-apiservice',
  'blocking-webhook',
  // Against a connected live cluster (the editor only): what applying the file would meet there.
  'collected-on-apply',
  'live-dangling-owner',
  'live-terminating',
  'live-uid-conflict',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
export type Severity = 'error' | 'warning' | 'info';

/** Which part of the object a finding is about; turned into a source range when positions are known. */
export type FindingLocation =
  | { kind: 'object' }
  | { kind: 'ownerReference'; index: number; field?: 'apiVersion' | 'kind' | 'name' | 'uid' | 'controller' | 'blockOwnerDeletion' }
  | { kind: 'finalizer'; index: number }
  | { kind: 'deletionTimestamp' };

export interface RelatedInformation {
  message: string;
  object?: ObjectIdentity;
  file?: string;
  range?: Range;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** Written for a person: what will happen and why, in Kubernetes terms. */
  message: string;
  object: ObjectIdentity;
  location: FindingLocation;
  file?: string;
  range?: Range;
  related: RelatedInformation[];
}
