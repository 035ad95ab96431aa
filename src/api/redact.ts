/**
 * Removing the API key from any text before it leaves the client (error messages, log entries, bodies a
 * server echoed back), and the extension's one holder of the secrets in use (`Redactor`). Pure; no
 * `vscode` import.
 */

export const REDACTED = '[redacted]';

/** The forms a secret takes when a server echoes it: verbatim, URL-encoded, JSON-escaped. */
function formsOf(secret: string): string[] {
  const forms = new Set<string>([secret]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // Lone surrogates cannot be URL-encoded; the verbatim form is still removed.
  }
  forms.add(JSON.stringify(secret).slice(1, -1));
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/** `c` as a regex fragment matching the character itself or any JSON escape of it (`\u00XX`, `\/`…). */
function escapedChar(c: string): string {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  const unicode = `\\\\u${[...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('')}`;
  const short: Record<string, string> = { '/': '\\\\/', '"': '\\\\"', '\\': '\\\\\\\\' };
  const literal = c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return `(?:${[literal, unicode, short[c]].filter(Boolean).join('|')})`;
}

/**
 * A pattern for a secret written with JSON escapes in any of its characters (`sk\/a`, `\u0073k-…`):
 * servers echo keys inside JSON strings, and decoding them later must not bring the key back.
 */
function escapedPattern(secret: string): RegExp | undefined {
  if (secret.length === 0 || secret.length > 512) {
    return undefined;
  }
  return new RegExp([...secret].map((c) => (c.length === 1 ? escapedChar(c) : c)).join(''), 'g');
}

/**
 * A function that removes every given secret from a string. Empty secrets are ignored; every other secret
 * is removed whatever its length (a short key makes messages uglier, never leakier).
 */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = secrets.flatMap((s) => (s ? formsOf(s) : []));
  if (forms.length === 0) {
    return (text) => text;
  }
  const patterns = secrets.flatMap((s) => (s ? [escapedPattern(s)].filter((p): p is RegExp => p !== undefined) : []));
  return (text) => {
    let out = text;
    for (const form of forms) {
      if (out.includes(form)) {
        out = out.split(form).join(REDACTED);
      }
    }
    // Every escaped form has a backslash: text without one is already clean.
    if (out.includes('\\')) {
      for (const re of patterns) {
        out = out.replace(re, REDACTED);
      }
    }
    return out;
  };
}

/** `text` without `secret` (in any of its echoed forms). */
export function redact(text: string, secret: string | undefined): string {
  return redactor([secret])(text);
}

const PATTERNS: [RegExp, string][] = [
  // Authorization headers in any echo of a request.
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Keys in query strings or key=value text.
  [/([?&;\s"'](?:api[_-]?key|apikey|key|token|access[_-]?token|secret|password)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  // JSON-ish "api_key": "..." pairs.
  [
    /("(?:api[_-]?key|apikey|token|access[_-]?token|secret|password|authorization)"\s*:\s*")[^"]*(")/gi,
    `$1${REDACTED}$2`,
  ],
];

/**
 * Holds the secrets currently in use and scrubs them — through the client's own redactor, in every form a
 * server may echo them — and anything else that looks like a credential from text.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private removeSecretsFn: (text: string) => string = (text) => text;

  /** Registers a secret; very short strings are ignored (redacting them would shred ordinary text). */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 6 && !this.secrets.has(secret)) {
      this.secrets.add(secret);
      this.removeSecretsFn = redactor([...this.secrets]);
    }
  }

  /**
   * Only the registered secrets, in every echoed form: for answers people read and save, where the
   * credential-looking patterns below would mangle ordinary text ("token budget", "key=value"). Bound, so
   * it can be handed on as a function.
   */
  readonly removeSecrets = (text: string): string => this.removeSecretsFn(text);

  /** The registered secrets and anything that looks like a credential: for logs and messages. Bound. */
  readonly redact = (text: string): string => {
    let out = this.removeSecretsFn(text);
    for (const [re, replacement] of PATTERNS) {
      out = out.replace(re, replacement);
    }
    return out;
  };
}
