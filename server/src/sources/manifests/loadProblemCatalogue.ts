// What each load-problem code means, for people: the second half of the catalogue (findings are in
// engine/analysis/findingCatalogue). docs/findings.md and package.json's severity settings are generated from both.

import type { CodeDoc } from '../../engine/analysis/findingCatalogue';
import type { Severity } from '../../engine/analysis/findingTypes';
import type { LoadProblemCode } from './loadProblem';

export interface LoadProblemDoc extends CodeDoc {
  code: LoadProblemCode;
  /** The editor's default when it differs from the CLI's. */
  editorSeverity?: Severity;
}

export const LOAD_PROBLEM_CATALOGUE: Record<LoadProblemCode, LoadProblemDoc> = {
  'yaml-syntax': {
    code: 'yaml-syntax',
    severity: 'error',
    title: 'A YAML syntax error',
    explanation: 'The document is skipped; the other documents of the file still load.',
  },
  'json-syntax': { code: 'json-syntax', severity: 'error', title: 'A JSON syntax error', explanation: 'The document is skipped.' },
  'not-kubernetes': {
    code: 'not-kubernetes',
    severity: 'warning',
    severityNote: 'error when it is partly an object',
    title: 'Not a Kubernetes object',
    explanation: 'A document without `apiVersion` and `kind`.',
  },
  template: {
    code: 'template',
    severity: 'error',
    editorSeverity: 'info',
    title: 'A Helm or Go template',
    explanation: 'A template (`{{ }}`) that cannot be read as YAML is skipped. In a chart that is normal, so the editor only mentions it.',
  },
  'wrong-type': {
    code: 'wrong-type',
    severity: 'error',
    severityNote: 'warning where the object can still be read',
    title: 'A field of the wrong type',
    explanation: 'For example ownerReferences that are not a list, or a uid that is not a string.',
  },
  binary: { code: 'binary', severity: 'error', title: 'A binary file', explanation: 'It is not read.' },
  'too-large': {
    code: 'too-large',
    severity: 'error',
    title: 'Over the size limit',
    explanation: 'A file, or one YAML document, over its size limit is not read.',
  },
  'too-deep': {
    code: 'too-deep',
    severity: 'error',
    title: 'Nested too deeply',
    explanation: 'A document nested too deeply to be read is skipped.',
  },
  'alias-limit': {
    code: 'alias-limit',
    severity: 'error',
    title: 'Too many YAML aliases',
    explanation: "YAML aliases that expand beyond the limit (an alias bomb) are refused, as Kubernetes' decoder refuses them.",
  },
  'duplicate-key': {
    code: 'duplicate-key',
    severity: 'warning',
    title: 'A duplicate mapping key',
    explanation: 'The last value wins, as in Kubernetes.',
  },
  'kind-inferred': {
    code: 'kind-inferred',
    severity: 'info',
    title: 'apiVersion and kind inferred',
    explanation:
      "Objects without `apiVersion` or `kind` were read as the type named by their enclosing List, their `metadata.selfLink` or the file's path (as in a dump).",
  },
  unreadable: {
    code: 'unreadable',
    severity: 'error',
    title: 'A file that could not be read',
    explanation: 'For example a missing file, a folder where a file was expected, or no permission.',
  },
  'dot-syntax': {
    code: 'dot-syntax',
    severity: 'error',
    title: 'A malformed garbage-collector graph dump',
    explanation: "A `.dot` file (kube-controller-manager's /debug/controllers/garbagecollector/graph) that cannot be read.",
  },
};
