// `kubectl gc stuck` and `check` on fail-closed webhooks as users dump them (R83, R84): Kyverno uninstalled by deleting
// its namespace (the Namespace's NamespaceDeletionContentFailure names the webhook whose Service went with it), and a
// Pod whose kubelet DELETE that webhook rejects. Neither is "nothing is stuck"; no way out sends a request the
// webhook rejects before the webhook is fixed.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StuckItem } from '../../shared/src/protocol';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'webhooks');

function run(args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}
const stuckJson = (file: string) =>
  (JSON.parse(run(['stuck', '-f', join(FIXTURES, file), '-o', 'json']).stdout) as { stuck: StuckItem[] }).stuck;

describe('a fail-closed webhook whose Service went with the namespace being deleted', () => {
  it('stuck: the namespace is listed, the webhook named as the cause', () => {
    const text = run(['stuck', '-f', join(FIXTURES, 'kyverno-uninstall.yaml')]).stdout;
    expect(text).not.toContain('Nothing is stuck');
    expect(text).toContain('⧗ Namespace kyverno');
    expect(text).toContain(
      "blocking-webhook: ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg's webhook validate.kyverno.svc-fail",
    );
  });

  it('check: an error-level blocking-webhook finding, and a failing exit', () => {
    const r = run(['check', '-f', join(FIXTURES, 'kyverno-uninstall.yaml'), '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; severity: string; message: string }[] }).findings;
    expect(findings.find((f) => f.code === 'blocking-webhook')).toMatchObject({ severity: 'error' });
    expect(r.status).not.toBe(0);
  });

  it('its ways out fix the webhook; nothing finalizes the namespace past it in one step', () => {
    const ns = stuckJson('kyverno-uninstall.yaml').find((i) => i.kind === 'Namespace')!;
    const ways = ns.waysOut ?? [];
    expect(ways.length).toBeGreaterThan(0);
    expect(ways[0].command).toMatch(/^kubectl (patch|delete) validatingwebhookconfiguration\/kyverno-resource-validating-webhook-cfg/);
    for (const w of ways) if (w.command.includes('/finalize')) expect(w.requests?.length).toBeGreaterThan(1);
  });
});

describe('a Pod whose kubelet DELETE the webhook rejects (what check reports, stuck says)', () => {
  it('stuck names the webhook beside the kubelet, and never offers the force delete it rejects as a way out by itself', () => {
    const [item] = stuckJson('pod-behind-webhook.yaml');
    expect(item.blockedBy.map((r) => r.type)).toEqual(['blocking-webhook', 'graceful-termination']);
    const ways = item.waysOut ?? [];
    expect(ways.length).toBeGreaterThan(0);
    for (const w of ways) if (w.command.includes('--force')) expect(w.requests?.length).toBeGreaterThan(1);
    expect(ways.every((w) => !/^Force-delete/.test(w.title))).toBe(true);
  });
});
