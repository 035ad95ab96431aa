/**
 * Two texts as one replacement: what lies between their common start and common end. The panel's edits
 * are computed on the whole text (an answer and the next message written together); applying just the
 * stretch that differs keeps the rest of the file, its markers and the editor's cursor where they were.
 * Pure; no `vscode` import.
 */
import type { TextChange } from './edits';

/** The change that turns `before` into `after`, or undefined when they are the same. */
export function oneChange(before: string, after: string): TextChange | undefined {
  if (before === after) {
    return undefined;
  }
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) {
    start++;
  }
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) {
    end++;
  }
  return { offset: start, length: before.length - start - end, text: after.slice(start, after.length - end) };
}
