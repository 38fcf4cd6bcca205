// What the webview benchmarks do in the page (bench/webviewBench.ts, bench/liveGraph.ts): input events, one per frame,
// timed by requestAnimationFrame.

import type { Page } from 'playwright-core';

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks run in the page (no DOM types here) */
declare const window: any;
declare const document: any;
declare const requestAnimationFrame: any;
declare const performance: any;
declare const MouseEvent: any;
declare const WheelEvent: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** One input event per frame for `duration` ms (a drag, or wheel steps in and out); frame times from rAF. */
export async function interact(page: Page, kind: 'pan' | 'zoom', duration: number): Promise<{ fps: number; p95: number }> {
  return page.evaluate(
    ({ kind, duration }) =>
      new Promise<{ fps: number; p95: number }>((resolve) => {
        const el = document.querySelector('.graph');
        const r = el.getBoundingClientRect();
        const cx = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        const times: number[] = [];
        let i = 0;
        if (kind === 'pan')
          el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, clientX: cx, clientY: cy, button: 0, view: window }));
        const start = performance.now();
        const frame = (t: number) => {
          times.push(t);
          i++;
          if (kind === 'pan') {
            const dx = Math.sin(i / 15) * 200;
            const dy = Math.cos(i / 20) * 120;
            window.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: cx + dx, clientY: cy + dy, view: window }));
          } else {
            el.dispatchEvent(
              new WheelEvent('wheel', {
                bubbles: true,
                cancelable: true,
                clientX: cx,
                clientY: cy,
                deltaY: (Math.floor(i / 30) % 2 ? 1 : -1) * 40,
                deltaMode: 0,
              }),
            );
          }
          if (t - start < duration) requestAnimationFrame(frame);
          else {
            if (kind === 'pan') window.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, clientX: cx, clientY: cy, view: window }));
            const deltas = times
              .slice(1)
              .map((x, k) => x - times[k])
              .sort((a, b) => a - b);
            const elapsed = times[times.length - 1] - times[0];
            resolve({
              fps: ((times.length - 1) * 1000) / elapsed,
              p95: deltas[Math.min(deltas.length - 1, Math.floor(deltas.length * 0.95))],
            });
          }
        };
        requestAnimationFrame(frame);
      }),
    { kind, duration },
  );
}
