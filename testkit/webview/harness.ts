// The built webview bundle (dist/webview/webview.js and .css) in headless Chromium (Debian's, through
// playwright-core), inside the production page (client/src/logic/graphHtml.ts: the same CSP and nonce'd script),
// served from a made-up origin that stands for webview.cspSource. A stand-in for acquireVsCodeApi records what
// the page posts and keeps its state; any Content-Security-Policy violation (the securitypolicyviolation event,
// or a console message about one) is recorded and fails the test that caused it. Screenshots go to
// test-output/webview/.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { graphPage } from '../../client/src/logic/graphHtml';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../shared/src/protocol';

// The callbacks given to page.evaluate and addInitScript run in the page; this project's lib has no DOM types.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const requestAnimationFrame: any;
declare const sessionStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu'];
export const ROOT = path.resolve(__dirname, '../..');
export const BUNDLE_DIR = path.join(ROOT, 'dist', 'webview');
export const SCREENSHOTS = path.join(ROOT, 'test-output', 'webview');
/** Stands for webview.cspSource (requests to it are answered from dist/webview). */
export const ORIGIN = 'https://kube-gc-lens-webview.test';

/** VS Code's theme variables (a few of each theme, as VS Code 1.99 sets them) and the body class. */
export const THEMES: Record<string, { bodyClass: string; vars: Record<string, string> }> = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      '--vscode-editor-background': '#1f1f1f',
      '--vscode-editor-foreground': '#cccccc',
      '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-editorWidget-background': '#202020',
      '--vscode-editorWidget-border': '#454545',
      '--vscode-focusBorder': '#0078d4',
      '--vscode-editorError-foreground': '#f85149',
      '--vscode-editorWarning-foreground': '#cca700',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-charts-green': '#89d185',
      '--vscode-charts-purple': '#b180d7',
      '--vscode-charts-yellow': '#cca700',
      '--vscode-charts-orange': '#d18616',
      '--vscode-font-family': 'system-ui, sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-sideBar-background': '#181818',
      '--vscode-button-background': '#0078d4',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-input-background': '#313131',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      '--vscode-editor-background': '#ffffff',
      '--vscode-editor-foreground': '#3b3b3b',
      '--vscode-descriptionForeground': '#3b3b3b',
      '--vscode-editorWidget-background': '#f8f8f8',
      '--vscode-editorWidget-border': '#c8c8c8',
      '--vscode-focusBorder': '#005fb8',
      '--vscode-editorError-foreground': '#e51400',
      '--vscode-editorWarning-foreground': '#bf8803',
      '--vscode-charts-blue': '#1a85ff',
      '--vscode-charts-green': '#388a34',
      '--vscode-charts-purple': '#652d90',
      '--vscode-charts-yellow': '#bf8803',
      '--vscode-charts-orange': '#d18616',
      '--vscode-font-family': 'system-ui, sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-sideBar-background': '#f8f8f8',
      '--vscode-button-background': '#005fb8',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-input-background': '#ffffff',
      '--vscode-button-secondaryBackground': '#e5e5e5',
      '--vscode-button-secondaryForeground': '#3b3b3b',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      '--vscode-editor-background': '#000000',
      '--vscode-editor-foreground': '#ffffff',
      '--vscode-descriptionForeground': '#ffffff',
      '--vscode-editorWidget-background': '#0c141f',
      '--vscode-contrastBorder': '#6fc3df',
      '--vscode-contrastActiveBorder': '#f38518',
      '--vscode-focusBorder': '#f38518',
      '--vscode-editorError-foreground': '#f48771',
      '--vscode-editorWarning-foreground': '#ffd370',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-charts-green': '#89d185',
      '--vscode-font-family': 'system-ui, sans-serif',
      '--vscode-font-size': '13px',
    },
  },
};

export interface HarnessOptions {
  /** The built bundle's folder (default: dist/webview of this repository). */
  bundleDir?: string;
  /** What vscode.getState() returns at first. */
  state?: unknown;
  theme?: keyof typeof THEMES;
  viewport?: { width: number; height: number };
}

export class Harness {
  /** CSP violations and console errors, from the page. */
  readonly problems: string[] = [];
  readonly dialogs: string[] = [];

