/**
 * A pasted curl command turned into a payload: the endpoint from its URL and the JSON body from its data
 * option. Only what a payload holds is kept; credentials are dropped and never repeated (not even in a note).
 * Pure; no `vscode` import; never throws.
 */
import type { PostEndpoint } from '../../../api/types';
import { ENDPOINTS, normalizeEndpoint } from '../../../domain/payload/endpointHeader';
import { shellWords } from './shellWords';
import { l10n } from '../../../common/plainL10n';

export type CurlImport =
  | {
      ok: true;
      endpoint: PostEndpoint;
      /** The body, pretty-printed. */
      json: string;
      /** What was left out and why, for the person to read (never a header's value). */
      notes: string[];
    }
  | { ok: false; message: string };

/** Options that take a value, and what to do with them. */
const DATA = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--json', '--data-urlencode']);
const HEADER = new Set(['-H', '--header']);
const METHOD = new Set(['-X', '--request']);
const FORM = new Set(['-F', '--form', '--form-string']);
const CREDENTIALS = new Set([
  '-u',
  '--user',
  '--oauth2-bearer',
  '--aws-sigv4',
  '-E',
  '--cert',
  '--key',
  '-b',
  '--cookie',
]);
/** Other options of curl that take a value; their values are skipped. */
const WITH_VALUE = new Set([
  '-o',
  '--output',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-w',
  '--write-out',
  '--retry',
  '--retry-delay',
  '--retry-max-time',
  '-x',
  '--proxy',
  '-U',
  '--proxy-user',
  '--cacert',
  '--capath',
  '-c',
  '--cookie-jar',
  '-T',
  '--upload-file',
  '-r',
  '--range',
  '-z',
  '--time-cond',
  '--limit-rate',
  '--max-filesize',
  '--resolve',
  '--connect-to',
  '--interface',
  '-K',
  '--config',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '-D',
  '--dump-header',
  '--noproxy',
  '--proxy-header',
  '--variable',
  '--expand-data',
  '--url-query',
]);
/** Short options taking a value, for bundles like `-sSXPOST`. */
const SHORT_WITH_VALUE = new Set([
  'd',
  'H',
  'X',
  'F',
  'u',
  'b',
  'E',
  'o',
  'm',
  'A',
  'e',
  'w',
  'x',
  'U',
  'c',
  'T',
  'r',
  'z',
  'K',
  'D',
]);
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|x-api-key|api-key|cookie|ocp-apim-subscription-key)$/i;
const ENDPOINT_LIST = ENDPOINTS.map((e) => e.path).join(', ');

/** `configuredRoot`: the configured service's origin and prefix (`https://host/api`), to recognise its URLs. */
export function importCurl(text: string, configuredRoot?: string): CurlImport {
  try {
    return parse(text, configuredRoot);
  } catch {
    return {
      ok: false,
      message: l10n.t('This curl command could not be read; paste one command that starts with curl.'),
    };
  }
}

