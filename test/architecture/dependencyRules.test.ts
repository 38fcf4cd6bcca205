// The dependency rules of .dependency-cruiser.cjs (run on the real tree by `npm run lint`), held against a sample tree
// in which each file breaks the rules it is listed with, and the rest import only what their layer may: every rule
// fires where it should and nowhere else, so that a rule that matches nothing cannot pass unnoticed.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Files that samples import: they import nothing but what their layer allows. */
const ALLOWED: Record<string, string> = {
  'server/src/engine/model.ts': "import { y } from './kinds/kindRegistry';\nexport const x = y;",
  'server/src/engine/kinds/kindRegistry.ts': 'export const y = 1;',
  'server/src/sources/files.ts': "import { x } from '../engine/model';\nimport { parse } from 'yaml';\nexport const files = [x, parse];",
  'server/src/sources/cluster/apiClient.ts': "import * as https from 'node:https';\nexport const request = https.request;",
  'server/src/sources/cluster/kubeconfig.ts': [
    "import type * as https from 'node:https';",
    "import { KubeConfig } from '@kubernetes/client-node';",
    'export type Agent = https.Agent;',
    'export const k = KubeConfig;',
  ].join('\n'),
  'server/src/workspace/workspaceModel.ts': "import { files } from '../sources/files';\nexport const model = files;",
  'server/src/app/report.ts': [
    "import { model } from '../workspace/workspaceModel';",
    "import { request } from '../sources/cluster/apiClient';",
    "import type { Wire } from '../../../shared/src/protocol';",
    'export const report: unknown[] = [model, request];',
    'export type R = Wire;',
  ].join('\n'),
  'server/src/lsp/main.ts':
    "import { createConnection } from 'vscode-languageserver/node';\nimport { report } from '../app/report';\nexport const main = [createConnection, report];",
  'server/src/cli/main.ts':
    "import { report } from '../app/report';\nimport { model } from '../workspace/workspaceModel';\nexport const main = [report, model];",
  'shared/src/protocol.ts': "import { KINDS } from './kinds';\nexport type Wire = typeof KINDS;",
  'shared/src/kinds.ts': 'export const KINDS = [];',
  'client/src/extension.ts':
    "import * as vscode from 'vscode';\nimport { LanguageClient } from 'vscode-languageclient/node';\nimport { describe } from './logic/objects';\nexport const e = [vscode, LanguageClient, describe];",
  'client/src/logic/objects.ts':
    "import type { Wire } from '../../../shared/src/protocol';\nimport * as path from 'node:path';\nexport const describe = (w: Wire) => [w, path];",
  'webview/src/ui/dom.ts':
    "import { select } from 'd3-selection';\nimport { state } from '../model/state';\nexport const dom = [select, state];",
  'webview/src/model/state.ts': "import type { Wire } from '../../../shared/src/protocol';\nexport const state = (w: Wire) => w;",
  'testkit/cluster/seedCluster.ts':
    "import { main } from '../../server/src/cli/main';\nimport { dom } from '../../webview/src/ui/dom';\nexport const seed = [main, dom];",
  'bench/generateCluster.ts':
    "import { seed } from '../testkit/cluster/seedCluster';\nimport { x } from '../server/src/engine/model';\nexport const g = [seed, x];",
  'test/helpers/manifests.ts':
    "import { g } from '../../bench/generateCluster';\nimport { main } from '../../server/src/lsp/main';\nexport const m = [g, main];",
};

