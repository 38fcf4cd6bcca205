// The ownership graph webview's page: a root element and one script, under a strict Content-Security-Policy:
// nothing by default; the script only with this page's nonce (a fresh random value per page, from
// node:crypto); styles only from the extension's bundle folder (webview.cspSource); no image, font, frame,
// connection or inline style. The webview renders every name with textContent, so the CSP is the second line of
// defence. The browser tests (test/webview) load the built bundle in exactly this page.

import { escapeHtml } from './reportHtml';

export const GRAPH_VIEW_TYPE = 'kubeGcLens.graph';
/** The bundle folder (relative to the extension): the webview's only local resource root. */
export const GRAPH_BUNDLE_DIR = 'dist/webview';

export interface GraphPageOptions {
  /** webview.cspSource: the origin VS Code serves local resources from. */
  cspSource: string;
  /** A fresh random base64 value per page. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export function graphCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`].join('; ') + ';';
}

export function graphPage(o: GraphPageOptions): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(o.nonce)) throw new Error('the nonce must be at least 16 base64 characters');
  // VS Code's own value: one or more sources separated by spaces (code-server: `'self' https://*.vscode-cdn.net`).
  // Nothing that could end the directive or the attribute.
  if (/[;,"<>\r\n]/.test(o.cspSource)) throw new Error('unexpected characters in the CSP source');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(graphCsp(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>Ownership Graph</title>
</head>
<body>
<div id="kube-gc-lens-graph"></div>
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}
