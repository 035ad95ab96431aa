// Playwright helpers that act on the VS Code workbench the way a person does: activity bar, command
// palette (F1), quick inputs, notifications, tree rows, editors. Selectors follow VS Code 1.139's DOM.
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';

export const RESULTS_DIR = path.resolve(__dirname, '..', '..', 'test-results');

/** The view container and view contributed by the extension. */
export const CONTAINER_ID = 'modelAccess';
export const MODELS_VIEW_ID = 'modelAccess.models';

/** Waits until the workbench has rendered (activity bar present, startup restore done). */
export async function waitForWorkbench(page: Page, timeoutMs = 120_000): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
  // Startup editors/notifications settle shortly after the shell appears.
  await page.waitForTimeout(1500);
}

/**
 * *Developer: Reload Window* from the palette, and waits for the new workbench. (Unlike reloading the browser
 * tab, the window shuts down properly first, so the layout and editors it restores are the ones it had.)
 */
export async function reloadWorkbench(page: Page): Promise<void> {
  const loaded = page.waitForEvent('load', { timeout: 60_000 });
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('>Developer: Reload Window');
  await quickInput(page).locator('.monaco-list-row', { hasText: 'Developer: Reload Window' }).first().click();
  await loaded;
  await waitForWorkbench(page);
}

/** Opens a file of the workspace by name with *Go to File…* (Ctrl+P), as a person does. */
export async function openFileByName(page: Page, name: string): Promise<void> {
  // File search can be slow on a busy machine, and a file written since Go to File last listed the workspace
  // may be missing from the list it keeps while open: as a person would, close it and ask again, once.
  for (let attempt = 1; ; attempt++) {
    await openPalette(page, 'Go to File');
    await typeInQuickInput(page, name, { submit: false });
    try {
      await pickQuickItem(page, name, { timeoutMs: 20_000 });
      break;
    } catch (e) {
      if (attempt === 2) {
        throw e;
      }
      await page.keyboard.press('Escape');
    }
  }
  await page
    .locator('.editor-group-container.active .tab.active', { hasText: name })
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 });
}

/**
 * The whole "Model Access" log as VS Code wrote it to disk: every `Model Access.log` under the profile's
 * `logs` folder (one per extension host, a reload starts another), oldest session first. Unlike the Output
 * view, which shows only the lines on screen, nothing in it can scroll out of reach.
 */
export function readExtensionLog(userDataDir: string, channel = 'Model Access'): { files: string[]; text: string } {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name === `${channel}.log`) {
        files.push(full);
      }
    }
  };
  const logs = path.join(userDataDir, 'logs');
  if (fs.existsSync(logs)) {
    walk(logs);
  }
  files.sort();
  return { files, text: files.map((f) => fs.readFileSync(f, 'utf8')).join('\n') };
}

/**
 * Resizes the page (the session starts at 1280×800) and waits for the workbench to lay itself out anew:
 * steps that check a layout at a width call it, and put 1280×800 back when they end.
 */
export async function setViewport(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.waitForFunction(
    ([w, h]) => {
      const box = document.querySelector('.monaco-workbench')?.getBoundingClientRect();
      return !!box && Math.round(box.width) === w && Math.round(box.height) === h;
    },
    [width, height] as const,
    { timeout: 15_000 },
  );
}

/** Saves a PNG of the page (its viewport: 1280×800 unless a step set another) as test-results/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** The activity-bar entry whose label starts with `title` (e.g. "Model Access"). */
export function activityBarEntry(page: Page, title = 'Model Access'): Locator {
  return page.locator(`.activitybar [aria-label^="${title}"]`).first();
}

/**
 * The view container's sidebar pane: `workbench.view.extension.<containerId>` for an extension's
 * container, or a full id such as `workbench.view.explorer` for a built-in one.
 */
export function viewContainer(page: Page, containerId = CONTAINER_ID): Locator {
  const id = containerId.startsWith('workbench.') ? containerId : `workbench.view.extension.${containerId}`;
  return page.locator(`[id="${id}"]`);
}

