/**
 * Localized text that is data, not a message for a notification or a picker: the client's error messages
 * (kept on a ServiceError, logged, and cleaned as a whole by displayText in src/common/text.ts before anyone
 * sees them) and the lines of response documents (plain text in an editor, which renders no links or
 * icons). Any text may fill a `{n}` placeholder, and the result is a plain string, never display text —
 * what goes to the UI takes src/common/l10n.ts instead. `@vscode/l10n` is configured
 * once in the extension host (src/common/l10n.ts useBundle); elsewhere (tests, benchmarks) it speaks
 * English.
 */
import * as runtime from '@vscode/l10n';

export const l10n = {
  /** The message in the display language, with `{0}`, `{1}`… replaced by `args`. */
  t: (message: string, ...args: Array<string | number>): string => runtime.t(message, ...args),
};
