/**
 * Removing the API key from any text before it leaves the client (error messages, log entries, bodies a
 * server echoed back), and the extension's one holder of the secrets in use (`Redactor`). Pure; no
 * `vscode` import.
 */

export const REDACTED = '[redacted]';

/** Secrets shorter than this get no derived (base64, hex) forms: theirs would be too short to tell from text. */
const MIN_DERIVED = 6;

/** Forms found by a search for text, grouped under a probe every one of them contains (searched for first). */
interface FormGroup {
  probe: string;
  /** Longest first: a shorter form inside a longer one must not leave the longer one's ends behind. */
  forms: string[];
}

/**
 * The base64 forms of `bytes` (a secret's UTF-8), standard and URL-safe, at each of the three alignments it
 * can have inside a longer encoded text (`Basic base64(user:key)`, a JWT, a token carrying the key): for each,
 * the characters made of the secret's bits only (whatever surrounds it: the probe), and the same with its
 * last characters, with and without padding (the secret at the end of the encoded text).
 */
function base64Groups(bytes: Buffer): FormGroup[] {
  const groups: FormGroup[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const full = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Character j holds bits 6j…6j+5: it is the secret's alone from the first one past the prefix's bits up
    // to the last one before the secret ends.
    const first = Math.ceil((8 * offset) / 6);
    const inner = full.slice(first, Math.floor((8 * (offset + bytes.length)) / 6));
    const atEnd = full.slice(first);
    for (const alphabet of [(t: string) => t, (t: string) => t.replace(/\+/g, '-').replace(/\//g, '_')]) {
      groups.push({ probe: alphabet(inner), forms: [atEnd, atEnd.replace(/=+$/, ''), inner].map(alphabet) });
    }
  }
  return groups;
}

/**
 * The forms a secret takes when a server echoes it that a search for text finds: verbatim, URL-encoded, and
 * derived from its bytes — base64 (standard and URL-safe, each alignment, padded or not) and hex (either
 * case). Computed once per secret. Its JSON-escaped, HTML-entity and split echoes (`\"`, `&#115;`, a
 * zero-width or NUL character between two of its characters) are found by decoding the text
 * (`decodedOccurrences`), whatever was escaped.
 */
function formsOf(secret: string): FormGroup[] {
  const groups: FormGroup[] = [{ probe: secret, forms: [secret] }];
  try {
    const encoded = encodeURIComponent(secret);
    groups.push({ probe: encoded, forms: [encoded] });
  } catch {
    // Lone surrogates cannot be URL-encoded; the verbatim form is still removed.
  }
  if (secret.length >= MIN_DERIVED) {
    const bytes = Buffer.from(secret, 'utf8');
    const hex = bytes.toString('hex');
    groups.push({ probe: hex, forms: [hex] }, { probe: hex.toUpperCase(), forms: [hex.toUpperCase()] });
    groups.push(...base64Groups(bytes));
  }
  // One group per probe, its forms long enough to tell from text, the groups with the longest forms first.
  const byProbe = new Map<string, Set<string>>();
  for (const { probe, forms } of groups) {
    if (probe.length >= MIN_DERIVED || probe === secret) {
      const set = byProbe.get(probe) ?? new Set<string>();
      forms.forEach((f) => set.add(f));
      byProbe.set(probe, set);
    }
  }
  return [...byProbe]
    .map(([probe, forms]) => ({ probe, forms: [...forms].sort((x, y) => y.length - x.length) }))
    .sort((x, y) => y.forms[0].length - x.forms[0].length);
}

/**
 * Characters a service may slip between a secret's characters so that no search for it matches, while a
 * person (or a terminal, which drops NUL) still reads it: NUL and the zero-width ones.
 */
const SPLITTERS = '\u0000\u200B\u200C\u200D\uFEFF\u2060';

/**
 * Whether `text` holds one of {@link SPLITTERS}. One `includes` per character rather than a character class: V8
 * searches for one character with memchr, and for one that a one-byte (Latin-1) string cannot hold, such as the
 * zero-width ones, not at all; the class ran the regular-expression engine over every character of every page of
 * the model list (≈ 125 M instructions of a 100k-model list, the largest part of the list's cost over its floor).
 */
function hasSplitter(text: string): boolean {
  return (
    text.includes('\u0000') ||
    text.includes('\u200B') ||
    text.includes('\u200C') ||
    text.includes('\u200D') ||
    text.includes('\uFEFF') ||
    text.includes('\u2060')
  );
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

/**
 * An HTML character reference at `text[i]` (an `&`): numeric (`&#115;`, `&#x73;`, `;` optional) or one of the
 * five that escape markup (`&amp;`…); else undefined.
 */
const CHARACTER_REFERENCE = /&(?:#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));?|(amp|lt|gt|quot|apos);)/y;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function referenceAt(text: string, i: number): { unit: string; end: number } | undefined {
  CHARACTER_REFERENCE.lastIndex = i;
  const m = CHARACTER_REFERENCE.exec(text);
  if (!m) {
    return undefined;
  }
  if (m[3] !== undefined) {
    return { unit: NAMED[m[3]], end: i + m[0].length };
  }
  const code = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
  // One UTF-16 unit: what the matcher compares (a secret's characters beyond it are found verbatim).
  return code <= 0xffff ? { unit: String.fromCharCode(code), end: i + m[0].length } : undefined;
}

/** The unit that the text at `i` stands for once decoded (a JSON escape, an HTML reference, or itself). */
function unitAt(text: string, i: number): { unit: string; end: number } {
  const c = text[i];
  return (c === '\\' ? escapeAt(text, i) : c === '&' ? referenceAt(text, i) : undefined) ?? { unit: c, end: i + 1 };
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
 * Where `secret` occurs in `text` once decoded: JSON escapes (`sk\/a`, `\u0073k-…`: servers echo keys inside
 * JSON strings, and decoding them later must not bring the key back), HTML character references (`&#115;k`,
 * `&#x73;k`), and NUL or zero-width characters between its characters skipped (`s\u200Bk-…`), in any mix. One
 * pass over `text` with a Knuth–Morris–Pratt matcher over the decoded units, so any length of key costs linear
 * time; memory is the key's length (where each of the last units started).
 */
function decodedOccurrences(
  text: string,
  secret: string,
  table: Int32Array,
  skip: ReadonlySet<string>,
): [number, number][] {
  const m = secret.length;
  const starts = new Int32Array(m);
  const found: [number, number][] = [];
  let k = 0;
  let d = 0;
  for (let i = 0; i < text.length;) {
    const { unit, end: next } = unitAt(text, i);
    if (skip.has(unit) && k > 0) {
      // Between two of the key's characters: read past (before its first, the match has not started).
      i = next;
      continue;
    }
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
    d++;
  }
  return found;
}

/** Marks, among the units {@link hiddenUnits} finds, that the text holds a NUL or zero-width character. */
const SPLIT = 'split';

/**
 * The units that JSON escapes and HTML references in `text` stand for, and {@link SPLIT} when it holds a NUL
 * or zero-width character: one pass for all secrets. A secret none of whose characters is among them can only
 * be in the decoded text as a verbatim copy (which `includes` finds): an answer's `\n`s, `\"`s and `&#39;`s do
 * not make the client decode the whole body for each secret.
 */
function hiddenUnits(text: string): Set<string> {
  const units = new Set<string>();
  if (hasSplitter(text)) {
    units.add(SPLIT);
  }
  for (const [mark, decode] of [
    ['\\', escapeAt],
    ['&', referenceAt],
  ] as const) {
    for (let i = text.indexOf(mark); i >= 0;) {
      const decoded = decode(text, i);
      if (decoded) {
        units.add(decoded.unit);
      }
      i = text.indexOf(mark, decoded ? decoded.end : i + 1);
    }
  }
  return units;
}

/**
 * `text` with each of `ranges` replaced by one mark. The ranges are those of one {@link decodedOccurrences}
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

/** The quick test of each function {@link redactor} made: true when it would hand `text` back unchanged. */
const cleanTests = new WeakMap<(text: string) => string, (text: string) => boolean>();

/**
 * A function that removes every given secret from a string. Empty secrets are ignored; every other secret
 * is removed whatever its length (a short key makes messages uglier, never leakier).
 */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const groups = secrets.flatMap((s) => (s ? formsOf(s) : []));
  if (groups.length === 0) {
    const none = (text: string): string => text;
    cleanTests.set(none, () => true);
    return none;
  }
  const decoded = [...new Set(secrets.filter((s): s is string => Boolean(s)))].map((s) => {
    // A splitter that is one of the key's own characters is read as itself.
    const skip = new Set([...SPLITTERS].filter((c) => !s.includes(c)));
    return { secret: s, table: failureTable(s), skip, units: [...new Set([...s.split(''), ...skip])] };
  });
  const once = (text: string): string => {
    let out = text;
    // Escaped, referenced and split echoes first, each with its escapes (`\/b…` as a whole): removing the
    // verbatim `/b…` inside it first would leave a backslash before the mark, and the body would no longer be
    // JSON. Each of these needs a backslash, an `&` or a splitter: text without any has none.
    if (out.includes('\\') || out.includes('&') || hasSplitter(out)) {
      const hidden = hiddenUnits(out);
      for (const { secret, table, skip, units } of decoded) {
        const split = hidden.has(SPLIT) && skip.size > 0;
        if (split || out.includes(secret) || units.some((u) => hidden.has(u))) {
          out = replaceRanges(out, decodedOccurrences(out, secret, table, skip));
        }
      }
    }
    for (const { probe, forms } of groups) {
      if (!out.includes(probe)) {
        continue;
      }
      for (const form of forms) {
        if (out.includes(form)) {
          out = out.split(form).join(REDACTED);
        }
      }
    }
    return out;
  };
  const redact = (text: string): string => {
    let out = once(text);
    if (out === text) {
      // Nothing removed: another pass would read the same text again and find nothing either.
      return out;
    }
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
  // What `once` looks for first: without a backslash, an `&`, a splitter or any form's probe, it returns the text.
  cleanTests.set(
    redact,
    (text) =>
      !text.includes('\\') &&
      !text.includes('&') &&
      !hasSplitter(text) &&
      groups.every(({ probe }) => !text.includes(probe)),
  );
  return redact;
}

/**
 * True when `redact` (a function {@link redactor} made) certainly leaves `text` as it is; false when it might
 * change it, or is some other function. Every test it makes finds its target inside any longer text that
 * holds it, so one call on many texts joined together clears them all: a stream's events are cleared in one
 * call per chunk read rather than one per event, and only a chunk where a test fires redacts its events one
 * by one.
 */
export function certainlyUnchanged(redact: (text: string) => string, text: string): boolean {
  const test = cleanTests.get(redact);
  return test !== undefined && test(text);
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
