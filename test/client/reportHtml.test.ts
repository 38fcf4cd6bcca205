// The report's webview page: a strict Content-Security-Policy and an escaped title.

import { describe, expect, it } from 'vitest';
import { escapeHtml, REPORT_CSP, reportPage } from '../../client/src/logic/reportHtml';

describe('reportPage', () => {
  it('allows no script, frame, image, font or connection: only inline styles', () => {
    expect(REPORT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline';");
    const page = reportPage('t', '<p>body</p>');
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(page).toContain('<body>\n<p>body</p>\n</body>');
    expect(page).not.toMatch(/<script/i);
  });

  it('escapes the title', () => {
    expect(reportPage('<img src=x onerror=alert(1)> & "q"', '')).toContain(
      '<title>&#60;img src=x onerror=alert(1)&#62; &#38; &#34;q&#34;</title>',
    );
    expect(escapeHtml(`'`)).toBe('&#39;');
  });
});
