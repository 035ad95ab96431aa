/**
 * The request as a cURL command a person can paste into a shell. The key is written as the environment
 * variable `$MODEL_ACCESS_API_KEY`, never its value. Pure; no `vscode` import.
 */

/** POSIX shell single-quoting: safe for any byte except NUL. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(url: string, jsonBody: string, options: { stream?: boolean } = {}): string {
  return [
    `curl ${options.stream ? '-N ' : ''}-sS -X POST ${shellQuote(url)}`,
    `  -H "Authorization: Bearer $MODEL_ACCESS_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  --data-binary ${shellQuote(jsonBody)}`,
  ].join(' \\\n');
}
