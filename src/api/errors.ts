/**
 * ServiceError: the one error type the client throws, with a message a person can act on. Every string
 * it carries has had the API key removed (see redact.ts) before it was built.
 */
import { STATUS_CODES } from 'node:http';
import { readErrorBody, type ErrorDetails } from './errorBody';
import { l10n } from '../common/plainL10n';

/** What went wrong, in the few kinds the UI distinguishes. */
export type ServiceErrorKind =
  | 'http' // the server answered with a non-2xx status
  | 'unauthorized' // 401 / 403
  | 'notFound' // 404
  | 'rateLimited' // 429 after retries
  | 'network' // refused, DNS, reset, TLS
  | 'timeout'
  | 'aborted'
  | 'invalidResponse' // malformed JSON, unexpected shape
  | 'config' // invalid base URL, insecure http origin, no key
  | 'insecure';

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  status?: number;
  statusText?: string;
  code?: string;
  type?: string;
  requestId?: string;
  retryAfterMs?: number;
  /** The server's own message, when it sent one. */
  serverMessage?: string;
  /** Origin of the service (`https://host:port`), for messages like "Cannot reach …". */
  host?: string;
  /** Removes secrets from every string of the error. */
  redact?: (text: string) => string;
  cause?: unknown;
}

/** The client's one error type. `kind` says what went wrong; `message` is written for people. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly statusText?: string;
  readonly code?: string;
  readonly type?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly serverMessage?: string;
  readonly host?: string;

  constructor(init: ServiceErrorInit) {
    const r = init.redact ?? ((s: string) => s);
    const opt = (s: string | undefined): string | undefined => (s === undefined ? undefined : r(s));
    super(r(init.message));
    this.kind = init.kind;
    this.status = init.status;
    this.statusText = opt(init.statusText);
    this.code = opt(init.code);
    this.type = opt(init.type);
    this.requestId = opt(init.requestId);
    this.retryAfterMs = init.retryAfterMs;
    this.serverMessage = opt(init.serverMessage);
    this.host = init.host;
    if (init.cause !== undefined) {
      // Kept off the enumerable fields (and out of toJSON) so logging the error never serializes it.
      Object.defineProperty(this, 'cause', {
        value: init.cause,
        enumerable: false,
        configurable: true,
        writable: true,
      });
    }
  }

  toJSON(): Record<string, unknown> {
    const { kind, status, code, type, requestId, retryAfterMs, serverMessage, message } = this;
    return { name: this.name, kind, message, status, code, type, requestId, retryAfterMs, serverMessage };
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

export function kindForStatus(status: number): ServiceErrorKind {
  if (status === 401 || status === 403) {
    return 'unauthorized';
  }
  if (status === 404) {
    return 'notFound';
  }
  if (status === 429) {
    return 'rateLimited';
  }
  return 'http';
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}

export interface HttpErrorInput {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (already bounded in size). */
  body: string;
  host: string;
  requestId?: string;
  retryAfterMs?: number;
  redact?: (text: string) => string;
}

/**
 * The error for a non-2xx answer: "The server answered 401 Unauthorized: Invalid API key (request id req_123)".
 */
export function httpError(input: HttpErrorInput): ServiceError {
  const r = input.redact ?? ((s: string) => s);
  const details: ErrorDetails = readErrorBody(r(input.body), input.headers);
  const text = statusText(input.status);
  const head = `${input.status}${text ? ` ${text}` : ''}`;
  let said = details.message;
  // A proxy page titled "502 Bad Gateway" repeats the status line; say where it came from instead.
  if (said && (said === head || said === String(input.status) || said.toLowerCase() === text.toLowerCase())) {
    said = undefined;
  }
  let message = said
    ? l10n.t('The server answered {0}: {1}', head, said)
    : details.html
      ? l10n.t('The server answered {0} (an HTML page, probably from a proxy or gateway in front of the service)', head)
      : l10n.t('The server answered {0}', head);
  if (input.requestId) {
    message = l10n.t('{0} (request id {1})', message, input.requestId);
  }
  return new ServiceError({
    kind: kindForStatus(input.status),
    message,
    status: input.status,
    statusText: text,
    code: details.code,
    type: details.type,
    requestId: input.requestId,
    retryAfterMs: input.retryAfterMs,
    serverMessage: details.message,
    host: input.host,
    redact: r,
  });
}

/** Where a network failure happened; it decides the words for a timeout. */
export type Phase = 'connect' | 'headers' | 'body';

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
}

function codesOf(e: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && typeof cur === 'object' && cur !== null; depth++) {
    const x = cur as ErrorLike;
    if (typeof x.code === 'string') {
      codes.push(x.code);
    }
    if (typeof x.name === 'string') {
      codes.push(x.name);
    }
    cur = x.cause;
  }
  return codes;
}

const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH|ERR_OSSL|EPROTO$)/;

/** The `code` of a proxy failure (`PROXY_AUTH`, `PROXY_REFUSED`, `PROXY_CONFIG`) or a TLS one. */
const SETUP_CODES = /^(PROXY_|TLS_)/;