/** Each sample file, what it imports, and the rules it breaks. */
const BROKEN: [file: string, text: string, rules: string[]][] = [
  // The engine imports nothing but engine files, in whatever form the import takes.
  ['server/src/engine/vscode.ts', "import * as vscode from 'vscode';", ['engine-is-pure', 'vscode-only-in-the-extension']],
  ['server/src/engine/lsp.ts', "import type { Connection } from 'vscode-languageserver/node';", ['engine-is-pure', 'lsp-only-in-lsp']],
  ['server/src/engine/jsonrpc.ts', "import { createMessageConnection } from 'vscode-jsonrpc';", ['engine-is-pure', 'lsp-only-in-lsp']],
  [
    'server/src/engine/kube.ts',
    "import { KubeConfig } from '@kubernetes/client-node';",
    ['engine-is-pure', 'only-sources-cluster-reaches-a-cluster'],
  ],
  ['server/src/engine/fs.ts', "import { readFileSync } from 'fs';", ['engine-is-pure']],
  ['server/src/engine/fsPromises.ts', "import { readFile } from 'node:fs/promises';", ['engine-is-pure']],
  ['server/src/engine/timers.ts', "import { setTimeout as sleep } from 'node:timers/promises';", ['engine-is-pure']],
  ['server/src/engine/worker.ts', "import { Worker } from 'worker_threads';", ['engine-is-pure']],
  ['server/src/engine/importEquals.ts', "import os = require('os');", ['engine-is-pure']],
  ['server/src/engine/require.ts', "const cp = require('child_process');", ['engine-is-pure']],
  ['server/src/engine/dynamic.ts', "export const net = import('node:net');", ['engine-is-pure', 'only-sources-cluster-reaches-a-cluster']],
  ['server/src/engine/reexport.ts', "export * from '../sources/files';", ['engine-is-pure']],
  ['server/src/engine/sideEffect.ts', "import '../lsp/main';", ['engine-is-pure']],
  ['server/src/engine/inlineType.ts', "type Stats = import('fs').Stats;", ['engine-is-pure']],
  ['server/src/engine/package.ts', "import { parse } from 'yaml';", ['engine-is-pure']],
  ['server/src/engine/typesNode.ts', '/// <reference types="node" />', ['engine-is-pure']],
  ['server/src/engine/testkit.ts', "import '../../../testkit/cluster/seedCluster';", ['engine-is-pure', 'product-imports-no-test-code']],
  // The layer order.
  ['server/src/sources/up.ts', "import '../workspace/workspaceModel';", ['sources-below-workspace']],
  ['server/src/workspace/up.ts', "import '../app/report';", ['workspace-below-app']],
  ['server/src/app/up.ts', "import '../lsp/main';", ['app-below-front-ends']],
  ['server/src/app/lsp.ts', "import 'vscode-languageserver';", ['lsp-only-in-lsp']],
  ['server/src/cli/lsp.ts', "import '../lsp/main';", ['cli-is-a-front-end']],
  ['server/src/lsp/cli.ts', "import '../cli/main';", ['lsp-is-a-front-end']],
  ['server/src/lsp/vscode.ts', "import 'vscode';", ['vscode-only-in-the-extension']],
  // The wire module, the extension and the webview.
  ['shared/src/engine.ts', "import '../../server/src/engine/model';", ['shared-is-the-wire']],
  ['shared/src/package.ts', "import 'yaml';", ['shared-is-the-wire']],
  ['client/src/engine.ts', "import '../../server/src/engine/model';", ['client-through-shared']],
  ['client/src/logic/vscode.ts', "import 'vscode';", ['vscode-only-in-the-extension']],
  ['client/src/logic/up.ts', "import '../extension';", ['client-logic-is-plain']],
  ['webview/src/client.ts', "import '../../client/src/extension';", ['webview-through-shared']],
  ['webview/src/node.ts', "import 'node:path';", ['no-node-in-the-webview']],
  ['webview/src/model/dom.ts', "import '../ui/dom';", ['webview-model-is-pure']],
  // The cluster: read only, one module sends requests.
  ['server/src/cli/https.ts', "import 'node:https';", ['only-sources-cluster-reaches-a-cluster']],
  ['client/src/kube.ts', "import '@kubernetes/client-node';", ['only-sources-cluster-reaches-a-cluster']],
  [
    'server/src/sources/cluster/http.ts',
    "import * as http from 'node:http';\nexport const get = http.get;",
    ['only-apiClient-sends-requests'],
  ],
  // Tests, testkit/ and benchmarks.
  ['bench/test.ts', "import '../test/helpers/manifests';", ['bench-never-imports-test']],
  ['testkit/test.ts', "import '../test/helpers/manifests';", ['testkit-below-test']],
  ['server/src/app/bench.ts', "import '../../../bench/generateCluster';", ['app-below-front-ends', 'product-imports-no-test-code']],
  // Cycles (reported once, from the first file of the loop; a type-only import closes one too), and imports that do
  // not resolve.
  ['server/src/sources/cycleA.ts', "import { b } from './cycleB';\nexport const a = b;", ['no-circular']],
  ['server/src/sources/cycleB.ts', "import type { a } from './cycleA';\nexport const b: typeof a | 1 = 1;", []],
  ['server/src/app/typo.ts', "import './reprot';", ['not-to-unresolvable']],
];

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'kube-gc-lens-rules-'));
  for (const [file, text] of [...Object.entries(ALLOWED), ...BROKEN.map(([f, t]) => [f, t] as const)]) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, file), `${text}\n`);
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const options = await extractDepcruiseOptions(path.join(REPO, '.dependency-cruiser.cjs'));
  // preserveSymlinks: packages resolve under the sample's node_modules/, as they do in the repository.
  const cruised = await cruise(['server', 'shared', 'client', 'webview', 'testkit', 'bench', 'test'], {
    ...options,
    baseDir: root,
    preserveSymlinks: true,
  });
  result = cruised.output as ICruiseResult;
}, 60_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the dependency rules (.dependency-cruiser.cjs)', () => {
  it('cruise every sample file', () => {
    const cruised = new Set(result.modules.map((m) => m.source));
    expect([...Object.keys(ALLOWED), ...BROKEN.map(([f]) => f)].filter((f) => !cruised.has(f))).toEqual([]);
  });

  it('report each sample under the rules it breaks, and nothing else', () => {
    const found = [...new Set(result.summary.violations.map((v) => `${v.from} ${v.rule.name}`))].sort();
    const expected = BROKEN.flatMap(([file, , rules]) => rules.map((rule) => `${file} ${rule}`)).sort();
    expect(found).toEqual(expected);
  });

  it('name every rule in a sample', () => {
    const rules = new Set(BROKEN.flatMap(([, , r]) => r));
    const configured = (result.summary.ruleSetUsed?.forbidden ?? []).map((r) => r.name ?? '(unnamed)');
    expect(configured.length).toBeGreaterThan(10);
    expect(configured.filter((name) => !rules.has(name))).toEqual([]);
  });
});
