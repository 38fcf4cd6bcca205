// Automatic fits on a graph large enough to open on a namespace (issue 17), found by the must-gather story
// (test/e2e/mustGather.test.ts) in code-server's split editor: Fit with an object selected, then a resize (the webview is
// resized as its toolbar re-wraps) used to open the selected object's namespace instead of fitting everything again;
// a simulation played in a narrow panel used to fit its objects below the overview scale, so the playback showed only
// boxes. On the built bundle in headless Chromium (testkit/webview/harness.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Harness } from '../../testkit/webview/harness';
import { largeGraph, largeGraphReport } from '../../testkit/webview/fixtures';

let browser: Browser;
let h: Harness | undefined;

const level = (x: Harness) => x.page.locator('.graph').getAttribute('data-level');

describe('automatic fits: after a resize, and of a simulation in a narrow panel', () => {
  beforeAll(async () => {
    browser = await Harness.launch();
  });

  afterAll(async () => {
    await h?.close();
    await browser?.close();
  });

  it('Fit with an object selected, then a resize: the overview stays', async () => {
    h = await Harness.open(browser, { viewport: { width: 900, height: 800 } });
    await h.showGraph({ type: 'graph', source: { kind: 'workspace' }, graph: largeGraph(3000), revision: 1 });
    await h.zoomStill();
    expect(await level(h)).toBe('overview');
    // Into the objects (the wheel, over the middle of the boxes), an object selected (search, Enter), then Fit (0).
    const area = (await h.page.locator('.graph').boundingBox())!;
    await h.page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    for (let i = 0; i < 40 && (await level(h)) === 'overview'; i++) {
      await h.page.mouse.wheel(0, -300);
      await h.zoomStill();
    }
    await h.page.locator('input.search').fill('deployment app-42');
    await h.page.locator('input.search').press('Enter');
    await h.zoomStill();
    expect(await level(h)).toBe('objects');
    expect(await h.page.locator('.details h2').innerText()).toBe('Deployment app-42');
    await h.page.locator('.graph').focus();
    await h.page.keyboard.press('0');
    const fitted = await h.zoomStill();
    expect(await level(h)).toBe('overview');
    await h.page.setViewportSize({ width: 1000, height: 800 });
    expect(await h.zoomStill()).toBeLessThan(0.3);
    expect(await level(h)).toBe('overview');
    expect(fitted).toBeLessThan(0.3);
  });

  it('a simulation played in a narrow panel zooms to where objects read, not to the overview', async () => {
    await h?.close();
    h = await Harness.open(browser, { viewport: { width: 300, height: 700 } });
    await h.showGraph({ type: 'graph', source: { kind: 'workspace' }, graph: largeGraph(3000), revision: 1 });
    await h.zoomStill();
    expect(await level(h)).toBe('overview');
    await h.send({ type: 'simulation', report: largeGraphReport(37), id: 1 });
    await h.page.locator('footer.timeline').waitFor();
    expect(await h.zoomStill()).toBeGreaterThanOrEqual(0.45);
    expect(await level(h)).toBe('objects');
    await h.screenshot('fit-after-resize-narrow-playback');
  });
});
