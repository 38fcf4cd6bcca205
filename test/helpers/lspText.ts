// Plain text of what the language server answers, for comparing with sentences.

import type { Hover } from 'vscode-languageserver-protocol';

/** A hover's markdown with its escapes taken out. */
export const hoverText = (h: Hover | null): string =>
  (h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '').replace(/\\(.)/g, '$1');

/** `Kind namespace/name`, or `Kind name` for a cluster-scoped object, as the live pickers show it. */
export const objectLabel = (o: { kind: string; namespace?: string; name: string }): string =>
  o.namespace ? `${o.kind} ${o.namespace}/${o.name}` : `${o.kind} ${o.name}`;
