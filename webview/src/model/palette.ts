// Concrete colours for what cannot use CSS variables: the canvas renderer and the exported SVG/PNG. The webview
// reads them from VS Code's theme variables (ui/theme.ts) whenever the theme changes; these defaults (VS Code's
// Dark Modern values) are only used when a variable is missing. Pure.

import type { KindCategory } from './kinds';
import type { NodeStatus } from './viewModel';
import type { NodeOverlay } from './scene';

export interface Palette {
  background: string;
  foreground: string;
  muted: string;
  nodeFill: string;
  border: string;
  focus: string;
  match: string;
  error: string;
  warning: string;
  info: string;
  edge: string;
  fontFamily: string;
  categories: Record<KindCategory, string>;
}

export const DEFAULT_PALETTE: Palette = {
  background: '#1f1f1f',
  foreground: '#cccccc',
  muted: '#9d9d9d',
  nodeFill: '#252526',
  border: '#454545',
  focus: '#0078d4',
  match: '#e2c08d',
  error: '#f14c4c',
  warning: '#cca700',
  info: '#3794ff',
  edge: '#8b8b8b',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif',
  categories: { workload: '#3794ff', network: '#89d185', config: '#b180d7', storage: '#cca700', cluster: '#d18616', custom: '#cccccc' },
};

export interface NodePaint {
  stroke: string;
  strokeWidth: number;
  dash: number[];
  opacity: number;
  /** A second outline outside the box (stuck under a simulation): not told apart by colour alone. */
  double: boolean;
  /** The name struck through (removed by the simulation). */
  strike: boolean;
}

/**
 * Opacities under a simulation: an object it removes stays readable (dashed, struck through, "✕ removed"), one it
 * does not touch fades further, so the two never look alike (they did at 0.18 and 0.35).
 */
export const REMOVED_OPACITY = 0.55;
export const DIMMED_OPACITY = 0.28;

export function nodePaint(p: Palette, status: NodeStatus, overlay: NodeOverlay, selected: boolean, dimmed: boolean): NodePaint {
  let stroke = p.border;
  let strokeWidth = 1;
  let dash: number[] = [];
  if (status === 'virtual') {
    stroke = p.muted;
    dash = [4, 3];
  } else if (status === 'being-deleted' || status === 'deleting-dependents') {
    stroke = p.warning;
    strokeWidth = 2;
    if (status === 'deleting-dependents') dash = [6, 2];
  } else if (status === 'stuck') {
    stroke = p.error;
    strokeWidth = 2.5;
  }
  if (overlay.state === 'deleting') {
    stroke = p.warning;
    strokeWidth = 2;
  } else if (overlay.state === 'stuck') {
    stroke = p.error;
    strokeWidth = 3;
  } else if (overlay.state === 'removed') {
    stroke = p.muted;
    strokeWidth = 1.5;
    dash = [5, 3];
  }
  if (selected || overlay.current) {
    stroke = p.focus;
    strokeWidth = 3;
  }
  const opacity = overlay.state === 'removed' ? REMOVED_OPACITY : dimmed ? DIMMED_OPACITY : 1;
  return { stroke, strokeWidth, dash, opacity, double: overlay.state === 'stuck', strike: overlay.state === 'removed' };
}

export interface EdgePaint {
  stroke: string;
  width: number;
  dash: number[];
  opacity: number;
}

export function edgePaint(
  p: Palette,
  e: { controller: boolean; dangling: boolean },
  reversed: boolean,
  overlay: 'cut' | 'gone' | undefined,
  dimmed: boolean,
): EdgePaint {
  let stroke = e.dangling ? p.error : reversed ? p.warning : p.edge;
  let dash = e.dangling ? [2, 3] : e.controller ? [] : [5, 4];
  const width = e.controller ? 1.8 : 1.1;
  let opacity = dimmed ? 0.3 : 0.9;
  if (overlay === 'cut') {
    stroke = p.error;
    dash = [3, 6];
  } else if (overlay === 'gone') {
    opacity = 0.12;
  }
  return { stroke, width, dash, opacity };
}
