import type { ModelEntry } from '../api/types';
import type { RedactingLog } from '../platform/log';
import { msg, type DisplayText } from '../common/text';
import type { Ui } from '../platform/ui';
import { checkCardLink, describeLink, rawCardLink } from './core/linkSafety';

export type CardOutcome = 'opened' | 'refused' | 'noCard' | 'notOpened';

/**
 * Opens a model's Model Card in the browser — only an absolute http(s) link; anything else is refused
 * with a message that offers Inspect instead. Returns what happened (tests assert on it).
 */
export async function openModelCard(
  model: ModelEntry,
  deps: { ui: Ui; log: RedactingLog; inspect: (model: ModelEntry) => Promise<void> },
): Promise<CardOutcome> {
  const name = model.id;
  // The client only keeps safe links in `cardUrl`; look at the raw entry to explain a dropped one.
  const link = model.cardUrl ?? rawCardLink(model.raw);
  const check = checkCardLink(link);
  let outcome: CardOutcome;
  let message: DisplayText;
  if (check.ok) {
    deps.log.info(msg`Opening the Model Card of ${name}: ${check.url}`);
    const opened = await deps.ui.openExternal(check.url);
    return opened ? 'opened' : 'notOpened';
  } else if (link === undefined || link.trim() === '') {
    outcome = 'noCard';
    message = msg`“${name}” has no Model Card link.`;
  } else {
    outcome = 'refused';
    message = msg`The Model Card of “${name}” was not opened. ${check.reason}`;
    deps.log.warn(msg`Refused the Model Card link of ${name} (${describeLink(link)}): ${check.reason}`);
  }
  // Not awaited: a notification settles only when dismissed, and the command should not wait for that.
  const shown = outcome === 'noCard' ? deps.ui.info(message, 'Inspect Model') : deps.ui.warn(message, 'Inspect Model');
  void Promise.resolve(shown)
    .then((action) => (action === 'Inspect Model' ? deps.inspect(model) : undefined))
    .catch((e: unknown) => deps.log.error(`Inspect after a Model Card message failed: ${String(e)}`));
  return outcome;
}