/**
 * Whether a failure is about how the connection is set up (TLS, proxy), which Diagnose Connection explains
 * better than any one message can.
 */
export function isConnectionSetupFailure(e: { kind?: unknown; code?: unknown }): boolean {
  const code = typeof e.code === 'string' ? e.code : '';
  return (e.kind === 'network' || e.kind === 'config') && (TLS_CODES.test(code) || SETUP_CODES.test(code));
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

const trustHint = (): string =>
  l10n.t(
    'If your organization uses its own certificate authority, add its PEM file to modelAccess.tls.caCertificates (or keep http.systemCertificates on and install it in the OS).',
  );

function errorMessage(e: unknown): string {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && typeof cur === 'object' && cur !== null; depth++) {
    const m = (cur as ErrorLike).message;
    if (typeof m === 'string' && m) {
      return m;
    }
    cur = (cur as ErrorLike).cause;
  }
  return '';
}

/** What a TLS failure means for the person: not trusted, expired, another host's certificate, a client certificate. */
function tlsMessage(code: string, host: string, e: unknown): string {
  const text = errorMessage(e);
  if (UNTRUSTED.has(code)) {
    return l10n.t(
      'The certificate of {0} is not trusted: it was issued by a certificate authority this machine does not trust ({1}). {2}',
      host,
      code,
      trustHint(),
    );
  }
  if (code === 'CERT_HAS_EXPIRED') {
    return l10n.t(
      "The certificate of {0} has expired ({1}); the service's administrators need to renew it.",
      host,
      code,
    );
  }
  if (code === 'CERT_NOT_YET_VALID') {
    return l10n.t("The certificate of {0} is not valid yet ({1}); check this machine's clock.", host, code);
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    const names = /cert's altnames: (.*)$/.exec(text)?.[1];
    return names
      ? l10n.t(
          'The certificate of {0} is for another host name ({1}) ({2}); check the service URL.',
          host,
          names.slice(0, 200),
          code,
        )
      : l10n.t('The certificate of {0} is for another host name ({1}); check the service URL.', host, code);
  }
  if (/certificate required|handshake failure|bad certificate|unknown ca/i.test(text) && /alert/i.test(text)) {
    return l10n.t(
      '{0} refused the connection during the TLS handshake; it probably requires a client certificate (modelAccess.tls.clientCertificate) or does not accept the one sent ({1}).',
      host,
      code,
    );
  }
  return l10n.t('Could not connect securely to {0}: the TLS handshake failed ({1}). {2}', host, code, trustHint());
}

/** A proxy's refusal (407 and other answers to CONNECT, or to a plain proxy request). */
function proxyError(
  e: unknown,
  host: string,
  proxy: string,
  base: { host: string; redact?: (t: string) => string; cause: unknown },
): ServiceError | undefined {
  const text = errorMessage(e);
  const status = Number(
    /Proxy response \((\d{3})\)/.exec(text)?.[1] ?? (/Proxy Authentication Required \(407\)/.test(text) ? 407 : NaN),
  );
  if (!Number.isFinite(status)) {
    return undefined;
  }
  if (status === 407) {
    return new ServiceError({
      ...base,
      kind: 'network',
      code: 'PROXY_AUTH',
      message: l10n.t(
        'The proxy {0} requires credentials (407 Proxy Authentication Required). Put them in the http.proxy setting (http://user:password@host:port) or set http.proxyAuthorization; if they are set, the proxy refused them.',
        proxy,
      ),
    });
  }
  return new ServiceError({
    ...base,
    kind: 'network',
    code: 'PROXY_REFUSED',
    message: l10n.t(
      'The proxy {0} did not open a connection to {1} (it answered {2}); check http.proxy and http.noProxy, or ask who runs the proxy whether {1} is allowed.',
      proxy,
      host,
      `${status}${statusText(status) ? ` ${statusText(status)}` : ''}`,
    ),
  });
}

function seconds(ms: number | undefined): string {
  if (ms === undefined) {
    return '';
  }
  return ms >= 1000 ? l10n.t(' within {0} s', Math.round(ms / 100) / 10) : l10n.t(' within {0} ms', ms);
}

/** What a network failure is read against: the error's codes, where it happened, and the limit that applied. */
interface Failure {
  e: unknown;
  codes: string[];
  host: string;
  /** Whom the socket went to: the service, or "the proxy …" (through a proxy every socket is the proxy's). */
  target: string;
  phase: Phase;
  timeoutMs?: number;
}

/**
 * A kind of network failure: the codes (or the test) that recognise it, its ServiceError kind and code, and
 * its message. Read in order; the first that matches names the failure.
 */
interface FailureRule {
  match: readonly string[] | ((f: Failure) => boolean);
  kind: ServiceErrorKind;
  code?: string | ((f: Failure) => string | undefined);
  message: (f: Failure) => string;
}

function tlsCode(f: Failure): string | undefined {
  return f.codes.find((c) => TLS_CODES.test(c));
}

