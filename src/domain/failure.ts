/**
 * Turning a failure (a ServiceError from src/api/, or anything else thrown) into text a person can act on,
 * plus the one action that helps. Pure, no `vscode` import; the UI decides where the text goes.
 */
import { KEY_NOT_ALLOWED } from './keyConsent';
import { isConnectionSetupFailure } from '../api/errors';
import { Commands } from '../ids';
import { l10n } from '../common/l10n';
import { nonBlank } from '../common/records';
import { clean, displayText, hostOf, oneLine, type DisplayText } from '../common/text';

export type FailureAction =
  'setApiKey' | 'setBaseUrl' | 'setHeaderSecret' | 'retry' | 'showLog' | 'allowKey' | 'diagnose';

interface ActionButton {
  command: string;
  readonly title: DisplayText;
  icon: string;
}

/** The title is read when shown: the display language's bundle is loaded after this module. */
function button(command: string, title: () => DisplayText, icon: string): ActionButton {
  return {
    command,
    get title() {
      return title();
    },
    icon,
  };
}

/** The command that helps with each failure, and how a button or tree row names it. */
export const FAILURE_ACTIONS: Record<FailureAction, ActionButton> = {
  setApiKey: button(Commands.setApiKey, () => l10n.t('Set API Key…'), 'key'),
  setHeaderSecret: button(Commands.setHeaderSecret, () => l10n.t('Set Environment Header Secret…'), 'lock'),
  setBaseUrl: button(Commands.setBaseUrl, () => l10n.t('Set Service URL…'), 'link'),
  retry: button(Commands.refreshModels, () => l10n.t('Retry'), 'refresh'),
  showLog: button(Commands.showLog, () => l10n.t('Show Log'), 'output'),
  allowKey: button(Commands.allowStoredKey, () => l10n.t('Allow Stored Key…'), 'unlock'),
  diagnose: button(Commands.diagnoseConnection, () => l10n.t('Diagnose Connection'), 'pulse'),
};

/**
 * Every way out of a failure, its own action first: a service that cannot be reached may be the wrong URL, or a
 * network the diagnosis explains, so those are offered beside Retry.
 */
export function waysOut(failure: Pick<Failure, 'action' | 'kind'>): FailureAction[] {
  const unreachable = failure.kind === 'network' || failure.kind === 'timeout' || failure.action === 'diagnose';
  const ways: FailureAction[] = unreachable ? [failure.action, 'setBaseUrl', 'diagnose', 'retry'] : [failure.action];
  return [...new Set(ways)];
}

/** The `code` of the config error a connection throws when the URL is set but no key is. */
export const NO_KEY = 'noKey';
/** The `code` of the config error a connection throws when a secret header of the environment has no value. */
export const HEADER_SECRET_MISSING = 'headerSecretMissing';

export interface Failure {
  /** One line for the view message, notification or tree item. */
  message: string;
  /** Extra line (request id, hints), may be empty. */
  detail: string;
  action: FailureAction;
  kind: string;
  status?: number;
  requestId?: string;
  /** The service's error code (`model_not_found`), as it said it: a way out may depend on it. */
  code?: string;
}

