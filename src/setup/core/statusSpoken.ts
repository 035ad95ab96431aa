/**
 * What a screen reader says for the Model Access status bar item: the product, the state in words, and the
 * service. The visible text carries the state in its icon ($(warning), $(key), a spinner), which is not read
 * out, so the spoken name says it. Pure; no `vscode` import.
 */
import { modelCount } from '../../common/counts';
import { l10n } from '../../common/l10n';
import type { DisplayText } from '../../common/text';

export type StatusKind = 'needsUrl' | 'needsKey' | 'idle' | 'loading' | 'ready' | 'error';

/** `host`: the service (or environment) as the item shows it, already display text; `count`: models listed. */
export function statusSpoken(kind: StatusKind, host: DisplayText, count: number): DisplayText {
  switch (kind) {
    case 'needsUrl':
      return l10n.t('Model Access: no service URL is set');
    case 'needsKey':
      return l10n.t('Model Access: {0}, no API key is set', host);
    case 'idle':
      return l10n.t('Model Access: {0}, models not loaded yet', host);
    case 'loading':
      return l10n.t('Model Access: {0}, loading models', host);
    case 'ready':
      return l10n.t('Model Access: {0}, {1}', host, modelCount(count));
    case 'error':
      return count > 0
        ? l10n.t(
            'Model Access warning: {0}, the model list could not be loaded; showing the last list ({1})',
            host,
            modelCount(count),
          )
        : l10n.t('Model Access warning: {0}, the model list could not be loaded', host);
  }
}
