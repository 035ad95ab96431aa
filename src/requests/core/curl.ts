/**
 * The request as a cURL command a person can paste into a POSIX shell (bash, zsh, dash; not cmd.exe or
 * PowerShell, whose quoting differs). The key is written as the environment variable
 * `$MODEL_ACCESS_API_KEY`, never its value. Pure; no `vscode` import.
 */

/** Where the command sends the request: a literal URL, or `$VARIABLE` + a path when no service is configured. */
export type CurlTarget = { url: string } | { baseUrlVariable: string; path: string };

/** POSIX shell single-quoting: safe for any byte except NUL. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function target(t: CurlTarget): string {
  if ('url' in t) {
    return shellQuote(t.url);
  }
  // Double quotes expand the variable; the path stays single-quoted.
  return `"$${t.baseUrlVariable.replace(/[^A-Za-z0-9_]/g, '')}"${shellQuote(t.path)}`;
}

export function curlCommand(to: CurlTarget, jsonBody: string, options: { stream?: boolean } = {}): string {
  return [
    '# POSIX shell (bash, zsh). Set MODEL_ACCESS_API_KEY first; the key is not written here.',
    [
      `curl ${options.stream ? '-N ' : ''}-sS -X POST ${target(to)}`,
      `  -H "Authorization: Bearer $MODEL_ACCESS_API_KEY"`,
      `  -H 'Content-Type: application/json'`,
      `  --data-binary ${shellQuote(jsonBody)}`,
    ].join(' \\\n'),
  ].join('\n');
}
