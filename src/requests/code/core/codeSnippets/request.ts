/**
 * What a code snippet is made from: the service, the endpoint and the JSON value sent. Pure; no `vscode` import.
 */
import type { PostEndpoint } from '../../../../api/types';
import { l10n } from '../../../../common/plainL10n';
import { oneLine } from '../../../../common/text';

/** The environment variable every snippet reads the API key from; its value is never written into a snippet. */
export const KEY_VARIABLE = 'MODEL_ACCESS_API_KEY';
/** Where a snippet reads the service URL from when none is configured (the extension reads it there too). */
export const BASE_URL_VARIABLE = 'MODEL_ACCESS_BASE_URL';

/**
 * An extra header of the environment the request goes to: its value written as it is, or (a secret header)
 * read from the environment variable `variable`, never written.
 */
export type SnippetHeader = { name: string; value: string } | { name: string; variable: string };

/** The environment variable a snippet reads a secret header's value from: `MODEL_ACCESS_HEADER_X_ORG_TOKEN`. */
export function secretHeaderVariable(name: string): string {
  return `MODEL_ACCESS_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/** The headers of an environment as a snippet writes them: plain ones with their value, secret ones by variable. */
export function snippetHeaders(
  headers: Readonly<Record<string, string>>,
  secretHeaders: readonly string[],
): SnippetHeader[] {
  return [
    ...Object.entries(headers).map(([name, value]) => ({ name, value })),
    ...secretHeaders.map((name) => ({ name, variable: secretHeaderVariable(name) })),
  ];
}

export interface SnippetRequest {
  /**
   * The service's root: origin and path prefix, without `/v1` or a trailing slash (`https://host/api`).
   * Undefined: the snippet reads it from `$MODEL_ACCESS_BASE_URL`.
   */
  serviceRoot?: string;
  endpoint: PostEndpoint;
  /** The JSON value sent (comments and the endpoint line already gone). */
  body: unknown;
  /** The environment's extra headers (none: only Authorization and Content-Type are sent). */
  headers?: readonly SnippetHeader[];
}

export function isStreaming(request: SnippetRequest): boolean {
  const b = request.body;
  return typeof b === 'object' && b !== null && (b as Record<string, unknown>).stream === true;
}

/** Whether `value` nests at least `limit` arrays/objects deep (iterative, so any depth is safe to ask about). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'object' && v !== null) {
      if (depth >= limit) {
        return true;
      }
      for (const child of Object.values(v)) {
        stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}

/** Snippets write values as their language's literals up to this depth; deeper ones are parsed from JSON text. */
const LITERAL_DEPTH = 32;

export function tooDeepForLiteral(value: unknown): boolean {
  return nestsDeeperThan(value, LITERAL_DEPTH);
}

/**
 * The comment lines a snippet opens with, in the display language: what it runs on, that the key is read from
 * `keyVariable` (never written), and where the service URL comes from when it is not written either. Each line
 * is one line of plain text whatever a translation holds, so it cannot end the comment.
 */
export function openingComments(
  prefix: string,
  request: SnippetRequest,
  runsOn: string,
  keyVariable: string,
  urlVariable: string,
  /** How the snippet's language names an environment variable (`$env:NAME` in PowerShell). */
  spell: (variable: string) => string = (variable) => variable,
): string[] {
  return [
    [runsOn, l10n.t('Set {0} first; the key is not written here.', keyVariable)].filter(Boolean).join(' '),
    ...(request.serviceRoot ? [] : [l10n.t('The service URL is read from {0}.', urlVariable)]),
    ...(request.headers ?? []).flatMap((h) =>
      'variable' in h
        ? [l10n.t('The secret header {0} is read from {1}; its value is not written here.', h.name, spell(h.variable))]
        : [],
    ),
  ].map((line) => `${prefix} ${oneLine(line)}`);
}