/** Clicks the activity-bar entry unless its sidebar is already showing, then waits for the sidebar. */
export async function openViewContainer(
  page: Page,
  title = 'Model Access',
  containerId = CONTAINER_ID,
): Promise<Locator> {
  const container = viewContainer(page, containerId);
  const entry = activityBarEntry(page, title);
  // Right after a window start the sidebar restores the container by itself: clicking its entry then would
  // close it again. Click only an entry that is not the active one, and click again if the container is
  // still not there (the click raced with that restore).
  for (let attempt = 1; !(await container.isVisible()); attempt++) {
    await entry.waitFor({ state: 'visible', timeout: 30_000 });
    const active = await entry.evaluate((el) => el.closest('.action-item')?.classList.contains('checked') ?? false);
    if (!active) {
      // While the view loads, its progress badge lies over the entry and takes the pointer: the click goes
      // through the badge then (it is part of the entry, whose item handles the click).
      await entry.click({ timeout: 5000 }).catch(() => entry.click({ force: true }));
    }
    try {
      await container.waitFor({ state: 'visible', timeout: 10_000 });
    } catch (e) {
      if (attempt === 3) {
        throw e;
      }
    }
  }
  await moveMouseAway(page);
  return container;
}

/** Parks the mouse over the editor area so no hover tooltip covers a screenshot. */
export async function moveMouseAway(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.mouse.move(Math.round(size.width * 0.7), Math.round(size.height * 0.85));
}

/** The pane of one view inside the container, found by its header title (e.g. "Models"). */
export function viewPane(page: Page, viewTitle = 'Models', containerId = CONTAINER_ID): Locator {
  return viewContainer(page, containerId)
    .locator('.pane')
    .filter({ has: page.locator('.pane-header', { hasText: viewTitle }) })
    .first();
}

/** Visible text of a view's body: welcome content, tree message and rows. */
export async function readViewText(page: Page, viewTitle = 'Models', containerId = CONTAINER_ID): Promise<string> {
  const text = await viewPane(page, viewTitle, containerId).locator('.pane-body').innerText();
  return normalize(text);
}

/** The quick input (palette, input boxes, pickers). */
export function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget');
}

/**
 * Runs a command from the command palette (F1) by its title as shown there, e.g.
 * `openPalette(page, 'Model Access: Set API Key')`. Waits for the matching entry and presses Enter.
 */
export async function openPalette(
  page: Page,
  command: string,
  { timeoutMs = 15_000, keepSelection = false }: { timeoutMs?: number; keepSelection?: boolean } = {},
): Promise<void> {
  // An editor that takes the focus just after the palette opened (a document a command is still showing)
  // closes it again: open it anew then, a few times. Escape first closes whatever input is open, but in an
  // editor it also drops the selection: `keepSelection` for commands that act on it.
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    if (!keepSelection || (await quickInput(page).isVisible())) {
      await page.keyboard.press('Escape');
    }
    await page.keyboard.press('F1');
    const input = quickInput(page).locator('input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    try {
      await input.fill(`>${command}`, { timeout: 3000 });
    } catch (e) {
      // A webview that had the focus took it back and closed the palette (it may keep doing so for a while
      // after a theme change on a busy machine): click the window's title, which takes the focus out of it,
      // and try again.
      if (attempt >= 8) {
        throw e;
      }
      await page
        .locator('.part.titlebar .window-title')
        .first()
        .click({ timeout: 3000 })
        .catch(() => undefined);
      await page.waitForTimeout(500);
      continue;
    }
    const row = quickInput(page).locator('.monaco-list-row', { hasText: command }).first();
    // The palette lists the commands known when the text was typed: after a window reload, an extension's
    // commands arrive with its host, later on a busy machine, and a restored editor may take the focus and
    // close the palette. So while the entry is missing, open the palette again every few seconds.
    const listed = await row
      .waitFor({ state: 'visible', timeout: Math.max(1000, Math.min(5000, deadline - Date.now())) })
      .then(
        () => true,
        () => false,
      );
    if (!listed) {
      if (Date.now() < deadline) {
        attempt -= 1; // A late list is not a failed attempt.
        continue;
      }
      throw new Error(`"${command}" was not in the command palette within ${timeoutMs} ms`);
    }
    try {
      // Enter runs the first (focused) entry; make sure it is ours.
      await row.click({ timeout: attempt < 3 ? 3000 : 15_000 });
      break;
    } catch (e) {
      if (attempt >= 8) {
        throw e;
      }
    }
  }
  // The palette closes, or the command replaces it with its own input box / picker: wait for either, so
  // the next step does not read or type into the palette.
  const typed = `>${command}`;
  await page.waitForFunction(
    (value) => {
      const widget = document.querySelector('.quick-input-widget') as HTMLElement | null;
      const field = widget?.querySelector('input') as HTMLInputElement | null;
      return !widget || widget.style.display === 'none' || !widget.offsetParent || !field || field.value !== value;
    },
    typed,
    { timeout: 15_000 },
  );
}