function parse(text: string, configuredRoot: string | undefined): CurlImport {
  const { words, unterminated } = shellWords(text.replace(/^\s*\$\s+/, ''));
  if (unterminated) {
    return { ok: false, message: l10n.t('A quote is not closed in this command; paste the whole curl command.') };
  }
  const start = words.findIndex((w) => /^curl(\.exe)?$/i.test(w));
  if (start < 0) {
    return { ok: false, message: l10n.t('This is not a curl command: it should start with curl.') };
  }
  const notes: string[] = [];
  const data: string[] = [];
  const urls: string[] = [];
  let method: string | undefined;
  let json = false;
  const take = (option: string, value: string | undefined): CurlImport | undefined => {
    if (value === undefined) {
      return { ok: false, message: l10n.t('The option {0} has no value.', option) };
    }
    if (DATA.has(option)) {
      if (value.startsWith('@') && option !== '--data-raw') {
        return {
          ok: false,
          message: l10n.t(
            'The body is read from a file ({0} @…); paste a command with the JSON itself, or open the file and add a // POST line.',
            option,
          ),
        };
      }
      json ||= option === '--json';
      data.push(value);
    } else if (HEADER.has(option)) {
      // The name only, never the value: a header written without `Name:` is named only when its first word is
      // a known credential header (`Authorization Bearer sk-…`); otherwise nothing of it is repeated.
      const named = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:/.exec(value)?.[1];
      const firstWord = /^\s*([^\s:]+)/.exec(value)?.[1] ?? '';
      const name = named ?? (CREDENTIAL_HEADERS.test(firstWord) ? firstWord : undefined);
      if (name === undefined) {
        if (value.trim() !== '' && !/^\s*:/.test(value)) {
          notes.push(l10n.t('A header that is not written as "Name: value" was left out; it is not repeated here.'));
        }
      } else if (CREDENTIAL_HEADERS.test(name)) {
        notes.push(l10n.t('The {0} header was dropped: the extension sends your stored API key itself.', name));
      } else if (!/^(content-type|accept)$/i.test(name)) {
        notes.push(l10n.t('The {0} header was left out: a payload holds only the JSON body.', name));
      }
    } else if (METHOD.has(option)) {
      method = value.toUpperCase();
    } else if (FORM.has(option)) {
      return {
        ok: false,
        message: l10n.t('This command uploads a form (-F): use Model Access: Upload File to /v1/files for uploads.'),
      };
    } else if (CREDENTIALS.has(option)) {
      notes.push(l10n.t('The {0} option was dropped: the extension sends your stored API key itself.', option));
    } else if (option === '--url') {
      urls.push(value);
    }
    return undefined;
  };
  for (let i = start + 1; i < words.length; i++) {
    const w = words[i];
    if (w.trim() === '') {
      continue;
    }
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const [option, inline] = eq > 0 ? [w.slice(0, eq), w.slice(eq + 1)] : [w, undefined];
      const known = [DATA, HEADER, METHOD, FORM, CREDENTIALS].some((s) => s.has(option)) || option === '--url';
      if (option === '--get') {
        method = 'GET';
      } else if (known || WITH_VALUE.has(option)) {
        const value = inline ?? words[++i];
        const failed = take(option, value);
        if (failed) {
          return failed;
        }
      }
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      for (let j = 1; j < w.length; j++) {
        const letter = w[j];
        if (letter === 'G') {
          method = 'GET';
        } else if (SHORT_WITH_VALUE.has(letter)) {
          const rest = w.slice(j + 1);
          const failed = take(`-${letter}`, rest !== '' ? rest : words[++i]);
          if (failed) {
            return failed;
          }
          break;
        }
      }
      continue;
    }
    urls.push(w);
  }
  if (urls.length === 0) {
    return { ok: false, message: l10n.t('This curl command has no URL.') };
  }
  if (urls.length > 1) {
    return { ok: false, message: l10n.t('This curl command has more than one URL; import one request at a time.') };
  }
  const effectiveMethod = method ?? (data.length ? 'POST' : 'GET');
  const path = endpointPath(urls[0], configuredRoot, notes);
  if (effectiveMethod !== 'POST') {
    return {
      ok: false,
      message: l10n.t(
        'This command is {0} {1}; a payload is sent with POST to one of {2}.',
        effectiveMethod,
        path ?? l10n.t('a URL without /v1/'),
        ENDPOINT_LIST,
      ),
    };
  }
  if (path === '/v1/files') {
    return {
      ok: false,
      message: l10n.t('Uploads to /v1/files are multipart: use Model Access: Upload File to /v1/files.'),
    };
  }
  const endpoint = ENDPOINTS.find((e) => e.path === path)?.path;
  if (!endpoint) {
    return {
      ok: false,
      message: l10n.t(
        "POST {0} is not one of the service's endpoints for payloads ({1}).",
        path ?? l10n.t('a URL without /v1/'),
        ENDPOINT_LIST,
      ),
    };
  }
  if (data.length === 0) {
    return { ok: false, message: l10n.t('This curl command sends no body (-d, --data, --data-raw or --json).') };
  }
  // curl joins several data options with `&`; `--json` ones are joined as they are.
  const body = data.join(json ? '' : '&');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    return {
      ok: false,
      message: l10n.t('The body is not valid JSON ({0}).', e instanceof Error ? e.message : l10n.t('parse error')),
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: l10n.t('The body is JSON but not an object; the service expects a JSON object.') };
  }
  return { ok: true, endpoint, json: JSON.stringify(value, null, 2), notes };
}

/** The `/v1/…` path of `url`: after the configured root when it starts with it, else from its `/v1/` segment. */
function endpointPath(url: string, configuredRoot: string | undefined, notes: string[]): string | undefined {
  const root = configuredRoot?.replace(/\/+$/, '');
  let rest: string | undefined;
  if (root && url.toLowerCase().startsWith(`${root.toLowerCase()}/`)) {
    rest = url.slice(root.length);
  } else {
    const at = url.search(/\/v1(\/|$|\?)/i);
    if (at < 0) {
      return undefined;
    }
    rest = url.slice(at);
    const before = url.slice(0, at);
    if (/^https?:\/\//i.test(before) && root && before.toLowerCase() !== root.toLowerCase()) {
      notes.push(l10n.t('The command named another server; the payload is sent to the service you configured.'));
    }
  }
  const query = rest.search(/[?#]/);
  if (query >= 0) {
    notes.push(l10n.t('The query string of the URL was left out.'));
    rest = rest.slice(0, query);
  }
  return normalizeEndpoint(rest);
}