  private constructor(readonly page: Page) {
    page.on('console', (m) => {
      const text = m.text();
      if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(text)) this.problems.push(`console ${m.type()}: ${text}`);
    });
    page.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      this.dialogs.push(d.message());
      void d.dismiss();
    });
  }

  static async launch(bundleDir = BUNDLE_DIR): Promise<Browser> {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (scripts/setupCodeServer.sh does)`);
    if (!existsSync(path.join(bundleDir, 'webview.js')))
      throw new Error(`${path.join(bundleDir, 'webview.js')} is missing: run \`node esbuild.mjs webview\``);
    return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }

  /** A new page with the production page and bundle; resolves once the webview said `ready`. */
  static async open(browser: Browser, options: HarnessOptions = {}): Promise<Harness> {
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    const harness = new Harness(page);
    const nonce = randomBytes(16).toString('base64');
    const html = graphPage({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/webview.js`, styleUri: `${ORIGIN}/webview.css` });
    await page.route(`${ORIGIN}/**`, (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/' || url.pathname === '/index.html')
        return route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' });
      const file = path.join(options.bundleDir ?? BUNDLE_DIR, path.basename(url.pathname));
      if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
      return route.fulfill({ body: readFileSync(file), contentType: type });
    });
    const theme = THEMES[options.theme ?? 'dark'];
    // Runs before the page's scripts, outside its CSP (as VS Code's own webview host code does).
    await page.addInitScript(
      ({ state, theme }) => {
        const w = window as unknown as Record<string, unknown>;
        w.__posted = [];
        // The state survives a reload of the page, as VS Code keeps it for a webview that is hidden and shown again.
        const kept = sessionStorage.getItem('kgl-state');
        w.__state = kept ? JSON.parse(kept) : state;
        w.__violations = [];
        w.acquireVsCodeApi = () => ({
          postMessage: (m: unknown) => (w.__posted as unknown[]).push(JSON.parse(JSON.stringify(m))),
          getState: () => w.__state,
          setState: (s: unknown) => {
            w.__state = JSON.parse(JSON.stringify(s));
            sessionStorage.setItem('kgl-state', JSON.stringify(s));
          },
        });
        document.addEventListener('securitypolicyviolation', (e: { violatedDirective: string; blockedURI: string }) =>
          (w.__violations as string[]).push(`${e.violatedDirective}: ${e.blockedURI}`),
        );
        const apply = () => {
          document.body.className = theme.bodyClass;
          for (const [k, v] of Object.entries(theme.vars)) document.documentElement.style.setProperty(k, v);
        };
        if (document.body) apply();
        else document.addEventListener('DOMContentLoaded', apply);
        w.__applyTheme = (t: { bodyClass: string; vars: Record<string, string> }) => {
          document.documentElement.removeAttribute('style');
          document.body.className = t.bodyClass;
          for (const [k, v] of Object.entries(t.vars)) document.documentElement.style.setProperty(k, v);
        };
      },
      { state: options.state, theme },
    );
    await page.goto(`${ORIGIN}/`);
    await harness.waitForPosted((m) => m.type === 'ready');
    return harness;
  }

  /** A host → webview message, as VS Code delivers it (a message event on the window). */
  async send(message: HostToWebviewMessage): Promise<void> {
    await this.page.evaluate((m) => window.postMessage(m, '*'), message);
  }

  /** Sends a graph and waits until it is drawn. */
  async showGraph(message: Extract<HostToWebviewMessage, { type: 'graph' }>): Promise<void> {
    await this.send(message);
    await this.page.waitForFunction((rev) => document.body.dataset.rendered === String(rev), message.revision);
    await this.settle();
  }

  /**
   * Clicks `selector` once it has stopped moving: a step of the playback or a reveal may pan the graph (a 250 ms
   * transition), and a click aimed at where a node was would land on another.
   */
  async clickWhenStill(selector: string): Promise<void> {
    const target = this.page.locator(selector);
    let last = '';
    for (let i = 0; i < 100; i++) {
      const box = JSON.stringify(await target.boundingBox());
      if (box === last && box !== 'null') break;
      last = box;
      await this.page.waitForTimeout(50);
    }
    await target.click();
  }

  /** Two animation frames: what was dispatched is drawn. */
  async settle(): Promise<void> {
    await this.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }

  /**
   * Waits until the view's zoom has arrived (no animated zoom moving, data-zooming, for two settles in a row: a fit
   * starts on a frame), and returns its scale. No fixed delays: on a loaded machine a transition's frames come late.
   */
  async zoomStill(): Promise<number> {
    const moving = () => this.page.evaluate(() => document.querySelector('.graph')?.dataset.zooming === 'true');
    for (let quiet = 0; quiet < 2; ) {
      await this.settle();
      if (!(await moving())) quiet++;
      else {
        quiet = 0;
        await this.page.waitForFunction(() => document.querySelector('.graph')?.dataset.zooming !== 'true');
      }
    }
    return Number(await this.page.locator('.graph').getAttribute('data-zoom'));
  }

  async posted(): Promise<WebviewToHostMessage[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: WebviewToHostMessage[] }).__posted);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __posted: unknown[] }).__posted = [];
    });
  }

  async waitForPosted(match: (m: WebviewToHostMessage) => boolean, timeout = 10_000): Promise<WebviewToHostMessage> {
    const start = Date.now();
    for (;;) {
      const found = (await this.posted()).find(match);
      if (found) return found;
      if (Date.now() - start > timeout)
        throw new Error(`nothing matching was posted; posted: ${JSON.stringify(await this.posted()).slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async state(): Promise<unknown> {
    return this.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
  }

  async violations(): Promise<string[]> {
    const inPage = await this.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    return [...inPage, ...this.problems];
  }

  async applyTheme(name: keyof typeof THEMES): Promise<void> {
    await this.page.evaluate((t) => (window as unknown as { __applyTheme: (x: unknown) => void }).__applyTheme(t), THEMES[name]);
    await this.settle();
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}