/**
 * Types into the open quick input (an input box such as "Set API Key", or a picker's filter) and
 * submits with Enter. Returns the prompt text that was shown, for assertions.
 */
export async function typeInQuickInput(
  page: Page,
  text: string,
  { submit = true }: { submit?: boolean } = {},
): Promise<string> {
  const widget = quickInput(page);
  const input = widget.locator('input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  const prompt = normalize(await widget.innerText().catch(() => ''));
  await input.fill(text);
  if (submit) {
    await input.press('Enter');
  }
  return prompt;
}

/** Picks an entry of an open quick pick by (part of) its label. */
export async function pickQuickItem(
  page: Page,
  label: string,
  { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  const row = quickInput(page).locator('.monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  // A hover left where the pointer last was can cover the row: move away first, and if a click still does
  // not land, choose the row with the keyboard as a person would.
  await page.mouse.move(0, 0);
  try {
    await row.click({ timeout: 5000 });
    return;
  } catch {
    const focused = quickInput(page).locator('.monaco-list-row.focused');
    for (let i = 0; i < 100; i++) {
      if ((await focused.innerText().catch(() => '')).includes(label)) {
        await page.keyboard.press('Enter');
        return;
      }
      await page.keyboard.press('ArrowDown');
    }
    throw new Error(`the quick pick has no row "${label}" to choose`);
  }
}

/** Waits for a notification toast containing `text` and returns its full text. */
export async function waitForNotification(page: Page, text: string | RegExp, timeoutMs = 30_000): Promise<string> {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  return normalize(await toast.innerText());
}

/**
 * Points Model Access at another service as a person does from the palette: Set Service URL, then (with a
 * key) Set API Key. Waits until the status bar names the service and the key is saved, so the next step
 * starts on it; returns the "API key saved" notification's text ('' without a key).
 */
export async function connectService(page: Page, url: string, key?: string): Promise<string> {
  await clearNotifications(page);
  await openPalette(page, 'Model Access: Set Service URL');
  await typeInQuickInput(page, url);
  await page
    .locator('.statusbar-item', { hasText: new URL(url).host })
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 });
  if (key === undefined) {
    return '';
  }
  await openPalette(page, 'Model Access: Set API Key');
  await typeInQuickInput(page, key);
  const note = await waitForNotification(page, /API key saved/, 60_000);
  await clearNotifications(page);
  return note;
}

/** Closes every visible notification toast (its close button only shows while the toast is hovered). */
export async function clearNotifications(page: Page): Promise<void> {
  const toasts = page.locator('.notification-toast');
  for (let i = (await toasts.count()) - 1; i >= 0; i--) {
    const toast = toasts.nth(i);
    await toast.hover({ timeout: 2000 }).catch(() => undefined);
    await toast
      .locator('.codicon-notifications-clear')
      .click({ timeout: 2000 })
      .catch(() => undefined);
  }
  await moveMouseAway(page);
}

export interface TreeRow {
  /** Absolute row index in the tree (stable across scrolling). */
  index: number;
  /** Nesting depth, 1 = top level. */
  level: number;
  label: string;
  description: string;
  /** undefined for leaves. */
  expanded: boolean | undefined;
  /** The row's tooltip/aria label as VS Code computed it. */
  ariaLabel: string;
}

/** Tree rows of a view, read from the DOM. `all: true` scrolls through a long (virtualized) list. */
export async function readTreeRows(
  page: Page,
  {
    viewTitle = 'Models',
    containerId = CONTAINER_ID,
    all = true,
  }: { viewTitle?: string; containerId?: string; all?: boolean } = {},
): Promise<TreeRow[]> {
  const pane = viewPane(page, viewTitle, containerId);
  const list = pane.locator('.monaco-list').first();
  await list.waitFor({ state: 'attached', timeout: 15_000 });
  const byIndex = new Map<number, TreeRow>();
  const readVisible = async () => {
    const rows = await list.locator('.monaco-list-row').evaluateAll((els) =>
      els.map((el) => ({
        index: Number(el.getAttribute('data-index') ?? '-1'),
        level: Number(el.getAttribute('aria-level') ?? '1'),
        label:
          el.querySelector('.label-name')?.textContent ?? el.querySelector('.monaco-icon-label')?.textContent ?? '',
        description: el.querySelector('.label-description')?.textContent ?? '',
        expanded: el.hasAttribute('aria-expanded') ? el.getAttribute('aria-expanded') === 'true' : undefined,
        ariaLabel: el.getAttribute('aria-label') ?? '',
      })),
    );
    let added = 0;
    for (const r of rows) {
      if (!byIndex.has(r.index)) {
        added += 1;
      }
      byIndex.set(r.index, { ...r, label: normalize(r.label), description: normalize(r.description) });
    }
    return added;
  };
  if (all) {
    const scrollable = pane.locator('.monaco-list .monaco-scrollable-element').first();
    const box = (await scrollable.count()) ? await scrollable.boundingBox() : null;
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 40));
      // From the top (the tree may have revealed a row further down), then page down until the end.
      await scrollToTop(page, list);
      let previous = -1;
      for (let i = 0; i < 1000; i++) {
        await readVisible();
        const top = await scrollTop(list);
        if (top === previous) {
          break;
        }
        previous = top;
        await page.mouse.wheel(0, Math.max(60, box.height - 44));
        await page.waitForTimeout(80);
      }
      // Back to the top so later steps see the tree as a person left it, and no hover left behind.
      await scrollToTop(page, list);
      await moveMouseAway(page);
    } else {
      await readVisible();
    }
  } else {
    await readVisible();
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

async function scrollToTop(page: Page, list: Locator): Promise<void> {
  for (let i = 0; i < 200 && (await scrollTop(list)) > 0; i++) {
    await page.mouse.wheel(0, -10_000);
    await page.waitForTimeout(50);
  }
}

async function scrollTop(list: Locator): Promise<number> {
  return list
    .locator('.monaco-scrollable-element')
    .first()
    .evaluate((el) => {
      const rowsEl = el.querySelector('.monaco-list-rows') as HTMLElement | null;
      return rowsEl ? Math.abs(parseFloat(rowsEl.style.top || '0')) : 0;
    });
}

/** A tree row by (the start of) its label, e.g. to click or right-click it. Scroll it into view first if needed. */
export function treeRow(page: Page, label: string, viewTitle = 'Models', containerId = CONTAINER_ID): Locator {
  return viewPane(page, viewTitle, containerId)
    .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: label }) })
    .first();
}

