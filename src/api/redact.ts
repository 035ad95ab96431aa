/**
 * Removing the API key from any text before it leaves the client (error messages, log entries, bodies a
 * server echoed back). Pure; no `vscode` import.
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

/**
 * A function that removes every given secret from a string. Empty secrets are ignored; every other secret
 * is removed whatever its length (a short key makes messages uglier, never leakier).
 */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = secrets.flatMap((s) => (s ? formsOf(s) : []));
  if (forms.length === 0) {
    return (text) => text;
  }
  return (text) => {
    let out = text;
    for (const form of forms) {
      if (out.includes(form)) {
        out = out.split(form).join(REDACTED);
      }
    }
    return out;
  };
}

/** `text` without `secret` (in any of its echoed forms). */
export function redact(text: string, secret: string | undefined): string {
  return redactor([secret])(text);
}
