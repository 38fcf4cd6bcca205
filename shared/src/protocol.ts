// The one wire module: every shape that crosses a process or webview boundary (server ↔ client ↔ webview, and the
// CLI's JSON), the editor protocol's methods with their direction, their validators, and the small pure helpers
// every front end needs. No runtime dependency: the webview bundles it too.

export * from './protocolVersion';
export * from './kinds';
export * from './reportLayout';
export * from './wire/objects';
export * from './wire/simulation';
export * from './wire/planRequests';
export * from './wire/planSchema';
export * from './wire/graph';
export * from './wire/status';
export * from './wire/settings';
export * from './wire/liveDocuments';
export * from './wire/wayOutActions';
export * from './wire/webview';
export * from './wire/methods';
export * from './wire/validate';
