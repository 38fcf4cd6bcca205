// Objects as they cross a process or webview boundary. The server's engine has its own types of the same shape;
// the server hands them over as these (the compiler checks that they fit), so the wire never depends on it.

export interface Position {
  line: number;
  character: number;
}

/** 0-based, as LSP counts. */
export interface Range {
  start: Position;
  end: Position;
}

export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  /** "" for cluster-scoped objects. */
  namespace: string;
  name: string;
  uid: string;
}

/** Where an object (or one of its parts) is written: a document URI and a 0-based range. */
export interface SourceLocation {
  uri: string;
  range: Range;
}

/** One object, as lists and quick picks show it. */
export interface ObjectSummary extends ObjectIdentity {
  /** The uid was made up for a hand-written manifest (no metadata.uid). */
  syntheticUid: boolean;
  beingDeleted: boolean;
  finalizers: string[];
  ownerCount: number;
  location?: SourceLocation;
}

/** A Namespace's status condition, as its namespace controller reports it. */
export interface NamespaceCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** "Deployment shop/web", "Namespace kafka": how every front end names an object. */
export function describeObject(o: { kind: string; namespace: string; name: string }): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}
