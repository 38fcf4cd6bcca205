// package.json's contributions against the code: settings and their defaults match shared/src/wire/settings.ts, every code
// the server can report has a severity setting, every command a menu or link names exists and is registered.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../server/src/engine/analysis/findingTypes';
import { DEFAULT_SETTINGS } from '../../shared/src/protocol';
import { CLUSTER_SETTING_DEFAULTS, CONNECTION_SETTINGS, SERVER_SETTING_SECTIONS } from '../../client/src/logic/clusterSettings';
import { parseControllers } from '../../server/src/engine/simulation/controllerSet';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const settings = contributes.configuration.properties;
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
/** Source text without whitespace: what it says, however the formatter wraps it. */
const code = (file: string) => read(file).replace(/\s+/g, '');

/** LoadProblemCode is a type: read its members from the source. */
function loadProblemCodes(): string[] {
  const source = read('server/src/sources/manifests/loadProblem.ts');
  const union = /export type LoadProblemCode =([^;]*);/.exec(source)?.[1] ?? '';
  return [...union.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
}

describe('package.json settings', () => {
  it('has the defaults of DEFAULT_SETTINGS', () => {
    expect(settings['kubeGcLens.simulation.controllers'].default).toBe(DEFAULT_SETTINGS.simulation.controllers);
    expect(settings['kubeGcLens.finalizerOwners'].default).toEqual(DEFAULT_SETTINGS.finalizerOwners);
    expect(settings['kubeGcLens.severity'].default).toEqual(DEFAULT_SETTINGS.severity);
    expect(settings['kubeGcLens.files.include'].default).toEqual(DEFAULT_SETTINGS.files.include);
    expect(settings['kubeGcLens.files.exclude'].default).toEqual(DEFAULT_SETTINGS.files.exclude);
  });

  it('describes every setting, and every choice of the controllers mode', () => {
    for (const [key, schema] of Object.entries<Record<string, unknown>>(settings)) {
      expect(key).toMatch(/^kubeGcLens\./);
      expect(schema.description ?? schema.markdownDescription, key).toBeTruthy();
    }
    // builtin, gc, or a kube-controller-manager --controllers list: a string with examples, each one valid.
    const controllers = settings['kubeGcLens.simulation.controllers'];
    expect(controllers.type).toBe('string');
    expect(controllers.examples.slice(0, 2)).toEqual(['builtin', 'gc']);
    for (const example of controllers.examples) expect(parseControllers(example), example).not.toHaveProperty('error');
    expect(controllers.markdownDescription).toMatch(/kube-controller-manager `--controllers` list/);
  });

  it('offers a severity for every finding code and every load-problem code, and nothing else', () => {
    const codes = [...FINDING_CODES, ...loadProblemCodes()];
    expect(loadProblemCodes()).toContain('yaml-syntax');
    expect(Object.keys(settings['kubeGcLens.severity'].properties).sort()).toEqual([...codes].sort());
    for (const [code, schema] of Object.entries<{ enum: string[]; markdownDescription: string }>(
      settings['kubeGcLens.severity'].properties,
    )) {
      expect(schema.enum).toEqual(['error', 'warning', 'information', 'hint', 'off']);
      expect(schema.markdownDescription.startsWith(`\`${code}\` (default: `)).toBe(true);
    }
    expect(settings['kubeGcLens.severity'].additionalProperties).toBe(false);
  });

  it('ships docs/findings.md, which every diagnostic links to', () => {
    expect(read('.vscodeignore').split('\n')).toContain('!docs/findings.md');
    expect(read('scripts/package.mjs')).toContain("'docs/findings.md'");
  });

  it('describes a finalizer owner rule with the fields of FinalizerOwnerRule', () => {
    const item = settings['kubeGcLens.finalizerOwners'].items;
    expect(Object.keys(item.properties)).toEqual(['finalizer', 'workload', 'external', 'running']);
    expect(item.required).toEqual(['finalizer']);
    expect(Object.keys(item.properties.workload.properties)).toEqual(['kind', 'namespace', 'name']);
  });
});

describe('package.json commands and views', () => {
  const declared = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));
  const extensionSource = code('client/src/extension.ts');

  it('declares every command under "Kubernetes GC" and registers each one', () => {
    for (const c of contributes.commands) {
      expect(c.category, c.command).toBe('Kubernetes GC');
      expect(extensionSource, c.command).toContain(`registerCommand('${c.command}'`);
    }
    expect([...declared].filter((c) => !c.startsWith('kubeGcLens.stuckObjects.'))).toEqual([
      'kubeGcLens.simulateDelete',
      'kubeGcLens.checkWorkspace',
      'kubeGcLens.showStuckObjects',
      'kubeGcLens.showGraph',
      'kubeGcLens.showInGraph',
      'kubeGcLens.revealLocation',
      'kubeGcLens.cluster.connect',
      'kubeGcLens.cluster.disconnect',
      'kubeGcLens.cluster.selectContext',
      'kubeGcLens.cluster.openObject',
      'kubeGcLens.cluster.actions',
    ]);
  });

  it('names only declared commands in menus and welcome content', () => {
    for (const [menu, entries] of Object.entries<{ command: string }[]>(contributes.menus)) {
      for (const e of entries) expect(declared.has(e.command), `${menu}: ${e.command}`).toBe(true);
    }
    for (const w of contributes.viewsWelcome) {
      for (const m of w.contents.matchAll(/\(command:([\w.]+)\)/g)) expect(declared.has(m[1]), m[1]).toBe(true);
    }
  });

  it('hides commands that need arguments from the palette, and offers Simulate Delete in YAML/JSON editors', () => {
    const hidden = contributes.menus.commandPalette
      .filter((e: { when: string }) => e.when === 'false')
      .map((e: { command: string }) => e.command);
    expect(hidden).toEqual([
      'kubeGcLens.revealLocation',
      'kubeGcLens.stuckObjects.refresh',
      'kubeGcLens.stuckObjects.reveal',
      'kubeGcLens.stuckObjects.simulate',
      'kubeGcLens.stuckObjects.showInGraph',
      'kubeGcLens.stuckObjects.openReport',
      'kubeGcLens.stuckObjects.copyCommand',
      'kubeGcLens.stuckObjects.removeFinalizer',
      'kubeGcLens.stuckObjects.applyFix',
      'kubeGcLens.showInGraph',
      'kubeGcLens.cluster.actions',
    ]);
    const kubernetesEditor = '(editorLangId == yaml || editorLangId == json) && kubeGcLens.activeEditorIsKubernetes';
    expect(contributes.menus['editor/context']).toEqual([
      { command: 'kubeGcLens.simulateDelete', when: kubernetesEditor, group: 'kubeGcLens@1' },
      { command: 'kubeGcLens.checkWorkspace', when: kubernetesEditor, group: 'kubeGcLens@2' },
    ]);
  });

  it('gives every command an icon, and the Stuck Objects view its title and item actions', () => {
    for (const c of contributes.commands) expect(c.icon, c.command).toMatch(/^\$\([a-z-]+\)$/);
    expect(contributes.menus['view/title'].map((e: { command: string }) => e.command)).toEqual([
      'kubeGcLens.checkWorkspace',
      'kubeGcLens.stuckObjects.refresh',
    ]);
    for (const e of [...contributes.menus['view/title'], ...contributes.menus['view/item/context']])
      expect(e.when).toMatch(/^view == kubeGcLens\.stuckObjects\b/);
  });

  it('contributes the Stuck Objects view with an icon, and activates on YAML and JSON only', () => {
    expect(contributes.views.explorer).toEqual([
      {
        id: 'kubeGcLens.stuckObjects',
        name: 'Stuck Objects',
        icon: '$(watch)',
        contextualTitle: 'Kube GC Lens',
        when: 'kubeGcLens.started',
      },
    ]);
    // VS Code 1.74+ generates onCommand, onView and onWalkthrough events from the contributions (engines ^1.91).
    expect(pkg.engines.vscode).toBe('^1.91.0');
    // And a graph panel restored after a reload activates it (its serializer must be registered by then).
    expect(pkg.activationEvents).toEqual(['onLanguage:yaml', 'onLanguage:json', 'onWebviewPanel:kubeGcLens.graph']);
    expect(pkg.main).toBe('./dist/extension.js');
  });
});

