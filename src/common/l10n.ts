/**
 * Localized messages for the pure folders (and the one place the runtime's bundle is loaded). Pure, no
 * `vscode` import: `@vscode/l10n` returns the English text with `{0}` filled in until `useBundle` gives it
 * the bundle VS Code loaded for the display language (src/extension.ts does that in activate()).
 *
 * Why a typed `l10n.t` instead of the package's: the arguments end up inside text people see (notifications
 * run `[x](command:…)` links, quick picks and the status bar render `$(icon)`), so they must be
 * {@link DisplayText} — made by `displayText`/`clean` — or numbers. The template is ours (or a translator's),
 * so the result is DisplayText too. The name `l10n.t` and a string literal as the first argument are what
 * scripts/l10n.mjs (`@vscode/l10n-dev`) extracts into l10n/bundle.l10n.json.
 */
import * as runtime from '@vscode/l10n';
import type { DisplayText } from './text';

/** What may fill a `{n}` placeholder: text cleaned for display, or a number. */
export type MessageArg = DisplayText | number;

export interface Localizer {
  /** The message in the display language, with `{0}`, `{1}`… replaced by `args`. */
  t(message: string, ...args: MessageArg[]): DisplayText;
}

export const l10n: Localizer = {
  t: (message, ...args) => runtime.t(message, ...args) as DisplayText,
};

/** Gives the pure modules the bundle VS Code loaded (`vscode.l10n.bundle`); without one they speak English. */
export function useBundle(contents: Record<string, string | { message: string; comment: string[] }>): void {
  runtime.config({ contents });
}
