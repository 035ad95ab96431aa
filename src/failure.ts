/**
 * Turning a failure (a ServiceError from src/api/, or anything else thrown) into text a person can act on,
 * plus the one action that helps. Pure, no `vscode` import; the UI decides where the text goes.
 */

export type FailureAction = 'setApiKey' | 'setBaseUrl' | 'retry' | 'showLog';

export interface Failure {
  /** One line for the view message, notification or tree item. */
  message: string;
  /** Extra line (request id, hints), may be empty. */
  detail: string;
  action: FailureAction;
  kind: string;
  status?: number;
  requestId?: string;
}

interface ServiceErrorLike {
  kind?: unknown;
  status?: unknown;
  code?: unknown;
  message?: unknown;
  requestId?: unknown;
  /** The host the request went to, when the error carries it. */
  host?: unknown;
  url?: unknown;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function oneLine(text: string, max = 300): string {
  const s = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * @param error what was thrown
 * @param host the service host (for network messages when the error does not name it)
 */
export function describeFailure(error: unknown, host?: string): Failure {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ServiceErrorLike;
  const kind = str(e.kind) ?? 'unknown';
  const status = num(e.status);
  const requestId = str(e.requestId);
  const serverMessage = str(e.message) ? oneLine(String(e.message)) : undefined;
  const detail = requestId ? `Request id: ${requestId}` : '';
  const base = { kind, status, requestId, detail };

  if (kind === 'unauthorized' || status === 401 || status === 403) {
    return {
      ...base,
      message: status === 403 ? 'The API key was rejected (403): it is not allowed to list models.' : 'The API key was rejected.',
      action: 'setApiKey',
    };
  }
  if (kind === 'network' || kind === 'timeout') {
    const where = str(e.host) ?? host ?? 'the service';
    const reason = serverMessage ?? (kind === 'timeout' ? 'the request timed out' : 'the connection failed');
    return {
      ...base,
      message: reason.includes(where) ? `Cannot reach the service: ${reason}` : `Cannot reach ${where}: ${reason}`,
      action: 'retry',
    };
  }
  if (kind === 'config') {
    return { ...base, message: serverMessage ?? 'The service is not configured.', action: 'setBaseUrl' };
  }
  if (kind === 'insecure') {
    return { ...base, message: serverMessage ?? 'Refused to send the key over an insecure connection.', action: 'setBaseUrl' };
  }
  if (kind === 'aborted') {
    return { ...base, message: 'The request was cancelled.', action: 'retry' };
  }
  if (status !== undefined) {
    const text = serverMessage && !serverMessage.startsWith(String(status)) ? `: ${serverMessage}` : serverMessage ? ` (${serverMessage})` : '';
    return { ...base, message: `The service answered ${status}${text}`, action: 'retry' };
  }
  if (kind === 'invalidResponse') {
    return { ...base, message: `The service sent a response that could not be read${serverMessage ? `: ${serverMessage}` : '.'}`, action: 'retry' };
  }
  return { ...base, message: serverMessage ?? 'Something went wrong while talking to the service.', action: 'showLog' };
}