describe('package.json walkthrough', () => {
  const [walkthrough] = contributes.walkthroughs;
  const declared = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));

  it('walks through opening a manifest, the diagnostics, Simulate Delete and the Stuck Objects view', () => {
    expect(contributes.walkthroughs).toHaveLength(1);
    expect(walkthrough.steps.map((s: { id: string }) => s.id)).toEqual(['openManifest', 'diagnostics', 'simulateDelete', 'stuckObjects']);
    expect(walkthrough.steps.map((s: { completionEvents: string[] }) => s.completionEvents)).toEqual([
      ['onContext:kubeGcLens.activeEditorIsKubernetes'],
      ['onCommand:workbench.actions.view.problems'],
      ['onCommand:kubeGcLens.simulateDelete'],
      ['onView:kubeGcLens.stuckObjects'],
    ]);
  });

  it('links each step to a command (ours declared) and to markdown media that the .vsix ships', () => {
    const vscodeignore = read('.vscodeignore').split('\n');
    expect(vscodeignore).toContain('!walkthrough/*.md');
    expect(code('scripts/package.mjs')).toMatch(/'walkthrough',?\]/);
    for (const step of walkthrough.steps as { id: string; description: string; media: { markdown: string } }[]) {
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
      expect(links, step.id).toHaveLength(1);
      if (links[0].startsWith('kubeGcLens.')) expect(declared.has(links[0]), links[0]).toBe(true);
      expect(step.media.markdown, step.id).toMatch(/^walkthrough\/[a-z-]+\.md$/);
      expect(read(step.media.markdown).startsWith('# '), step.media.markdown).toBe(true);
    }
  });
});

