/**
 * Removing the API key from any text before it leaves the client (error messages, log entries, bodies a
 * server echoed back), and the extension's one holder of the secrets in use (`Redactor`). Pure; no
 * `vscode` import.
 */

export const REDACTED = '[redacted]';

/**
 * The plain forms a secret takes when a server echoes it: verbatim and URL-encoded. Its JSON-escaped echoes
 * (`\"`, `\/`, `\u0073`) are found by decoding the text (`escapedOccurrences`), whatever was escaped.
 */
function formsOf(secret: string): string[] {
  try {
    return [secret, encodeURIComponent(secret)];
  } catch {
    // Lone surrogates cannot be URL-encoded; the verbatim form is still removed.
    return [secret];
  }
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The JSON escape at `text[i]` (a backslash): the unit it stands for and where it ends, or undefined. */
function escapeAt(text: string, i: number): { unit: string; end: number } | undefined {
  const c = text[i + 1];
  if (c === 'u') {
    const hex = text.slice(i + 2, i + 6);
    return /^[0-9a-fA-F]{4}$/.test(hex) ? { unit: String.fromCharCode(parseInt(hex, 16)), end: i + 6 } : undefined;
  }
  const unit = c === undefined ? undefined : SHORT_ESCAPES[c];
  return unit === undefined ? undefined : { unit, end: i + 2 };
}

/** Knuth–Morris–Pratt failure table of `pattern` (UTF-16 units). */
function failureTable(pattern: string): Int32Array {
  const table = new Int32Array(pattern.length);
  for (let i = 1, k = 0; i < pattern.length; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) {
      k = table[k - 1];
    }
    if (pattern[i] === pattern[k]) {
      k++;
    }
    table[i] = k;
  }
  return table;
}

/**
 * Where `secret` occurs in `text` once JSON escapes are decoded (`sk\/a`, `\u0073k-…`): servers echo keys inside
 * JSON strings, and decoding them later must not bring the key back. One pass over `text` with a
 * Knuth–Morris–Pratt matcher over the decoded units, so any length of key costs linear time; memory is the
 * key's length (where each of the last units started).
 */
function escapedOccurrences(text: string, secret: string, table: Int32Array): [number, number][] {
  const m = secret.length;
  const starts = new Int32Array(m);
  const found: [number, number][] = [];
  let k = 0;
  let d = 0;
  for (let i = 0; i < text.length; d++) {
    const escape = text[i] === '\\' ? escapeAt(text, i) : undefined;
    const unit = escape ? escape.unit : text[i];
    const next = escape ? escape.end : i + 1;
    starts[d % m] = i;
    while (k > 0 && secret[k] !== unit) {
      k = table[k - 1];
    }
    if (secret[k] === unit) {
      k++;
    }
    if (k === m) {
      found.push([starts[(d - m + 1) % m], next]);
      k = 0;
    }
    i = next;
  }
  return found;
}

/**
 * Whether a JSON escape in `text` stands for one of `units`. Without one, every match of the secret in the
 * decoded text is made of literal characters, a verbatim copy (which `includes` finds): an answer's `\n`s
 * and `\"`s do not make the client decode the whole body for each secret.
 */
function escapesInto(text: string, units: ReadonlySet<string>): boolean {
  for (let i = text.indexOf('\\'); i >= 0;) {
    const escape = escapeAt(text, i);
    if (escape && units.has(escape.unit)) {
      return true;
    }
    i = text.indexOf('\\', escape ? escape.end : i + 1);
  }
  return false;
}

/**
 * `text` with each of `ranges` replaced by one mark. The ranges are those of one {@link escapedOccurrences}
 * scan: in order and apart (the matcher starts afresh after each occurrence), so they need no sorting or merging.
 */
function replaceRanges(text: string, ranges: [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [s, e] of ranges) {
    out += text.slice(at, s) + REDACTED;
    at = e;
  }
  return out + text.slice(at);
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
  const escaped = [...new Set(secrets.filter((s): s is string => Boolean(s)))].map((s) => ({
    secret: s,
    table: failureTable(s),
    units: new Set(s.split('')),
  }));
  const once = (text: string): string => {
    let out = text;
    // Escaped echoes first, each with its escapes (`\/b…` as a whole): removing the verbatim `/b…` inside it
    // first would leave a backslash before the mark, and the body would no longer be JSON. Every escaped form
    // has a backslash: text without one has none.
    if (out.includes('\\')) {
      for (const { secret, table, units } of escaped) {
        if (out.includes(secret) || escapesInto(out, units)) {
          out = replaceRanges(out, escapedOccurrences(out, secret, table));
        }
      }
    }
    for (const form of forms) {
      if (out.includes(form)) {
        out = out.split(form).join(REDACTED);
      }
    }
    return out;
  };
  return (text) => {
    let out = once(text);
    // A removal can change how the backslashes left around it read: a key ending in `\` before a key starting
    // with `/` was read as the escape `\/`, and once the second key is gone that backslash ends an escaped echo
    // of the first. Another pass finds it; a few passes at most (the mark itself may hold a short key's letters).
    for (let pass = 0; pass < 3 && out.includes('\\'); pass++) {
      const again = once(out);
      if (again === out) {
        break;
      }
      out = again;
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
