/**
 * Removes secrets from text before it is logged or shown. Pure, no `vscode` import.
 */

import { REDACTED, redactor } from './api/redact';

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
   * credential-looking patterns below would mangle ordinary text ("token budget", "key=value").
   */
  removeSecrets(text: string): string {
    return this.removeSecretsFn(text);
  }

  redact(text: string): string {
    let out = this.removeSecretsFn(text);
    for (const [re, replacement] of PATTERNS) {
      out = out.replace(re, replacement);
    }
    return out;
  }
}
