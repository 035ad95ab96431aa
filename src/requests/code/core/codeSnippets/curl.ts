/**
 * The request as a curl command for bash, PowerShell or cmd.exe. Each reads the key from the environment
 * variable `MODEL_ACCESS_API_KEY` and sends the same JSON value as the payload. Pure; no `vscode` import.
 */
import {
  asciiJson,
  cmdQuote,
  isCmdSafe,
  isPowerShellArgumentSafe,
  cmdSafeJson,
  crtQuoteJson,
  posixQuote,
  powershellQuote,
} from './quoting';
import { BASE_URL_VARIABLE, KEY_VARIABLE, isStreaming, openingComments, type SnippetRequest } from './request';
import { l10n } from '../../../../common/plainL10n';
import { oneLine } from '../../../../common/text';

export function curlBash(request: SnippetRequest): string {
  const url = request.serviceRoot
    ? posixQuote(`${request.serviceRoot}${request.endpoint}`)
    : `"$${BASE_URL_VARIABLE}"${posixQuote(request.endpoint)}`;
  return [
    ...openingComments('#', request, l10n.t('bash, zsh (POSIX shell).'), KEY_VARIABLE, `$${BASE_URL_VARIABLE}`),
    [
      `curl ${isStreaming(request) ? '-N ' : ''}-sS -X POST ${url}`,
      `  -H "Authorization: Bearer $${KEY_VARIABLE}"`,
      `  -H 'Content-Type: application/json'`,
      ...(request.headers ?? []).map(
        (h) =>
          `  -H ${'variable' in h ? `${posixQuote(`${h.name}: `)}"$${h.variable}"` : posixQuote(`${h.name}: ${h.value}`)}`,
      ),
      `  --data-binary ${posixQuote(JSON.stringify(request.body))}`,
    ].join(' \\\n'),
  ].join('\n');
}

/**
 * PowerShell 5.1 and 7. The body is piped to curl.exe's standard input: Windows PowerShell 5.1 strips the
 * double quotes of JSON passed as a native argument, and pipes text as ASCII, hence the `\u` escapes. A header
 * or service URL that PowerShell 5.1 would not pass to curl.exe as one unchanged argument (see
 * {@link isPowerShellArgumentSafe}) is left out with a comment, or read from `$env:MODEL_ACCESS_BASE_URL`.
 */
export function curlPowerShell(request: SnippetRequest): string {
  const literal = request.serviceRoot ? `${request.serviceRoot}${request.endpoint}` : undefined;
  const literalUrl = literal !== undefined && isPowerShellArgumentSafe(literal) ? powershellQuote(literal) : undefined;
  const url = literalUrl ?? `"$env:${BASE_URL_VARIABLE}${request.endpoint}"`;
  const headers = (request.headers ?? []).map((h) => ({
    name: h.name,
    arg:
      'variable' in h
        ? isPowerShellArgumentSafe(`${h.name}: `)
          ? `(${powershellQuote(`${h.name}: `)} + $env:${h.variable})`
          : undefined
        : isPowerShellArgumentSafe(`${h.name}: ${h.value}`)
          ? powershellQuote(`${h.name}: ${h.value}`)
          : undefined,
  }));
  return [
    `# ${oneLine(l10n.t('PowerShell (Windows PowerShell 5.1 or PowerShell 7; on macOS and Linux write curl for curl.exe).'))}`,
    ...openingComments('#', request, '', `$env:${KEY_VARIABLE}`, `$env:${BASE_URL_VARIABLE}`, (v) => `$env:${v}`),
    ...(literalUrl || !request.serviceRoot
      ? []
      : [
          `# ${oneLine(l10n.t('This service URL holds characters PowerShell would not pass to curl.exe unchanged: set {0} to it first.', `$env:${BASE_URL_VARIABLE}`))}`,
        ]),
    ...headers
      .filter((h) => h.arg === undefined)
      .map(
        (h) =>
          `# ${oneLine(l10n.t('The header {0} holds characters PowerShell would not pass to curl.exe unchanged: it is left out; add it by hand.', h.name))}`,
      ),
    `$body = ${powershellQuote(asciiJson(request.body))}`,
    [
      `$body | curl.exe ${isStreaming(request) ? '-N ' : ''}-sS -X POST ${url}`,
      `  -H "Authorization: Bearer $env:${KEY_VARIABLE}"`,
      `  -H 'Content-Type: application/json'`,
      ...headers.flatMap((h) => (h.arg === undefined ? [] : [`  -H ${h.arg}`])),
      `  --data-binary '@-'`,
    ].join(' `\n'),
  ].join('\n');
}

/**
 * cmd.exe. Its `%`, `!`, `^` and quote rules cannot carry every string, so the JSON spells each risky
 * character as a `\u` escape, and a service URL with such a character is read from `%MODEL_ACCESS_BASE_URL%`.
 */
export function curlCmd(request: SnippetRequest): string {
  const literalUrl = request.serviceRoot ? cmdQuote(`${request.serviceRoot}${request.endpoint}`) : undefined;
  const url = literalUrl ?? `"%${BASE_URL_VARIABLE}%${request.endpoint}"`;
  const headers = (request.headers ?? []).map((h) => ({
    name: h.name,
    arg:
      'variable' in h
        ? isCmdSafe(h.name)
          ? `"${h.name}: %${h.variable}%"`
          : undefined
        : cmdQuote(`${h.name}: ${h.value}`),
  }));
  return [
    ...openingComments('REM', request, l10n.t('cmd.exe.'), KEY_VARIABLE, BASE_URL_VARIABLE),
    ...(literalUrl || !request.serviceRoot
      ? []
      : [
          `REM ${oneLine(l10n.t('This service URL holds characters cmd.exe would change: set {0} to it first.', BASE_URL_VARIABLE))}`,
        ]),
    ...headers
      .filter((h) => h.arg === undefined)
      .map(
        (h) =>
          `REM ${oneLine(l10n.t('The header {0} holds characters cmd.exe would change: it is left out; add it by hand.', h.name))}`,
      ),
    [
      `curl.exe ${isStreaming(request) ? '-N ' : ''}-sS -X POST ${url}`,
      `  -H "Authorization: Bearer %${KEY_VARIABLE}%"`,
      `  -H "Content-Type: application/json"`,
      ...headers.flatMap((h) => (h.arg === undefined ? [] : [`  -H ${h.arg}`])),
      `  --data-binary ${crtQuoteJson(cmdSafeJson(request.body))}`,
    ].join(' ^\n'),
  ].join('\n');
}
