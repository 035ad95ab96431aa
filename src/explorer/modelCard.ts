import type { ModelEntry } from '../api/types';
import type { RedactingLog } from '../platform/log';
import { clean, type DisplayText } from '../common/text';
import { l10n } from '../platform/l10n';
import type { Ui } from '../platform/ui';
import { checkCardLink, describeLink, rawCardLink } from '../api/linkSafety';

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
    deps.log.info(`Opening the Model Card of ${clean(name)}: ${clean(check.url)}`);
    const opened = await deps.ui.openExternal(check.url);
    return opened ? 'opened' : 'notOpened';
  } else if (link === undefined || link.trim() === '') {
    outcome = 'noCard';
    message = l10n.t('“{0}” has no Model Card link.', clean(name));
  } else {
    outcome = 'refused';
    message = l10n.t('The Model Card of “{0}” was not opened. {1}', clean(name), clean(check.reason));
    deps.log.warn(
      `Refused the Model Card link of ${clean(name)} (${clean(describeLink(link))}): ${clean(check.reason)}`,
    );
  }
  // Not awaited: a notification settles only when dismissed, and the command should not wait for that.
  const inspectAction = l10n.t('Inspect Model');
  const shown = outcome === 'noCard' ? deps.ui.info(message, inspectAction) : deps.ui.warn(message, inspectAction);
  void Promise.resolve(shown)
    .then((action) => (action === inspectAction ? deps.inspect(model) : undefined))
    .catch((e: unknown) => deps.log.error(`Inspect after a Model Card message failed: ${String(e)}`));
  return outcome;
}
