/**
 * What a code snippet is made from: the service, the endpoint and the JSON value sent. Pure; no `vscode` import.
 */
import type { PostEndpoint } from '../../../api/types';
import { l10n } from '../../../common/plainL10n';
import { oneLine } from '../../../common/text';

/** The environment variable every snippet reads the API key from; its value is never written into a snippet. */
export const KEY_VARIABLE = 'MODEL_ACCESS_API_KEY';
/** Where a snippet reads the service URL from when none is configured (the extension reads it there too). */
export const BASE_URL_VARIABLE = 'MODEL_ACCESS_BASE_URL';

export interface SnippetRequest {
  /**
   * The service's root: origin and path prefix, without `/v1` or a trailing slash (`https://host/api`).
   * Undefined: the snippet reads it from `$MODEL_ACCESS_BASE_URL`.
   */
  serviceRoot?: string;
  endpoint: PostEndpoint;
  /** The JSON value sent (comments and the endpoint line already gone). */
  body: unknown;
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
): string[] {
  return [
    [runsOn, l10n.t('Set {0} first; the key is not written here.', keyVariable)].filter(Boolean).join(' '),
    ...(request.serviceRoot ? [] : [l10n.t('The service URL is read from {0}.', urlVariable)]),
  ].map((line) => `${prefix} ${oneLine(line)}`);
}
