// Shared helpers for integration tests (they run inside the extension host, with the real `vscode` API).
import * as vscode from 'vscode';

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
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
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
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
