/** Small readers of untrusted answer JSON shared by the body and stream readers. Pure. */
import { isRecord } from '../../common/records';

export { isRecord };

/** A string, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A string with something besides white space in it, or undefined. */
export const filled = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** A string or a number as a string (ids and codes come as either). */
export const idLike = (v: unknown): string | undefined =>
  filled(v) ?? (typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

/** Tool-call arguments as JSON text: a string as given, an object written out (some services send objects). */
export function argumentsText(v: unknown): string {
  if (typeof v === 'string') {
    return v;
  }
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

/**
 * The text of a content value: a string, or a list of parts each with `text` (Chat content parts,
 * Responses `output_text`, Anthropic `text` blocks) or `refusal`. Undefined when it holds no text part.
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') {
    return content;
  }
  if (!Array.isArray(content)) {
    return undefined;
  }
  let found = false;
  let text = '';
  for (const part of content) {
    if (!isRecord(part)) {
      continue;
    }
    const piece = str(part.text) ?? str(part.refusal);
    if (piece !== undefined) {
      found = true;
      text += piece;
    }
  }
  return found ? text : undefined;
}