interface ServiceErrorLike {
  kind?: unknown;
  status?: unknown;
  code?: unknown;
  message?: unknown;
  /** The server's own words, without our framing (ServiceError). */
  serverMessage?: unknown;
  statusText?: unknown;
  requestId?: unknown;
  /** The host the request went to, when the error carries it. */
  host?: unknown;
  url?: unknown;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * @param error what was thrown
 * @param host the service host (for network messages when the error does not name it)
 */
export function describeFailure(error: unknown, host?: string): Failure {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ServiceErrorLike;
  const kind = nonBlank(e.kind) ?? 'unknown';
  const status = num(e.status);
  const requestId = nonBlank(e.requestId);
  const message = nonBlank(e.message) ? displayText(oneLine(String(e.message)), 300) : undefined;
  const serverMessage = nonBlank(e.serverMessage) ? displayText(oneLine(String(e.serverMessage)), 300) : undefined;
  const detail = [
    serverMessage ? l10n.t('The service said: {0}', serverMessage) : '',
    requestId ? l10n.t('Request id: {0}', clean(requestId)) : '',
  ]
    .filter(Boolean)
    .join('\n');
  const code = nonBlank(e.code);
  const base = { kind, status, requestId, detail, ...(code !== undefined ? { code: clean(code) } : {}) };

  if (kind === 'unauthorized' || status === 401 || status === 403) {
    return {
      ...base,
      message:
        status === 403
          ? l10n.t('The API key was rejected (403): it is not allowed to list models.')
          : l10n.t('The API key was rejected.'),
      action: 'setApiKey',
    };
  }
  if (isConnectionSetupFailure(e)) {
    // TLS and proxy failures: the message says what failed; the diagnosis shows the chain, proxy and roots.
    return { ...base, message: message ?? l10n.t('The secure connection could not be set up.'), action: 'diagnose' };
  }
  if (kind === 'network' || kind === 'timeout') {
    const named = nonBlank(e.host) ?? host;
    const where = named !== undefined ? clean(named) : l10n.t('the service');
    const reason = message ?? (kind === 'timeout' ? l10n.t('the request timed out') : l10n.t('the connection failed'));
    // The client's messages already name the host ("Could not connect to https://h: connection refused.").
    return {
      ...base,
      message: reason.includes(hostOf(where)) ? reason : l10n.t('Cannot reach {0}: {1}', where, reason),
      action: 'retry',
    };
  }
  if (kind === 'config' && nonBlank(e.code) === KEY_NOT_ALLOWED) {
    return {
      ...base,
      message: message ?? l10n.t("The key is not allowed for this workspace's service URL yet."),
      action: 'allowKey',
    };
  }
  if (kind === 'config' && nonBlank(e.code) === HEADER_SECRET_MISSING) {
    return {
      ...base,
      message: message ?? l10n.t('A secret header of this environment has no value yet.'),
      action: 'setHeaderSecret',
    };
  }
  if (kind === 'config' && nonBlank(e.code) === NO_KEY) {
    return { ...base, message: message ?? l10n.t('No API key is set for this service.'), action: 'setApiKey' };
  }
  if (kind === 'config') {
    return { ...base, message: message ?? l10n.t('The service is not configured.'), action: 'setBaseUrl' };
  }
  if (kind === 'insecure') {
    return {
      ...base,
      message: message ?? l10n.t('Refused to send the key over an insecure connection.'),
      action: 'setBaseUrl',
    };
  }
  if (kind === 'aborted') {
    return { ...base, message: l10n.t('The request was cancelled.'), action: 'retry' };
  }
  if (status !== undefined) {
    const head = clean(`${status}${nonBlank(e.statusText) ? ` ${nonBlank(e.statusText)}` : ''}`);
    const said = serverMessage ?? (message && !/^the (server|service) answered/i.test(message) ? message : undefined);
    const id = requestId ? clean(requestId) : undefined;
    const text =
      said && id
        ? l10n.t('The service answered {0}: {1} (request id {2})', head, said, id)
        : said
          ? l10n.t('The service answered {0}: {1}', head, said)
          : id
            ? l10n.t('The service answered {0} (request id {1})', head, id)
            : l10n.t('The service answered {0}', head);
    return { ...base, message: displayText(oneLine(text, 400), 400), action: 'retry' };
  }
  if (kind === 'invalidResponse') {
    return {
      ...base,
      message: message ?? l10n.t('The service sent a response that could not be read.'),
      action: 'retry',
    };
  }
  return {
    ...base,
    message: message ?? l10n.t('Something went wrong while talking to the service.'),
    action: 'showLog',
  };
}
