// The page around the report's rendered markdown in its webview. The body comes from VS Code's markdown
// renderer; user text in it is already escaped (markdown.ts). The Content-Security-Policy is the second line of
// defence: no script, no frame, no image or font from anywhere, so even a rendering bug cannot run code or call out.

export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline';";

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); line-height: 1.5; max-width: 70em; }
h1 { font-size: 1.5em; margin-top: 0.5em; }
h2 { font-size: 1.2em; margin-top: 1.5em; border-bottom: 1px solid var(--vscode-panel-border, rgba(128,128,128,.35)); }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,.35)); padding: 2px 8px; vertical-align: top; }
blockquote { border-left: 4px solid var(--vscode-inputValidation-warningBorder, #b89500); margin: 0; padding: 4px 12px; }
code { font-family: var(--vscode-editor-font-family); }
`;

/** `title` is plain text; `bodyHtml` is the renderer's output. */
export function reportPage(title: string, bodyHtml: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${bodyHtml}
</body>
</html>
`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
