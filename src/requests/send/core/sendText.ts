/**
 * Which text of a payload editor is sent (and exported as cURL). Pure; no `vscode` import.
 *
 * The selection is sent only when it is itself a complete JSON object or array — e.g. one of several
 * payloads kept in one file. Anything else that is selected (the prompt placeholder *New Request…* selects,
 * part of a value, a lone string or number) is not a request body: the whole payload is sent instead.
 */
import { parsePayload } from '../../../domain/payload/parse';

export interface TextToSend {
  text: string;
  /** Offset of `text` in the document, to place a diagnostic on the right character. */
  offset: number;
  fromSelection: boolean;
}

/** `selection` is a pair of document offsets; an empty or missing selection sends the whole document. */
export function textToSend(documentText: string, selection?: { start: number; end: number }): TextToSend {
  if (selection && selection.end > selection.start) {
    const selected = documentText.slice(selection.start, selection.end);
    if (isJsonObjectOrArray(selected)) {
      return { text: selected, offset: selection.start, fromSelection: true };
    }
  }
  return { text: documentText, offset: 0, fromSelection: false };
}

/** Whether `text` (comments and white space around it allowed) is exactly one JSON object or array. */
export function isJsonObjectOrArray(text: string): boolean {
  const parsed = parsePayload(text);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null;
}
