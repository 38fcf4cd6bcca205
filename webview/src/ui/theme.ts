// The theme's concrete colours for the canvas renderer and the exports, read from the CSS variables styles.css
// defines on top of VS Code's (`--kgl-*` → `--vscode-*`), and a callback when VS Code switches themes (it changes
// the body's class and the variables on the root element).

import type { KindCategory } from '../model/kinds';
import { DEFAULT_PALETTE, type Palette } from '../model/palette';

export function readPalette(): Palette {
  const style = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const d = DEFAULT_PALETTE;
  const categories = {} as Record<KindCategory, string>;
  for (const c of Object.keys(d.categories) as KindCategory[]) categories[c] = v(`--kgl-${c}`, d.categories[c]);
  return {
    background: v('--kgl-bg', d.background),
    foreground: v('--kgl-fg', d.foreground),
    muted: v('--kgl-muted', d.muted),
    nodeFill: v('--kgl-node', d.nodeFill),
    border: v('--kgl-border', d.border),
    focus: v('--kgl-focus', d.focus),
    match: v('--kgl-match', d.match),
    error: v('--kgl-error', d.error),
    warning: v('--kgl-warning', d.warning),
    info: v('--kgl-info', d.info),
    edge: v('--kgl-edge', d.edge),
    fontFamily: v('--vscode-font-family', d.fontFamily),
    categories,
  };
}

/** Calls `onChange` after VS Code changed the theme. */
export function watchTheme(onChange: () => void): void {
  const observer = new MutationObserver(() => onChange());
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'style', 'data-vscode-theme-kind'] });
}

/** 'light' | 'dark' | 'high-contrast' | 'high-contrast-light', from the body class VS Code sets. */
export function themeKind(): string {
  const c = document.body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (c.contains('vscode-high-contrast')) return 'high-contrast';
  if (c.contains('vscode-light')) return 'light';
  return 'dark';
}
