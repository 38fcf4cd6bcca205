// What the graph area needs from a renderer: SVG (model/scene.ts drawn as DOM, with CSS classes and an element per
// node for screen readers) or canvas (for large graphs, see ARCHITECTURE.md). d3-zoom sits on the container and
// gives both the same transform.

import type { Scene } from '../model/scene';
import type { Zoom } from '../model/state';

export interface Renderer {
  readonly kind: 'svg' | 'canvas';
  readonly element: Element;
  /** `structure`: the nodes, edges or positions changed (else only classes and overlays). */
  setScene(scene: Scene, searching: boolean, structure: boolean): void;
  setTransform(t: Zoom): void;
  /** The node under a point of the page, for renderers without an element per node. */
  nodeAt(clientX: number, clientY: number): string | undefined;
  /** The DOM id of a node's element (aria-activedescendant), when it has one. */
  domIdOf(id: string): string | undefined;
  resize(): void;
  destroy(): void;
}
