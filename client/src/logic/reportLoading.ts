// The report's webview while the report is computed: its title and a skeleton of the page, instead of a blank
// panel (a first report waits for the workspace to load and for VS Code's markdown renderer to start). No script,
// as the report itself (reportHtml.ts); the shimmer is CSS and stops for users who ask for reduced motion.

import { escapeHtml, reportPage } from './reportHtml';

const SKELETON_STYLE = `
.skeleton { display: block; height: 0.9em; margin: 0.6em 0; border-radius: 3px;
  background: linear-gradient(90deg, rgba(128,128,128,.12) 25%, rgba(128,128,128,.28) 50%, rgba(128,128,128,.12) 75%);
  background-size: 200% 100%; animation: shimmer 1.4s linear infinite; }
@keyframes shimmer { from { background-position: 200% 0; } to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) { .skeleton { animation: none; } }
`;

/** Widths of the skeleton's lines: a summary line, a short list, a table's rows. */
const LINES = [70, 45, 55, 40, 0, 85, 85, 85, 60];

/** `title` and `message` are plain text (escaped here). */
export function loadingPage(title: string, message: string): string {
  const lines = LINES.map((w) => (w ? `<span class="skeleton" style="width: ${w}%"></span>` : '<br>')).join('\n');
  const body = `<style>${SKELETON_STYLE}</style>
<h1>${escapeHtml(title)}</h1>
<p role="status" aria-live="polite">${escapeHtml(message)}</p>
<div aria-hidden="true">
${lines}
</div>`;
  return reportPage(title, body);
}
