// The cheap test that decides when the language server is worth starting: a YAML or JSON document with
// top-level `apiVersion` and `kind`. A regex, not a parse: it runs on every YAML/JSON document the editor opens.

/** Languages the extension serves (package.json activation events and the client's document selector). */
export const KUBERNETES_LANGUAGES: readonly string[] = ['yaml', 'json'];

// Top-level YAML keys start at column 0; a `kind: List` export has them at the start and the end of the file.
const YAML_API_VERSION = /^apiVersion\s*:/m;
const YAML_KIND = /^kind\s*:/m;
// JSON has no reliable "top level" without parsing; any apiVersion and kind property will do.
const JSON_API_VERSION = /"apiVersion"\s*:/;
const JSON_KIND = /"kind"\s*:/;

export function looksLikeKubernetes(languageId: string, text: string): boolean {
  const json = JSON_API_VERSION.test(text) && JSON_KIND.test(text);
  if (languageId === 'json') return json;
  // JSON is YAML too: a .yaml file may hold a JSON object.
  if (languageId === 'yaml') return (YAML_API_VERSION.test(text) && YAML_KIND.test(text)) || json;
  return false;
}
