/**
 * Removes secrets from text before it is logged or shown. Pure, no `vscode` import.
 */

export const REDACTED = '***';

const PATTERNS: [RegExp, string][] = [
  // Authorization headers in any echo of a request.
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Keys in query strings or key=value text.
  [/([?&;\s"'](?:api[_-]?key|apikey|key|token|access[_-]?token|secret|password)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  // JSON-ish "api_key": "..." pairs.
  [/("(?:api[_-]?key|apikey|token|access[_-]?token|secret|password|authorization)"\s*:\s*")[^"]*(")/gi, `$1${REDACTED}$2`],
];

/** Holds the secrets currently in use and scrubs them (and anything that looks like a credential) from text. */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret; very short strings are ignored (redacting them would shred ordinary text). */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 6) {
      this.secrets.add(secret);
      // The same secret as it would appear in a URL or inside a JSON string.
      this.secrets.add(encodeURIComponent(secret));
      this.secrets.add(JSON.stringify(secret).slice(1, -1));
    }
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is removed whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) {
        out = out.split(secret).join(REDACTED);
      }
    }
    for (const [re, replacement] of PATTERNS) {
      out = out.replace(re, replacement);
    }
    return out;
  }
}
