/**
 * What one call to the service carries (the key, the secret headers, a redactor for both, the signal) and the
 * checks made before any request: the key can be read, is set, and can be sent in an HTTP header.
 */
import { ServiceError } from './errors';
import { redactor } from './redact';
import { l10n } from '../common/plainL10n';

export interface Call {
  key: string;
  /** The secret headers' values (ServiceClientOptions.secretHeaders), read with the key. */
  secretHeaders?: Record<string, string>;
  redact: (text: string) => string;
  signal?: AbortSignal;
}

export interface CallSource {
  apiKey: () => Promise<string | undefined>;
  secretHeaders?: () => Promise<Record<string, string> | undefined>;
  /** The service origin, named in the messages. */
  origin: string | undefined;
}

/**
 * What a client reuses from one call to the next. A checks run over a dataset makes thousands of small calls
 * with one key and one cancel signal: building the key's redactor and combining the caller's signal with the
 * client's own (`AbortSignal.any`, whose dependents a long-lived signal keeps) once, not per call.
 */
export class CallReuse {
  private last: { secrets: readonly string[]; redact: (text: string) => string } | undefined;
  private readonly combined = new WeakMap<AbortSignal, AbortSignal>();

  /** `cut`: the client's own signal, fired when it closes. */
  constructor(readonly cut: AbortSignal) {}

  /** The last call's redactor while the secrets are the same ones, else a new one. */
  redactorFor(secrets: readonly string[]): (text: string) => string {
    const last = this.last;
    if (last && last.secrets.length === secrets.length && last.secrets.every((s, i) => s === secrets[i])) {
      return last.redact;
    }
    this.last = { secrets, redact: redactor(secrets) };
    return this.last.redact;
  }

  signalFor(signal: AbortSignal | undefined): AbortSignal {
    if (!signal) {
      return this.cut;
    }
    let both = this.combined.get(signal);
    if (!both) {
      both = AbortSignal.any([signal, this.cut]);
      this.combined.set(signal, both);
    }
    return both;
  }
}

/** The shortest request secret (CallOptions.secrets) a call removes from what it hands back. */
export const MIN_CALL_SECRET = 6;

/**
 * Reads the key and secret headers; throws `config` (or `aborted`) ServiceErrors before anything is sent.
 * `secrets`: what the request carries besides them (CallOptions.secrets), redacted as they are.
 */
export async function openCall(
  source: CallSource,
  signal: AbortSignal | undefined,
  reuse: CallReuse,
  secrets: readonly string[] = [],
): Promise<Call> {
  const host = source.origin;
  let key: string | undefined;
  try {
    key = (await source.apiKey())?.trim();
  } catch {
    throw new ServiceError({ kind: 'config', message: l10n.t('The API key could not be read from storage.'), host });
  }
  if (!key) {
    throw new ServiceError({ kind: 'config', message: l10n.t('No API key is set for {0}.', String(host)), host });
  }
  // Printable ASCII only: anything else cannot go in a header, and undici would throw a TypeError mid-request.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ServiceError({
      kind: 'config',
      message: l10n.t(
        'The API key contains spaces, line breaks or non-ASCII characters, which cannot be sent in an HTTP header. Set the key again.',
      ),
      host,
    });
  }
  let secretHeaders: Record<string, string> | undefined;
  try {
    secretHeaders = await source.secretHeaders?.();
  } catch (e) {
    throw e instanceof ServiceError
      ? e
      : new ServiceError({
          kind: 'config',
          message: l10n.t('A secret header could not be read from storage.'),
          host,
        });
  }
  if (signal?.aborted) {
    throw new ServiceError({ kind: 'aborted', message: l10n.t('The request was cancelled.'), host });
  }
  return {
    key,
    secretHeaders,
    redact: reuse.redactorFor([
      key,
      ...Object.values(secretHeaders ?? {}),
      ...secrets.filter((s) => s.length >= MIN_CALL_SECRET),
    ]),
    signal: reuse.signalFor(signal),
  };
}