/** Clicks a tree row by label (expands a collapsed parent, runs a leaf's command). */
export async function clickTreeRow(
  page: Page,
  label: string,
  viewTitle = 'Models',
  containerId = CONTAINER_ID,
): Promise<void> {
  const row = treeRow(page, label, viewTitle, containerId);
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click();
}

/** Waits until `e2e.openedCardUrls` (or any array the route handler fills) holds a URL matching `match`. */
export async function waitForOpenedUrl(
  opened: readonly string[],
  match: string | RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = opened.find((u) => (typeof match === 'string' ? u.startsWith(match) : match.test(u)));
    if (hit) {
      return hit;
    }
    if (Date.now() > deadline) {
      throw new Error(`no URL matching ${String(match)} was opened (opened: ${opened.join(', ') || 'none'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Name of the active editor: the modal editor's title when VS Code 1.139 shows one (it opens e.g.
 * settings.json in a floating overlay), else the active tab's label.
 */
export async function activeEditorTitle(page: Page): Promise<string> {
  const modal = page.locator('.modal-editor-part .modal-editor-title .label-name').first();
  if (await modal.isVisible().catch(() => false)) {
    return normalize(await modal.innerText());
  }
  return normalize(
    await page.locator('.editor-group-container.active .tab.active .label-name').first().innerText({ timeout: 15_000 }),
  );
}

/**
 * Waits for a modal dialog containing `text` (VS Code shows errors thrown by commands, and modal
 * `showErrorMessage`/`showWarningMessage` calls, as dialogs rather than toasts) and returns its text.
 * With `button`, clicks that button to close it.
 */
export async function waitForDialog(
  page: Page,
  text: string | RegExp,
  { button, timeoutMs = 30_000 }: { button?: string; timeoutMs?: number } = {},
): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box', { hasText: text }).first();
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  const content = normalize(await dialog.innerText());
  if (button) {
    await dialog.locator('.monaco-button', { hasText: button }).first().click();
  }
  return content;
}

/**
 * Text of the active editor as rendered (only the lines on screen; enough for short documents).
 * Waits until it contains `contains` when given.
 */
export async function readActiveEditorText(
  page: Page,
  { contains, timeoutMs = 30_000 }: { contains?: string | RegExp; timeoutMs?: number } = {},
): Promise<string> {
  const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await editor.waitFor({ state: 'visible', timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await editor.evaluate((el) =>
      Array.from(el.querySelectorAll('.view-line'))
        .map((line) => ({ top: parseFloat((line as HTMLElement).style.top || '0'), text: line.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text)
        .join('\n'),
    );
    const normalized = text.replace(/\u00a0/g, ' ');
    // A wrapped line is shown as several rows: `contains` may also match the rows read as one paragraph.
    const paragraph = normalized.replace(/\s+/g, ' ');
    const ok =
      contains === undefined ||
      (typeof contains === 'string'
        ? normalized.includes(contains) || paragraph.includes(contains)
        : contains.test(normalized) || contains.test(paragraph));
    if (ok) {
      return normalized;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the active editor did not show ${String(contains)} within ${timeoutMs} ms; it shows:\n${normalized}`,
      );
    }
    await page.waitForTimeout(200);
  }
}

