// The status bar item and the Check Workspace summary.

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../server/src/engine/analysis/findingTypes';
import type { CheckResult, ServerStatus } from '../../shared/src/protocol';
import { checkSummary, effectiveSeverity, statusBarModel } from '../../client/src/logic/statusText';

const status = (extra: Partial<ServerStatus>): ServerStatus => ({
  protocolVersion: 1,
  state: 'ready',
  files: 14,
  objects: 120,
  findings: 3,
  stuck: 1,
  problems: 0,
  ...extra,
});

describe('statusBarModel', () => {
  it('says the server is starting or loading', () => {
    expect(statusBarModel(undefined).text).toBe('$(sync~spin) Kube GC');
    expect(statusBarModel(status({ state: 'loading' })).text).toBe('$(sync~spin) Kube GC: loading…');
  });

  it('counts objects, findings and stuck objects; a click shows what matters', () => {
    expect(statusBarModel(status({}))).toEqual({
      text: '$(warning) Kube GC: 120 objects · 3 findings · 1 stuck',
      tooltip: 'Kube GC Lens: 120 objects in 14 files · 3 findings · 1 stuck terminating\nClick to show the stuck objects.',
      command: 'kubeGcLens.showStuckObjects',
    });
    expect(statusBarModel(status({ objects: 1, files: 1, findings: 1, stuck: 0, problems: 2 }))).toEqual({
      text: '$(info) Kube GC: 1 object · 1 finding · 0 stuck',
      tooltip:
        'Kube GC Lens: 1 object in 1 file · 1 finding · 0 stuck terminating · 2 problems reading documents\nClick to show the Problems panel.',
      command: 'workbench.actions.view.problems',
    });
    expect(statusBarModel(status({ findings: 0, stuck: 0 })).text).toBe('$(check) Kube GC: 120 objects · 0 findings · 0 stuck');
  });
});

describe('checkSummary', () => {
  const finding = (code: Finding['code'], severity: Finding['severity']): Finding => ({
    code,
    severity,
    message: 'm',
    object: { apiVersion: 'v1', kind: 'Pod', namespace: 'a', name: 'b', uid: 'u' },
    location: { kind: 'object' },
    related: [],
  });
  const result: CheckResult = {
    files: 14,
    objects: 120,
    problems: 2,
    findings: [
      finding('dangling-owner', 'error'),
      finding('ownership-cycle', 'warning'),
      finding('ownership-cycle', 'warning'),
      finding('stuck-terminating', 'info'),
    ],
  };

  it('counts findings by severity and mentions load problems', () => {
    expect(checkSummary(result, {})).toBe(
      'Checked 14 files: 120 objects, 4 findings (1 error, 2 warnings, 1 information), 2 problems reading documents.',
    );
  });

  it('applies the severity setting: a code turned off is not counted', () => {
    expect(checkSummary(result, { 'ownership-cycle': 'off', 'dangling-owner': 'hint' })).toBe(
      'Checked 14 files: 120 objects, 2 findings (1 information, 1 hint), 2 problems reading documents.',
    );
    expect(checkSummary({ ...result, findings: [], problems: 0, files: 1, objects: 1 }, {})).toBe('Checked 1 file: 1 object, no findings.');
  });

  it('ignores inherited keys of the setting object', () => {
    expect(effectiveSeverity({ code: 'dangling-owner', severity: 'error' }, JSON.parse('{"__proto__": {"dangling-owner": "off"}}'))).toBe(
      'error',
    );
  });
});
