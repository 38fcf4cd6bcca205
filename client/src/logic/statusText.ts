// Words for what the server reports: the status bar item and the Check Workspace summary.

import type { CheckResult, Finding, ServerStatus, SeveritySetting } from '../../../shared/src/protocol';
import { count } from './objects';

export interface StatusBarModel {
  /** May contain `$(icon)`s; holds no user text. */
  text: string;
  tooltip: string;
  /** What a click does: the stuck-objects view when something is stuck, else the Problems panel. */
  command: 'kubeGcLens.showStuckObjects' | 'workbench.actions.view.problems';
}

export function statusBarModel(status: ServerStatus | undefined): StatusBarModel {
  if (!status) {
    return {
      text: '$(sync~spin) Kube GC',
      tooltip: 'Kube GC Lens: starting the language server…',
      command: 'workbench.actions.view.problems',
    };
  }
  if (status.state === 'loading') {
    return {
      text: '$(sync~spin) Kube GC: loading…',
      tooltip: 'Kube GC Lens: reading the Kubernetes manifests of the workspace…',
      command: 'workbench.actions.view.problems',
    };
  }
  const icon = status.stuck > 0 ? '$(warning)' : status.findings > 0 ? '$(info)' : '$(check)';
  const tooltip = [
    `Kube GC Lens: ${count(status.objects, 'object')} in ${count(status.files, 'file')}`,
    `${count(status.findings, 'finding')}`,
    `${status.stuck} stuck terminating`,
    ...(status.problems ? [`${count(status.problems, 'problem')} reading documents`] : []),
  ].join(' · ');
  return {
    text: `${icon} Kube GC: ${count(status.objects, 'object')} · ${count(status.findings, 'finding')} · ${status.stuck} stuck`,
    tooltip: `${tooltip}\n${status.stuck > 0 ? 'Click to show the stuck objects.' : 'Click to show the Problems panel.'}`,
    command: status.stuck > 0 ? 'kubeGcLens.showStuckObjects' : 'workbench.actions.view.problems',
  };
}

/** The severity a finding is shown with, after the user's `kubeGcLens.severity` setting ("off": not shown). */
export function effectiveSeverity(
  f: Pick<Finding, 'code' | 'severity'>,
  settings: Partial<Record<string, SeveritySetting>>,
): SeveritySetting {
  const own = Object.prototype.hasOwnProperty.call(settings, f.code) ? settings[f.code] : undefined;
  return own ?? (f.severity === 'info' ? 'information' : f.severity);
}

/** `Checked 14 files: 120 objects, 3 findings (1 error, 2 warnings), 2 problems reading documents.` */
export function checkSummary(result: CheckResult, settings: Partial<Record<string, SeveritySetting>>): string {
  const bySeverity = new Map<SeveritySetting, number>();
  for (const f of result.findings) {
    const s = effectiveSeverity(f, settings);
    bySeverity.set(s, (bySeverity.get(s) ?? 0) + 1);
  }
  const shown = result.findings.length - (bySeverity.get('off') ?? 0);
  const parts = (['error', 'warning', 'information', 'hint'] as const)
    .filter((s) => bySeverity.get(s))
    .map((s) => (s === 'information' ? `${bySeverity.get(s)} information` : count(bySeverity.get(s)!, s)));
  const findings = shown ? `${count(shown, 'finding')} (${parts.join(', ')})` : 'no findings';
  const problems = result.problems ? `, ${count(result.problems, 'problem')} reading documents` : '';
  return `Checked ${count(result.files, 'file')}: ${count(result.objects, 'object')}, ${findings}${problems}.`;
}