function normalize(text: string): string {
  return text
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

/**
 * Right-clicks `row` (a tree row, a tab…) and chooses `item` in the context menu that opens, as a person does.
 */
export async function chooseFromContextMenu(page: Page, row: Locator, item: string): Promise<void> {
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click({ button: 'right' });
  const menu = page.locator('.monaco-menu').first();
  const entry = menu.locator('.action-item', { hasText: item }).first();
  await entry.waitFor({ state: 'visible', timeout: 15_000 });
  // A menu ignores the pointer for a moment after it opened: a click that did not choose the entry leaves the
  // menu open. Then choose it with the keyboard, as a person would.
  await entry.click();
  if (
    await menu.waitFor({ state: 'hidden', timeout: 3000 }).then(
      () => true,
      () => false,
    )
  ) {
    return;
  }
  const focused = menu.locator('.action-item.focused');
  for (let i = 0; i < 30; i++) {
    if ((await focused.innerText().catch(() => '')).includes(item)) {
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the context menu has no entry "${item}" to choose`);
}

/**
 * The frame of a webview (an editor tab the extension fills with HTML) whose document has an element matching
 * `selector`. VS Code nests each webview's page in two iframes; Playwright lists every frame of the page.
 */
export async function webviewFrame(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      ) {
        return frame;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no webview shows ${selector} within ${timeoutMs} ms`);
    }
    await page.waitForTimeout(200);
  }
}

/** Waits until `read()` returns a value `done` accepts (what a webview shows changes as answers arrive). */
export async function waitForValue<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not reached within ${timeoutMs} ms; last seen ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/**
 * *Preferences: Color Theme*, then the theme by its setting value, e.g. "Default Dark Modern" (the picker labels
 * VS Code's own themes without "Default ").
 */
export async function setColorTheme(page: Page, theme: string): Promise<void> {
  const label = theme.replace(/^Default /, '');
  await openPalette(page, 'Preferences: Color Theme');
  await typeInQuickInput(page, label, { submit: false });
  const row = quickInput(page)
    .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^(Default )?${label}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click();
  // The workbench's class for the theme's kind: vs, vs-dark, hc-black (High Contrast), hc-light.
  const kind = /high contrast light|light high contrast/i.test(theme)
    ? 'hc-light'
    : /high contrast/i.test(theme)
      ? 'hc-black'
      : /dark/i.test(theme)
        ? 'vs-dark'
        : 'vs';
  await page.waitForFunction(
    (cls) => document.querySelector('.monaco-workbench')?.classList.contains(cls) ?? false,
    kind,
    { timeout: 15_000 },
  );
}

