// A real VS Code for the end-to-end tests: code-server 4.99.4 (scripts/codeServer.mjs) with the packaged .vsix, on
// a temporary copy of examples/, driven through Debian's Chromium by playwright-core as a user drives it: keys,
// the command palette, quick picks, the mouse. Every wait is on a condition (a locator, expect.poll); none sleeps.
// Screenshots and code-server's profile (with VS Code's logs) go to test-output/e2e/.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { startCodeServer, type CodeServer } from '../../scripts/codeServer.mjs';

export const CHROMIUM = '/usr/bin/chromium';
/** ../shared/docs/real-vscode-here.md: no sandbox as root, no GPU, nothing that calls out. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const ROOT = path.resolve(__dirname, '../..');
export const OUTPUT_DIR = path.join(ROOT, 'test-output', 'e2e');
const LOG_TAIL_LINES = 60;

/** One row of the Problems panel: a file (level 1), a problem (level 2) or a problem's related information (3). */
export interface ProblemRow {
  level: number;
  /** Level 1: the file name. */
  file: string;
  /** Level 2: 'error', 'warning' or 'info' (the icon); message, `source(code)` and `[Ln L, Col C]` as shown. */
  severity: string;
  message: string;
  source: string;
  code: string;
  line: string;
}

/** A row of a tree view: its label and description. */
export interface TreeRow {
  level: number;
  label: string;
  description: string;
}

/** What a workbench needs of its code-server: where to open, and the logs for failure reports. */
export type WorkbenchServer = Pick<CodeServer, 'folderUrl' | 'logsDir' | 'logFile'>;

export class Workbench {
  /** Browser console errors and page errors, for failure reports. */
  readonly browserErrors: string[] = [];

