/** The editor protocol's version (server, VS Code client, webview): a changed shape is a new version (CHANGELOG, Protocol). */
export const PROTOCOL_VERSION = 3;