/**
 * After New Request's endpoint pick: the model picker New Request shows when no model selected in the
 * Models view suits the endpoint. Chooses `model` (or the first listed, which suits the endpoint) and returns
 * true; returns false when no picker came (a selected model was used) and the payload opened.
 */
export async function answerModelPick(page: Page, model?: string): Promise<boolean> {
  const picker = quickInput(page).filter({ hasText: /which model for POST/ });
  const payload = page.locator('.editor-group-container.active .tab.active', { hasText: /\.jsonc/ });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (await picker.isVisible().catch(() => false)) {
      if (model) {
        await typeInQuickInput(page, model, { submit: false });
        await pickQuickItem(page, model);
      } else {
        await page.keyboard.press('Enter');
      }
      return true;
    }
    if (await payload.isVisible().catch(() => false)) {
      return false;
    }
    if (Date.now() > deadline) {
      throw new Error('New Request neither asked for a model nor opened a payload');
    }
    await page.waitForTimeout(150);
  }
}

export interface Legibility {
  /** What was measured (a CSS selector of the page). */
  selector: string;
  color: string;
  background: string;
  /** WCAG contrast ratio of the text against the page's background, 1–21. */
  contrast: number;
}

/**
 * How legible the text of each selector is in a webview: its computed color against the body's background
 * (WCAG contrast ratio). Colors with transparency are blended over the background first.
 */
export async function measureLegibility(frame: Frame, selectors: string[]): Promise<Legibility[]> {
  // Plain JavaScript, run in the page: the test runner's transpiler would wrap named functions in helpers the
  // page does not have.
  return frame.evaluate(`(${LEGIBILITY_SCRIPT})(${JSON.stringify(selectors)})`) as Promise<Legibility[]>;
}

const LEGIBILITY_SCRIPT = `function (list) {
  function rgba(css) {
    const probe = document.createElement('canvas').getContext('2d');
    probe.fillStyle = '#000';
    probe.fillStyle = css;
    const hex = String(probe.fillStyle);
    if (hex.startsWith('#')) {
      return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).concat(1);
    }
    const m = /rgba?\\(([^)]+)\\)/.exec(hex);
    const parts = (m ? m[1] : '0,0,0,1').split(',').map((p) => parseFloat(p));
    return [parts[0], parts[1], parts[2], parts[3] === undefined ? 1 : parts[3]];
  }
  function blend(top, below) {
    return top.slice(0, 3).map((c, i) => c * top[3] + below[i] * (1 - top[3]));
  }
  function luminance(rgb) {
    const [r, g, b] = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const pageBackground = blend(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255]);
  return list.map((selector) => {
    const el = document.querySelector(selector);
    if (!el) {
      return { selector, color: 'missing', background: 'missing', contrast: 0 };
    }
    let background = pageBackground;
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const own = rgba(getComputedStyle(node).backgroundColor);
      if (own[3] > 0) {
        background = blend(own, pageBackground);
        break;
      }
    }
    const color = blend(rgba(getComputedStyle(el).color), background);
    const [hi, lo] = [luminance(color), luminance(background)].sort((a, b) => b - a);
    return {
      selector,
      color: 'rgb(' + color.map(Math.round).join(', ') + ')',
      background: 'rgb(' + background.map(Math.round).join(', ') + ')',
      contrast: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
    };
  });
}`;

/** Sets `"stream": true` in the active payload as a person would (Go to Line, replace the value). */
export async function streamPayload(page: Page): Promise<void> {
  const lines = (await readActiveEditorText(page, { contains: '"stream": false' })).split('\n');
  const streamLine = lines.findIndex((l) => l.includes('"stream": false')) + 1;
  await page.keyboard.press('Control+G');
  await typeInQuickInput(page, `:${streamLine}`);
  await page.keyboard.press('End');
  await page.keyboard.press('Control+Shift+ArrowLeft');
  await page.keyboard.type('true');
  await readActiveEditorText(page, { contains: '"stream": true' });
}

/** Hides the panel when an earlier step left it open (the log, the terminal): the editors need the room. */
export async function hidePanel(page: Page): Promise<void> {
  if (await page.locator('.part.panel').isVisible()) {
    await openPalette(page, 'View: Hide Panel');
  }
}
