// package.json's contributions against the code: settings and their defaults match protocol.ts, every code
// the server can report has a severity setting, every command a menu or link names exists and is registered.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../server/src/engine/analysis/findingTypes';
import { DEFAULT_SETTINGS } from '../../server/src/protocol';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const settings = contributes.configuration.properties;
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** LoadProblemCode is a type: read its members from the source. */
function loadProblemCodes(): string[] {
  const source = read('server/src/sources/manifests/parseManifest.ts');
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
    expect(settings['kubeGcLens.simulation.controllers'].enum).toEqual(['builtin', 'gc']);
    expect(settings['kubeGcLens.simulation.controllers'].enumDescriptions).toHaveLength(2);
  });

  it('offers a severity for every finding code and every load-problem code, and nothing else', () => {
    const codes = [...FINDING_CODES, ...loadProblemCodes()];
    expect(loadProblemCodes()).toContain('yaml-syntax');
    expect(Object.keys(settings['kubeGcLens.severity'].properties).sort()).toEqual([...codes].sort());
    for (const [code, schema] of Object.entries<{ enum: string[]; markdownDescription: string }>(settings['kubeGcLens.severity'].properties)) {
      expect(schema.enum).toEqual(['error', 'warning', 'information', 'hint', 'off']);
      expect(schema.markdownDescription.startsWith(`\`${code}\` (default: `)).toBe(true);
    }
    expect(settings['kubeGcLens.severity'].additionalProperties).toBe(false);
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
  const extensionSource = read('client/src/extension.ts');

  it('declares every command under "Kubernetes GC" and registers each one', () => {
    for (const c of contributes.commands) {
      expect(c.category, c.command).toBe('Kubernetes GC');
      expect(extensionSource, c.command).toContain(`registerCommand('${c.command}'`);
    }
    expect([...declared].filter((c) => !c.startsWith('kubeGcLens.stuckObjects.'))).toEqual([
      'kubeGcLens.simulateDelete', 'kubeGcLens.checkWorkspace', 'kubeGcLens.showStuckObjects', 'kubeGcLens.revealLocation',
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
    const hidden = contributes.menus.commandPalette.filter((e: { when: string }) => e.when === 'false').map((e: { command: string }) => e.command);
    expect(hidden).toEqual(['kubeGcLens.revealLocation', 'kubeGcLens.stuckObjects.refresh', 'kubeGcLens.stuckObjects.reveal', 'kubeGcLens.stuckObjects.simulate']);
    expect(contributes.menus['editor/context']).toEqual([{
      command: 'kubeGcLens.simulateDelete', when: '(editorLangId == yaml || editorLangId == json) && kubeGcLens.activeEditorIsKubernetes', group: 'kubeGcLens@1',
    }]);
  });

  it('contributes the Stuck Objects view with an icon, and activates on YAML, JSON, the commands and the view', () => {
    expect(contributes.views.explorer).toEqual([{
      id: 'kubeGcLens.stuckObjects', name: 'Stuck Objects', icon: '$(watch)', contextualTitle: 'Kube GC Lens', when: 'kubeGcLens.started',
    }]);
    expect(pkg.activationEvents).toEqual([
      'onLanguage:yaml', 'onLanguage:json', 'onCommand:kubeGcLens.simulateDelete', 'onCommand:kubeGcLens.checkWorkspace',
      'onCommand:kubeGcLens.showStuckObjects', 'onCommand:kubeGcLens.revealLocation', 'onView:kubeGcLens.stuckObjects',
    ]);
    expect(pkg.main).toBe('./dist/extension.js');
  });
});
