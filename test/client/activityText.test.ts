// The extension's log lines and the report's progress messages (client/src/logic/activityText.ts), and the report
// panel's skeleton while a report is computed (client/src/logic/reportLoading.ts).

import { describe, expect, it } from 'vitest';
import { durationText, errorLogText, simulateLogText, simulateProgressMessage } from '../../client/src/logic/activityText';
import { REPORT_CSP } from '../../client/src/logic/reportHtml';
import { loadingPage } from '../../client/src/logic/reportLoading';

describe('the log lines', () => {
  it('write durations as a person reads them', () => {
    expect([durationText(0.4), durationText(12.6), durationText(999.4), durationText(1000), durationText(4567)]).toEqual([
      '0 ms',
      '13 ms',
      '999 ms',
      '1.00 s',
      '4.57 s',
    ]);
  });

  it("time a simulation: the server's answer, then the report on screen, and where it ran", () => {
    expect(simulateLogText({ target: 'Deployment shop/web', policy: 'Background', answeredMs: 420, shownMs: 1200 })).toBe(
      'Simulate Delete Deployment shop/web (Background): answered in 420 ms, shown 1.20 s later',
    );
    expect(simulateLogText({ target: 'Namespace kafka', policy: 'API default', cluster: 'kind-dev', answeredMs: 3100, shownMs: 80 })).toBe(
      'Simulate Delete Namespace kafka (API default) on kind-dev: answered in 3.10 s, shown 80 ms later',
    );
  });

  it('log an error with its stack when it has one', () => {
    const e = new Error('boom');
    expect(errorLogText('Check Workspace failed', e)).toBe(`Check Workspace failed: ${e.stack}`);
    expect(errorLogText('Check Workspace failed', 'plain')).toBe('Check Workspace failed: plain');
  });

  it('say what a report waits for: the workspace first, while the server is loading or not started', () => {
    expect(simulateProgressMessage('ready')).toBe('simulating…');
    expect(simulateProgressMessage('loading')).toBe('waiting for the workspace to load, then simulating…');
    expect(simulateProgressMessage(undefined)).toBe('waiting for the workspace to load, then simulating…');
  });
});

describe('the report panel while the report is computed', () => {
  it('shows the title, what it waits for and a skeleton, under the report page’s CSP, with no script', () => {
    const page = loadingPage('Simulate Delete (Background)', 'Simulating the deletion: simulating…');
    expect(page).toContain(`content="${REPORT_CSP}"`);
    expect(page).toContain('<h1>Simulate Delete (Background)</h1>');
    expect(page).toContain('<p role="status" aria-live="polite">Simulating the deletion: simulating…</p>');
    expect(page.match(/class="skeleton"/g)?.length).toBeGreaterThan(3);
    expect(page).toContain('prefers-reduced-motion: reduce');
    expect(page).not.toMatch(/<script|src=|href=/i);
  });

  it('escapes the title and the message (a context name is the user’s text)', () => {
    const page = loadingPage('Simulate Delete on <img src=x onerror=alert(1)>', 'a & "b"');
    expect(page).not.toContain('<img');
    expect(page).toContain('<h1>Simulate Delete on &#60;img src=x onerror=alert(1)&#62;</h1>');
    expect(page).toContain('>a &#38; &#34;b&#34;</p>');
  });
});
