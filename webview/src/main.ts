// The ownership graph webview's entry (bundled by esbuild to dist/webview/webview.js with styles.css beside it).
// The host's page (client/src/logic/graphHtml.ts) has a root element and this one nonce'd script.

import './styles.css';
import { App } from './app';
import { vscodeApi } from './vscodeApi';

const vscode = vscodeApi();
window.addEventListener('error', (e) => vscode.postMessage({ type: 'error', message: `${e.message} (${e.filename}:${e.lineno})` }));
window.addEventListener('unhandledrejection', (e) => vscode.postMessage({ type: 'error', message: String(e.reason) }));
const root = document.getElementById('kube-gc-lens-graph') ?? document.body;
new App(vscode, root).start();