describe('package.json: the live cluster', () => {
  const commands = new Map<string, { title: string }>(contributes.commands.map((c: { command: string; title: string }) => [c.command, c]));

  it('offers Connect, Disconnect (only while connected) and Select Context in the palette', () => {
    expect(commands.get('kubeGcLens.cluster.connect')?.title).toBe('Connect to Cluster');
    expect(commands.get('kubeGcLens.cluster.disconnect')?.title).toBe('Disconnect from Cluster');
    expect(commands.get('kubeGcLens.cluster.selectContext')?.title).toBe('Select Cluster Context…');
    expect(contributes.menus.commandPalette).toContainEqual({
      command: 'kubeGcLens.cluster.disconnect',
      when: 'kubeGcLens.clusterConnected',
    });
    expect(read('client/src/cluster.ts')).toContain("CLUSTER_CONNECTED_KEY = 'kubeGcLens.clusterConnected'");
    expect(read('client/src/cluster.ts')).toContain("CLUSTER_ACTIONS_COMMAND = 'kubeGcLens.cluster.actions'");
  });

  it('has the cluster settings with the defaults the client assumes', () => {
    expect(settings['kubeGcLens.cluster.autoConnect']).toMatchObject({ type: 'boolean', default: CLUSTER_SETTING_DEFAULTS.autoConnect });
    expect(settings['kubeGcLens.cluster.context']).toMatchObject({ type: 'string', default: CLUSTER_SETTING_DEFAULTS.context });
    expect(settings['kubeGcLens.cluster.namespaces']).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      default: CLUSTER_SETTING_DEFAULTS.namespaces,
    });
    expect(settings['kubeGcLens.cluster.kubeconfig']).toMatchObject({ type: 'string', default: CLUSTER_SETTING_DEFAULTS.kubeconfig });
    expect(settings['kubeGcLens.cluster.stuckAfterMinutes']).toMatchObject({
      type: 'number',
      default: CLUSTER_SETTING_DEFAULTS.stuckAfterMinutes,
      minimum: 0,
    });
    // The one setting the server reads besides stuckAfterMinutes: the user's alone (application scope, restricted).
    expect(settings['kubeGcLens.cluster.allowWrites']).toMatchObject({ type: 'boolean', default: false, scope: 'application' });
    expect(
      Object.keys(settings)
        .filter((k) => k.startsWith('kubeGcLens.cluster.') && k !== 'kubeGcLens.cluster.allowWrites')
        .map((k) => k.slice('kubeGcLens.cluster.'.length))
        .sort(),
    ).toEqual(Object.keys(CLUSTER_SETTING_DEFAULTS).sort());
  });

  it('syncs every setting the server reads to it, and not the connection settings (they would reload the workspace)', () => {
    const synced = (key: string) => SERVER_SETTING_SECTIONS.some((s) => key === s || key.startsWith(`${s}.`));
    const connection = CONNECTION_SETTINGS.map((k) => `kubeGcLens.cluster.${k}`);
    for (const key of Object.keys(settings)) expect(synced(key), key).toBe(!connection.includes(key));
    // Every leaf of the server's own settings (DEFAULT_SETTINGS) is synced.
    const leaves = (o: object, prefix: string): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length ? leaves(v, `${prefix}.${k}`) : [`${prefix}.${k}`],
      );
    for (const key of leaves(DEFAULT_SETTINGS, 'kubeGcLens')) expect(synced(key), key).toBe(true);
    expect(settings['kubeGcLens.cluster.stuckAfterMinutes'].default).toBe(DEFAULT_SETTINGS.cluster.stuckAfterMinutes);
    expect(SERVER_SETTING_SECTIONS).toContain('files.exclude');
    expect(read('client/src/lazyClient.ts')).toContain('configurationSection: SERVER_SETTING_SECTIONS');
  });

  it('puts Disconnect and Select Context on the live section of the Stuck Objects view', () => {
    const live = contributes.menus['view/item/context'].filter((e: { when: string }) => e.when.endsWith('viewItem == section.live'));
    expect(live.map((e: { command: string; group: string }) => `${e.command} ${e.group}`)).toEqual([
      'kubeGcLens.cluster.disconnect inline@1',
      'kubeGcLens.cluster.selectContext navigation@1',
      'kubeGcLens.cluster.disconnect navigation@2',
    ]);
  });
});