const FAILURE_RULES: readonly FailureRule[] = [
  {
    match: ['AbortError', 'UND_ERR_ABORTED', 'ABORT_ERR', 'RequestAbortedError'],
    kind: 'aborted',
    message: () => l10n.t('The request was cancelled.'),
  },
  {
    match: ['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'ConnectTimeoutError'],
    kind: 'timeout',
    message: (f) => l10n.t('Could not connect to {0}: no answer{1}.', f.target, seconds(f.timeoutMs)),
  },
  {
    match: ['UND_ERR_HEADERS_TIMEOUT', 'HeadersTimeoutError'],
    kind: 'timeout',
    message: (f) =>
      l10n.t('{0} did not answer{1} (timed out waiting for the response headers).', f.host, seconds(f.timeoutMs)),
  },
  {
    match: ['UND_ERR_BODY_TIMEOUT', 'BodyTimeoutError'],
    kind: 'timeout',
    message: (f) =>
      l10n.t('{0} stopped sending its answer (nothing received{1}; timed out).', f.host, seconds(f.timeoutMs)),
  },
  {
    match: ['ECONNREFUSED'],
    kind: 'network',
    code: 'ECONNREFUSED',
    message: (f) => l10n.t('Could not connect to {0}: connection refused.', f.target),
  },
  {
    match: ['ENOTFOUND', 'EAI_NONAME', 'EAI_FAIL'],
    kind: 'network',
    code: 'ENOTFOUND',
    message: (f) => l10n.t('Could not connect to {0}: the host name was not found (DNS).', f.target),
  },
  {
    match: ['EAI_AGAIN'],
    kind: 'network',
    code: 'EAI_AGAIN',
    message: (f) => l10n.t('Could not connect to {0}: the host name could not be looked up right now (DNS).', f.target),
  },
  {
    match: ['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN'],
    kind: 'network',
    code: (f) => f.codes.find((c) => c.startsWith('E')),
    message: (f) => l10n.t('Could not connect to {0}: the network or host is unreachable.', f.target),
  },
  {
    // The client certificate's own key: nothing went over the network, and nothing will until it is set.
    // OpenSSL 3 says "bad decrypt" for most wrong passphrases, but now and then the wrongly decrypted bytes
    // fail to decode instead ("DECODER routines::unsupported", ERR_OSSL_UNSUPPORTED): the same mistake.
    match: (f) =>
      tlsCode(f) !== undefined &&
      /bad decrypt|bad password|mac verify failure|interrupted or cancelled|DECODER routines::unsupported/i.test(
        errorMessage(f.e),
      ),
    kind: 'config',
    code: 'TLS_PASSPHRASE',
    message: (f) =>
      l10n.t(
        'The client certificate\'s key could not be decrypted with the stored passphrase ({0}): set it with "Model Access: Set Client Certificate Passphrase".',
        String(tlsCode(f)),
      ),
  },
  {
    match: (f) => tlsCode(f) !== undefined,
    kind: 'network',
    code: tlsCode,
    message: (f) => tlsMessage(String(tlsCode(f)), f.host, f.e),
  },
  {
    match: ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'SocketError', 'ECONNABORTED'],
    kind: 'network',
    code: 'ECONNRESET',
    message: (f) =>
      f.phase === 'body'
        ? l10n.t('The connection to {0} was reset before the answer was complete.', f.host)
        : f.phase === 'headers'
          ? l10n.t('The connection to {0} was reset before it answered.', f.host)
          : l10n.t('The connection to {0} was reset while connecting.', f.host),
  },
];

/**
 * The error for a failure below HTTP: "Could not connect to https://host: connection refused". `timeoutMs`
 * is the limit that applied in `phase`. The first rule of FAILURE_RULES that matches names it; anything else is
 * "Could not talk to …" with the error's own message.
 */
export function networkError(
  e: unknown,
  host: string,
  phase: Phase,
  redact?: (t: string) => string,
  timeoutMs?: number,
  proxy?: string,
): ServiceError {
  if (e instanceof ServiceError) {
    return e;
  }
  const base = { host, redact, cause: e };
  const proxyFailure = proxy === undefined ? undefined : proxyError(e, host, proxy, base);
  if (proxyFailure) {
    return proxyFailure;
  }
  const codes = codesOf(e);
  const target = proxy === undefined ? host : l10n.t('the proxy {0}', proxy);
  const failure: Failure = { e, codes, host, target, phase, timeoutMs };
  const rule = FAILURE_RULES.find(({ match }) =>
    typeof match === 'function' ? match(failure) : codes.some((c) => match.includes(c)),
  );
  if (rule) {
    const code = typeof rule.code === 'function' ? rule.code(failure) : rule.code;
    return new ServiceError({ ...base, kind: rule.kind, code, message: rule.message(failure) });
  }
  const msg = typeof (e as ErrorLike)?.message === 'string' ? String((e as ErrorLike).message) : String(e);
  return new ServiceError({
    ...base,
    kind: 'network',
    code: codes.find((c) => /^[A-Z_]+$/.test(c)),
    message: l10n.t('Could not talk to {0}: {1}', host, msg.slice(0, 300)),
  });
}

/** Whether a network failure is a reset (worth one more try for an idempotent request). */
export function isReset(e: ServiceError): boolean {
  return e.kind === 'network' && e.code === 'ECONNRESET';
}