  private constructor(
    readonly page: Page,
    readonly browser: Browser,
    readonly server: WorkbenchServer,
    /** What close() does once the browser is closed: stop the server this started, remove its workspace copy. */
    private readonly release: () => Promise<void>,
  ) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.browserErrors.push(m.text());
    });
    page.on('pageerror', (e) => this.browserErrors.push(`page error: ${e.message}`));
  }

  /**
   * Copies examples/ (or `folder`) to a temporary folder (plus `files`: path relative to it → content), starts code-server on it
   * with `vsix` installed and these user `settings`, opens Chromium. `name` keeps each test file's code-server
   * profile apart (test-output/e2e/<name>/); screenshots of every file share test-output/e2e/ (globalSetup empties it
   * once per run). `workspaceTrust`: workspace trust is on and the folder opens in Restricted Mode (no dialog).
   */
  static async start(
    vsix: string,
    options: {
      name?: string;
      /** The folder copied as the workspace (named `workspaceName`, default its own name) instead of examples/. */
      folder?: string;
      workspaceName?: string;
      settings?: Record<string, unknown>;
      files?: Record<string, string>;
      workspaceTrust?: boolean;
    } = {},
  ): Promise<Workbench> {
    mkdirSync(OUTPUT_DIR, { recursive: true });
    const folder = options.folder ?? path.join(ROOT, 'examples');
    const workspace = path.join(mkdtempSync(path.join(tmpdir(), 'kube-gc-lens-e2e-')), options.workspaceName ?? path.basename(folder));
    cpSync(folder, workspace, { recursive: true });
    for (const [file, text] of Object.entries(options.files ?? {})) {
      mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      writeFileSync(path.join(workspace, file), text);
    }
    const dir = path.join(OUTPUT_DIR, options.name ?? 'code-server');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const server = await startCodeServer({
      workspace,
      vsix,
      dir,
      settings: options.settings ?? {},
      workspaceTrust: options.workspaceTrust ?? false,
    });
    return Workbench.open(server, async () => {
      await server.stop();
      rmSync(path.dirname(workspace), { recursive: true, force: true });
    });
  }

  /**
   * Chromium on a code-server that something else started and stops (the demo's, in demo.test.ts): close() closes
   * only the browser.
   */
  static attach(server: WorkbenchServer): Promise<Workbench> {
    return Workbench.open(server, async () => undefined);
  }

  private static async open(server: WorkbenchServer, release: () => Promise<void>): Promise<Workbench> {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      return new Workbench(page, browser, server, release);
    } catch (e) {
      await browser?.close();
      await release();
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.release();
  }

  /** Saves test-output/e2e/NAME.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    const file = path.join(OUTPUT_DIR, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  // --- locators

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  get quickInputBox(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /** The row of the quick input that Enter would accept. */
  focusedQuickInputRow(hasText: string | RegExp): Locator {
    return this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText });
  }

  get problemsPanel(): Locator {
    return this.page.locator('.markers-panel');
  }

  editorTab(hasText: string | RegExp): Locator {
    return this.page.locator('.tabs-container .tab', { hasText });
  }

  /** The rendered view line of the active editor that holds `text`. */
  viewLine(text: string): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line', { hasText: text });
  }

  /** The body of the (last opened) webview: two nested iframes, the inner one holds the page. */
  webview(): ReturnType<Locator['contentFrame']> {
    return this.page.locator('iframe.webview.ready').last().contentFrame().locator('iframe#active-frame').contentFrame();
  }

  /** The modal dialog (vscode.window.show…Message with `modal: true`): `.dialog-message-text`, `.dialog-message-detail`, its buttons. */
  get dialog(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  /** The notification toast whose message has `hasText`. */
  notification(hasText: string | RegExp): Locator {
    return this.page.locator('.notification-toast', { has: this.page.locator('.notification-list-item-message', { hasText }) });
  }

  /** The rendered rows of the tree view titled `title` (a pane of the side bar). */
  treeView(title: string): Locator {
    return this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: title }) });
  }

  async treeRows(view: Locator): Promise<TreeRow[]> {
    type El = { innerText: string; getAttribute(name: string): string | null; querySelector(selector: string): El | null };
    const rows = await view.locator('.monaco-list-row').evaluateAll((elements) =>
      elements.map((element) => {
        const row = element as unknown as El;
        return {
          index: Number(row.getAttribute('data-index')),
          level: Number(row.getAttribute('aria-level')),
          label: row.querySelector('.label-name')?.innerText.trim() ?? '',
          description: row.querySelector('.label-description')?.innerText.trim() ?? '',
        };
      }),
    );
    return rows.sort((a, b) => a.index - b.index).map(({ index: _index, ...row }) => row);
  }

  /**
   * The code lenses (their titles, ' | ' between several) just above `line` of the active editor (a code lens sits
   * in a zone above its line); '' when there is none or the line is not rendered.
   */
  async codeLensAbove(line: number): Promise<string> {
    const editor = this.page.locator('.editor-group-container.active .monaco-editor');
    const number = editor.locator('.margin .line-numbers', { hasText: new RegExp(`^${line}$`) });
    if ((await number.count()) !== 1) return '';
    const top = (await number.boundingBox())?.y;
    if (top === undefined) return '';
    let best = { y: -Infinity, text: '' };
    for (const lens of await editor.locator('.codelens-decoration').all()) {
      const box = await lens.boundingBox();
      // (several lenses on a line are rendered with line breaks around their ' | ' separator)
      if (box && box.y + box.height <= top + 1 && box.y > best.y)
        best = { y: box.y, text: (await lens.innerText()).replace(/\s+/g, ' ').trim() };
    }
    return best.text;
  }

  // --- actions, as a user does them

  /** F1, type the command's title, Enter on it. */
  async runCommand(title: string): Promise<void> {
    // Right after the window loads, on a busy machine, the extension's commands may not be in the palette yet, and an
    // open palette does not pick them up: close it and ask again (up to 30 s in all).
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press('F1');
      await this.quickInputBox.waitFor();
      await this.quickInputBox.fill(`>${title}`);
      try {
        await this.focusedQuickInputRow(title).waitFor({ timeout: attempt < 2 ? 10_000 : 30_000 });
        break;
      } catch (e) {
        if (attempt >= 2) throw e;
        await this.page.keyboard.press('Escape');
      }
    }
    await this.page.keyboard.press('Enter');
  }

  /** In the open quick pick (titled `title`): type `filter`, wait until the row Enter accepts has `rowText`, Enter. */
  async pick(title: string | undefined, filter: string, rowText: string | RegExp): Promise<void> {
    if (title !== undefined) await this.quickInput.locator('.quick-input-title', { hasText: title }).waitFor();
    else await this.quickInputBox.waitFor();
    await this.quickInputBox.fill(filter);
    await this.focusedQuickInputRow(rowText).waitFor();
    await this.page.keyboard.press('Enter');
  }

  /**
   * Moves the mouse over `target` until `widget` shows. A hover shows only after the mouse rests on the text
   * (editor.hover.delay) and goes away when the editor scrolls under it, so the mouse is moved again (within the
   * target) each time the widget has not appeared after a while.
   */
  async hoverUntilVisible(target: Locator, widget: Locator, timeout = 20_000): Promise<void> {
    let nudge = false;
    await expect
      .poll(
        async () => {
          if (await widget.isVisible()) return true;
          const box = await target.boundingBox();
          if (!box) return false;
          nudge = !nudge;
          await this.page.mouse.move(box.x + box.width * (nudge ? 0.4 : 0.6), box.y + box.height / 2);
          return widget.isVisible();
        },
        { timeout, interval: 1500 },
      )
      .toBe(true);
  }

  /** Closes the notification toast `toast` (its clear button); resolves when it is gone. */
  async closeNotification(toast: Locator): Promise<void> {
    await toast.hover();
    await toast.locator('.codicon-notifications-clear').click();
    await toast.waitFor({ state: 'detached' });
  }

  /**
   * Right-clicks `target` and chooses `item` in its context menu. A view that re-renders under its menu (a refresh)
   * closes it, and a click that lands while the menu is still settling is dropped (the menu stays open): open it again,
   * or click again, until the item was clicked and the menu closed.
   */
  async contextMenu(target: Locator, item: string): Promise<void> {
    const menu = this.page.locator('.context-view .monaco-menu');
    const entry = menu.locator('.action-item', { hasText: item });
    let clicked = false;
    await expect
      .poll(
        async () => {
          if (!(await entry.isVisible())) {
            await this.page.keyboard.press('Escape');
            await target.click({ button: 'right' });
            await entry.waitFor({ timeout: 5000 }).catch(() => undefined);
          }
          if (await entry.isVisible())
            await entry
              .click({ timeout: 2000 })
              .then(() => (clicked = true))
              .catch(() => undefined);
          return clicked && !(await menu.isVisible());
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  }

  /**
   * Opens the Settings editor (user settings), searches `key`, and ticks or unticks its checkbox; resolves when the
   * user's settings.json on disk holds the value, then closes the Settings editor.
   */
  async setUserBoolean(key: string, value: boolean): Promise<void> {
    await this.runCommand('Preferences: Open User Settings');
    const editor = this.page.locator('.settings-editor');
    await editor.waitFor();
    await editor.locator('.settings-header .suggest-input-container').click();
    await this.page.keyboard.type(key);
    const checkbox = editor.locator('.setting-item-bool .setting-value-checkbox').first();
    await checkbox.waitFor();
    if ((await checkbox.getAttribute('aria-checked')) !== String(value)) await checkbox.click();
    await expect.poll(() => checkbox.getAttribute('aria-checked')).toBe(String(value));
    await expect.poll(() => (JSON.parse(readFileSync(this.userSettingsFile, 'utf8')) as Record<string, unknown>)[key]).toBe(value);
    await this.closeEditor('Settings');
  }

  /** The profile's user settings.json (code-server's --user-data-dir, above its logs). */
  get userSettingsFile(): string {
    return path.join(path.dirname(this.server.logsDir), 'User', 'settings.json');
  }

  /** What the Output channel `name` logged so far (VS Code writes each log channel to a file under the logs). */
  outputLog(name: string): string {
    return findFiles(this.server.logsDir)
      .filter((f) => path.basename(f) === `${name}.log`)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
  }

  /** Drags the side bar's edge (its sash) until the side bar is `width` pixels wide; resolves when it is. */
  async resizeSideBar(width: number): Promise<void> {
    const sideBar = this.page.locator('.part.sidebar');
    const box = await sideBar.boundingBox();
    if (!box) throw new Error('no side bar');
    const edge = box.x + box.width;
    const y = box.y + box.height / 3;
    await this.page.mouse.move(edge, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 5 });
    await this.page.mouse.up();
    await expect.poll(async () => Math.round((await sideBar.boundingBox())?.width ?? 0)).toBeGreaterThanOrEqual(width - 2);
  }

  /** Ctrl+P, the file name, Enter; resolves when its tab is the active one. */
  async openFile(name: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    await this.quickInputBox.waitFor();
    await this.quickInputBox.fill(name);
    await this.focusedQuickInputRow(name).waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.editor-group-container.active .tab.active', { hasText: name }).waitFor();
  }

  /** Ctrl+G `line:column`; resolves when the status bar shows the cursor there. */
  async goTo(line: number, column: number): Promise<void> {
    await this.page.keyboard.press('Control+G');
    await this.quickInputBox.waitFor();
    await this.quickInputBox.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden' });
    await this.page.locator('.statusbar-item', { hasText: `Ln ${line}, Col ${column}` }).waitFor();
  }

  /** Closes the editor whose tab has `title` (its tab's close button). */
  async closeEditor(title: string): Promise<void> {
    const tab = this.editorTab(title);
    await tab.hover();
    await tab.locator('.codicon-close').click();
    await tab.waitFor({ state: 'detached' });
  }

  /** "Welcome: Open Walkthrough...", then Kube GC Lens's; resolves when its page shows. */
  async openWalkthrough(): Promise<void> {
    await this.runCommand('Welcome: Open Walkthrough...');
    await this.pick(undefined, 'Kube GC Lens', 'Get Started with Kube GC Lens');
    await this.page.locator('.gettingStartedContainer h2.category-title', { hasText: 'Get Started with Kube GC Lens' }).waitFor();
  }

  /**
   * "Show Stuck Objects" while connected to `context`: waits for the view's live section and folds the workspace's
   * (listed first), so that the level-2 rows are the live ones. Returns the view.
   */
  async showLiveStuckObjects(context: string): Promise<Locator> {
    await this.runCommand('Kubernetes GC: Show Stuck Objects');
    const view = this.treeView('Stuck Objects');
    await view.locator('.monaco-list-row', { hasText: `Live cluster (${context})` }).waitFor({ timeout: 30_000 });
    await view.locator('.monaco-list-row[aria-level="1"]', { hasText: 'Workspace manifests' }).locator('.monaco-tl-twistie').click();
    return view;
  }

  /** Ctrl+Shift+M: the Problems panel. */
  async showProblems(): Promise<void> {
    await this.page.keyboard.press('Control+Shift+M');
    await this.problemsPanel.waitFor();
  }

  /** The Problems panel's rendered rows, top to bottom (the list is virtual: only rows in view exist). */
  async problemRows(): Promise<ProblemRow[]> {
    // (runs in the page; this project's lib has no DOM types)
    type El = {
      innerText: string;
      className: string;
      getAttribute(name: string): string | null;
      querySelector(selector: string): El | null;
    };
    const rows = await this.problemsPanel.locator('.monaco-list-row').evaluateAll((elements) =>
      elements.map((element) => {
        const row = element as unknown as El;
        const text = (selector: string) => row.querySelector(selector)?.innerText.trim() ?? '';
        return {
          index: Number(row.getAttribute('data-index')),
          level: Number(row.getAttribute('aria-level')),
          file: text('.label-name'),
          // (the icon also gets `quickFix` while the row is hovered or selected)
          severity:
            (row.querySelector('.marker-icon')?.className ?? '').split(/\s+/).find((c) => ['error', 'warning', 'info'].includes(c)) ?? '',
          message: text('.marker-message') || text('.marker-description'),
          source: text('.marker-source'),
          code: text('.marker-code'),
          line: text('.marker-line'),
        };
      }),
    );
    return rows.sort((a, b) => a.index - b.index).map(({ index: _index, ...row }) => row);
  }

  /**
   * The codes of our problems per file, as the Problems panel shows them, e.g.
   * { 'checkout-export.yaml': ['owner-uid-mismatch', 'dangling-owner'] }.
   */
  async problemCodesByFile(): Promise<Record<string, string[]>> {
    const byFile: Record<string, string[]> = {};
    let file = '';
    for (const row of await this.problemRows()) {
      if (row.level === 1) {
        file = row.file;
        byFile[file] = [];
      } else if (row.level === 2 && file && row.source === 'kube-gc-lens') {
        byFile[file].push(row.code);
      }
    }
    return byFile;
  }

  /** After a failed step: close whatever menu, widget or quick input it left open, so the next step starts clean. */
  async dismiss(): Promise<void> {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape').catch(() => undefined);
  }

  /** The problems (level 2 rows) the Problems panel shows under `file`. */
  async problemsOf(file: string): Promise<ProblemRow[]> {
    const rows = await this.problemRows();
    const start = rows.findIndex((r) => r.level === 1 && r.file === file);
    if (start < 0) return [];
    const end = rows.findIndex((r, i) => i > start && r.level === 1);
    return rows.slice(start + 1, end < 0 ? undefined : end).filter((r) => r.level === 2);
  }

  // --- failure reports

  /**
   * `error` with what is needed to understand it appended: a screenshot of the moment, the end of the extension
   * host's log and of the "Kube GC Lens" output channel (the language client's and server's log), and the
   * browser's console errors.
   */
  async failureReport(error: unknown, name: string): Promise<Error> {
    const err = error instanceof Error ? error : new Error(String(error));
    const parts: string[] = [];
    try {
      parts.push(`screenshot: ${await this.screenshot(`${name}.failed`)}`);
    } catch (e) {
      parts.push(`no screenshot: ${e instanceof Error ? e.message : String(e)}`);
    }
    const logs = findFiles(this.server.logsDir);
    const exthost = logs.filter((f) => /exthost\.log$/.test(f));
    const output = logs.filter((f) => path.basename(f) === 'Kube GC Lens.log');
    parts.push(tailSection('extension host log', exthost));
    parts.push(tailSection('"Kube GC Lens" output channel', output));
    parts.push(
      this.browserErrors.length
        ? `--- browser console errors (last ${Math.min(20, this.browserErrors.length)}):\n${this.browserErrors.slice(-20).join('\n')}`
        : '--- browser console errors: none',
    );
    parts.push(`(all of VS Code's logs: ${this.server.logsDir}; code-server's own: ${this.server.logFile})`);
    err.message = `${err.message}\n\n${parts.join('\n\n')}`;
    return err;
  }
}

function findFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function tailSection(title: string, files: string[]): string {
  if (files.length === 0) return `--- ${title}: not found`;
  return files
    .map((file) => {
      const text = readFileSync(file, 'utf8').trimEnd();
      if (text === '') return `--- ${title} (${file}): empty, nothing was logged`;
      const lines = text.split('\n');
      return `--- ${title} (${file}), last ${Math.min(LOG_TAIL_LINES, lines.length)} of ${lines.length} lines:\n${lines.slice(-LOG_TAIL_LINES).join('\n')}`;
    })
    .join('\n\n');
}

/**
 * One user step of a story: on failure its error carries a screenshot (NAME.failed.png) and the logs, and what it
 * left open is closed so the next steps still say something. `workbench` is read when the step runs.
 */
export function step(workbench: () => Workbench, title: string, name: string, body: () => Promise<void>): void {
  it(title, async () => {
    try {
      await body();
    } catch (e) {
      const wb = workbench();
      const report = await wb.failureReport(e, name);
      await wb.dismiss();
      throw report;
    }
  });
}
