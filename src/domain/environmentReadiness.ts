/**
 * What Switch Environment says under each environment before anyone switches: whether its API key is set,
 * how many plain headers it sends, and which secret headers still have no value — names and counts only,
 * never a value.
 */
import { l10n } from '../common/l10n';
import { clean, type DisplayText } from '../common/text';
import { KeyMessages } from './keyMessages';

export interface EnvironmentReadiness {
  /**
   * The key in use: where it comes from (stored for a scope, or the MODEL_ACCESS_API_KEY fallback), `missing`
   * when there is none, `unknown` when SecretStorage could not say.
   */
  key: { scope: string; source: 'secretStorage' | 'environment' } | 'missing' | 'unknown';
  /** The host of its URL, for "No API key for … yet". */
  host: DisplayText;
  /** How many plain (non-secret) headers it sends. */
  headers: number;
  /** Each secret header by name, and whether a value is stored for it. */
  secretHeaders: readonly { name: string; set: boolean }[];
}

export function readinessLine(r: EnvironmentReadiness): DisplayText {
  let line =
    r.key === 'missing'
      ? l10n.t('No API key for {0} yet', r.host)
      : r.key === 'unknown'
        ? l10n.t('API key unknown')
        : l10n.t('API key: {0}', KeyMessages.keySource(r.key.source, r.key.scope));
  if (r.headers === 1) {
    line = l10n.t('{0} · 1 header', line);
  } else if (r.headers > 1) {
    line = l10n.t('{0} · {1} headers', line, r.headers);
  }
  const unset = r.secretHeaders.filter((h) => !h.set).map((h) => h.name);
  const secrets = r.secretHeaders.length;
  if (unset.length === 1) {
    return l10n.t('{0} · secret header {1} not set', line, clean(unset[0]));
  }
  if (unset.length > 1) {
    return l10n.t('{0} · secret headers {1} not set', line, clean(unset.join(', ')));
  }
  if (secrets === 1) {
    return l10n.t('{0} · 1 secret header set', line);
  }
  return secrets > 1 ? l10n.t('{0} · {1} secret headers set', line, secrets) : line;
}
