/**
 * `provideTokenCount`: an honest estimate, not the model's tokenizer (the service does not expose one).
 * About 4 characters per token, the usual rule of thumb for English text and code with BPE tokenizers;
 * VS Code uses the count to budget prompts, so it rounds up and adds a little per message for the role
 * and framing. Pure: no `vscode` import.
 */
import { classifyPart, type RequestMessageLike } from './chatRequest';

export const CHARS_PER_TOKEN = 4;
/** Role, separators and framing that every message costs on top of its text. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Tokens for a piece of text: ⌈characters / 4⌉ (code points, so emoji are not counted twice). */
export function estimateTextTokens(text: string): number {
  if (text === '') {
    return 0;
  }
  let chars = 0;
  for (const _ of text) {
    chars++;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Tokens for one message: its text, tool calls (name + JSON arguments), tool results, plus the overhead. */
export function estimateMessageTokens(message: RequestMessageLike): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  if (message.name) {
    total += estimateTextTokens(message.name);
  }
  for (const raw of message.content) {
    const part = classifyPart(raw);
    switch (part.kind) {
      case 'text':
        total += estimateTextTokens(part.text);
        break;
      case 'toolCall':
        total += estimateTextTokens(part.name) + estimateTextTokens(JSON.stringify(part.input ?? {}) ?? '');
        break;
      case 'toolResult':
        total += estimateTextTokens(part.text);
        break;
      case 'data':
        // Images are priced by the model, not by their bytes; a fixed figure keeps budgets sane.
        total += /^image\//i.test(part.mimeType) ? 765 : Math.ceil(part.data.byteLength / CHARS_PER_TOKEN);
        break;
      default:
        break;
    }
  }
  return total;
}

/** What `provideTokenCount` returns for a string or a message. */
export function estimateTokens(input: string | RequestMessageLike): number {
  return typeof input === 'string' ? estimateTextTokens(input) : estimateMessageTokens(input);
}
