/**
 * Localized messages for the vscode-bound modules: `vscode.l10n.t` with the argument types of
 * src/common/l10n.ts, so an uncleaned value cannot be put into a message (see there why).
 */
import * as vscode from 'vscode';
import type { Localizer } from '../common/l10n';
import type { DisplayText } from '../common/text';

export const l10n: Localizer = {
  t: (message, ...args) => vscode.l10n.t(message, ...args) as DisplayText,
};
