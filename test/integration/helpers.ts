// Shared helpers for integration tests (they run inside the extension host, with the real `vscode` API).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Ui } from '../../src/platform/ui'; // types only: the suite is bundled apart
import type { ModelAccessApi } from '../../src/testApi';
import type { RunningServer } from '../server';
import { Commands } from '../../src/ids';

export const EXTENSION_ID = 'model-access-team.model-access';

/**
 * Activates the extension under test and returns what its `activate()` returned (its test API, typed by
 * the caller: `await activateExtension<ModelAccessApi>()`).
 */
export async function activateExtension<T = unknown>(): Promise<T> {
  const ext = vscode.extensions.getExtension<T>(EXTENSION_ID);
  if (!ext) {
    throw new Error(`${EXTENSION_ID} is not loaded in this VS Code`);
  }
  return ext.isActive ? ext.exports : await ext.activate();
}

/** Polls `check` until it returns something other than undefined/false (VS Code updates views asynchronously). */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) {
        return value;
      }
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const SECTION = 'modelAccess';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sets a `modelAccess.*` user setting (undefined removes it). */
export async function setSetting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(name, value, vscode.ConfigurationTarget.Global);
}

/**
 * Points the extension at `server` with its acme key, as a person does (URL in the settings, key stored), and
 * waits until the model list is loaded from it.
 */
export async function connectTo(api: ModelAccessApi, server: RunningServer): Promise<void> {
  await setSetting('baseUrl', server.url);
  await api.keys.store(server.url, server.keys.acme);
  await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the URL');
  await sleep(150);
  await api.catalog.refresh();
  await eventually(() => api.catalog.status.kind === 'ready', 15_000, 'the model list');
}

/**
 * A new scratch payload from `modelAccess.newRequest` for `endpoint` and `model`, with `edit` applied to its
 * JSON, the cursor at the start (so a send sends the whole payload).
 */
export async function newPayload(
  endpoint: string,
  model: string,
  edit?: (payload: Record<string, unknown>) => void,
): Promise<vscode.TextEditor> {
  const editor = (await vscode.commands.executeCommand(Commands.newRequest, model, endpoint)) as vscode.TextEditor;
  if (!editor) {
    throw new Error(`${Commands.newRequest} returned no editor`);
  }
  if (edit) {
    const doc = editor.document;
    const payload = JSON.parse(doc.getText().replace(/^.*\n/, ''));
    edit(payload);
    await editor.edit((b) =>
      b.replace(
        new vscode.Range(new vscode.Position(1, 0), doc.lineAt(doc.lineCount - 1).range.end),
        JSON.stringify(payload, null, 2),
      ),
    );
  }
  editor.selection = new vscode.Selection(0, 0, 0, 0);
  return editor;
}

/** What {@link stubUi} saw: every message shown (info, warn, error, in order) and every text copied. */
export interface UiStub {
  messages: string[];
  copied: string[];
  /** Puts every member of the Ui back as it was before `stubUi`. */
  restore(): void;
}

/**
 * Replaces the extension's Ui (`api.ui`) so a command runs as from the palette with its prompts answered:
 * messages are recorded instead of shown (answered with undefined: no button), copies are recorded instead
 * of reaching the clipboard, and `answers` replace any member (`input`, `pick`, `ask`, `saveDialog`, …).
 * Members may also be replaced later (`api.ui.pick = …`); `restore()` puts all of them back.
 */
export function stubUi(ui: Ui, answers: Partial<Ui> = {}): UiStub {
  const original = { ...ui };
  const stub: UiStub = {
    messages: [],
    copied: [],
    restore: () => void Object.assign(ui, original),
  };
  const record = async (message: string) => (stub.messages.push(message), undefined);
  Object.assign(ui, {
    info: record,
    warn: record,
    error: record,
    copy: async (text: string) => void stub.copied.push(text),
    ...answers,
  } satisfies Partial<Ui>);
  return stub;
}

/** An in-memory SecretStorage (for a private key store in a test); `dispose()` ends its change event. */
export function memorySecrets(initial: [string, string][] = []): {
  secrets: vscode.SecretStorage;
  stored: Map<string, string>;
  dispose(): void;
} {
  const stored = new Map<string, string>(initial);
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  const secrets: vscode.SecretStorage = {
    get: async (k) => stored.get(k),
    store: async (k, v) => void stored.set(k, v),
    delete: async (k) => void stored.delete(k),
    onDidChange: changed.event,
  };
  return { secrets, stored, dispose: () => changed.dispose() };
}

/** Every file under `dir` (skipping very large ones), with its text. */
export function filesUnder(dir: string, out: { file: string; text: string }[] = []): { file: string; text: string }[] {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) {
      continue;
    }
    if (st.isDirectory()) {
      filesUnder(file, out);
    } else if (st.isFile() && st.size < 20 * 1024 * 1024) {
      out.push({ file, text: readFileSync(file).toString('latin1') });
    }
  }
  return out;
}
