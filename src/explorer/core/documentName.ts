import { displayText } from '../../common/text';

/**
 * The name of a document about one model (Inspect Model's JSON, a Model Card preview), without its extension:
 * the id, and ` · <environment>` when a row under that environment's root asked, so the same id in two
 * environments is two tabs. One line of display text, path separators replaced (the name is one path segment);
 * `fallback` for an id with nothing printable.
 */
export function modelDocumentName(id: string, environment: string | undefined, fallback: string, max = 120): string {
  const part = (text: string, n: number) => displayText(text, n).replace(/[/\\]/g, '∕');
  const where = environment === undefined ? '' : ` · ${part(environment, 40)}`;
  return `${part(id, max) || fallback}${where}`;
}

/** The query of such a document: the id, and the environment when one was named. */
export function modelDocumentQuery(id: string, environment: string | undefined): string {
  return new URLSearchParams(environment === undefined ? { id } : { id, environment }).toString();
}