describe('package.json: the ownership graph', () => {
  const commands = new Map<string, { title: string }>(contributes.commands.map((c: { command: string; title: string }) => [c.command, c]));

  it("offers Show Ownership Graph in the palette, Show in Graph on the Stuck Objects view's objects", () => {
    expect(commands.get('kubeGcLens.showGraph')?.title).toBe('Show Ownership Graph');
    expect(commands.get('kubeGcLens.showInGraph')?.title).toBe('Show in Graph');
    expect(contributes.menus['view/item/context']).toContainEqual({
      command: 'kubeGcLens.stuckObjects.showInGraph',
      when: 'view == kubeGcLens.stuckObjects && viewItem =~ /^object/',
      group: 'navigation@3',
    });
    // The view type the serializer and the activation event name.
    expect(read('client/src/logic/graphHtml.ts')).toContain("GRAPH_VIEW_TYPE = 'kubeGcLens.graph'");
    expect(read('client/src/graph/graphPanel.ts')).toContain('registerWebviewPanelSerializer(GRAPH_VIEW_TYPE');
    // The command the server's lenses and hovers run is the one registered (and trusted in hovers).
    expect(read('shared/src/wire/webview.ts')).toContain("SHOW_IN_GRAPH_COMMAND = 'kubeGcLens.showInGraph'");
    expect(read('client/src/lazyClient.ts')).toContain('enabledCommands: [SHOW_IN_GRAPH_COMMAND]');
  });

  it('has no command: link in the README (vsce refuses to package one)', () => {
    expect(read('README.md')).not.toMatch(/\]\(command:/);
  });

  it('ships the webview bundle in the .vsix, built by the packaging script', () => {
    expect(read('.vscodeignore').split('\n')).toContain('!dist/webview/**');
    expect(read('scripts/package.mjs')).toMatch(/'client', 'server', 'webview'/);
  });
});
