/**
 * Reading a payload as JSON-with-comments (the endpoint header is a comment), with the position of the
 * first problem for a diagnostic. Pure; no `vscode` import.
 */
import { parse, printParseErrorCode, stripComments, type ParseError } from 'jsonc-parser';
import { l10n } from '../../common/plainL10n';

export interface PayloadProblem {
  message: string;
  offset: number;
  length: number;
  /** 1-based, for messages. */
  line: number;
  column: number;
}

export type PayloadResult = { ok: true; value: unknown; json: string } | { ok: false; problem: PayloadProblem };

/** Read when a payload is checked: the display language's bundle is loaded after this module. */
const READABLE: Record<string, () => string> = {
  InvalidSymbol: () => l10n.t('unexpected character'),
  InvalidNumberFormat: () => l10n.t('invalid number'),
  PropertyNameExpected: () => l10n.t('a property name in double quotes is expected'),
  ValueExpected: () => l10n.t('a value is expected'),
  ColonExpected: () => l10n.t('a colon is expected'),
  CommaExpected: () => l10n.t('a comma is expected'),
  CloseBraceExpected: () => l10n.t('a closing } is expected'),
  CloseBracketExpected: () => l10n.t('a closing ] is expected'),
  EndOfFileExpected: () => l10n.t('nothing more is expected after the value'),
  InvalidCommentToken: () => l10n.t('invalid comment'),
  UnexpectedEndOfComment: () => l10n.t('unterminated comment'),
  UnexpectedEndOfString: () => l10n.t('unterminated string'),
  UnexpectedEndOfNumber: () => l10n.t('unterminated number'),
  InvalidUnicode: () => l10n.t('invalid unicode escape'),
  InvalidEscapeCharacter: () => l10n.t('invalid escape character'),
  InvalidCharacter: () => l10n.t('invalid character in a string'),
};

/** Parses the payload; comments are allowed, trailing commas are not (the server would not accept them). */
export function parsePayload(text: string): PayloadResult {
  if (stripComments(text).trim() === '') {
    const { line, column } = positionOf(text, text.length);
    return {
      ok: false,
      problem: {
        message: l10n.t('the payload is empty: write a JSON value'),
        offset: text.length,
        length: 0,
        line,
        column,
      },
    };
  }
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    const { line, column } = positionOf(text, e.offset);
    const code = printParseErrorCode(e.error);
    return {
      ok: false,
      problem: { message: READABLE[code]?.() ?? code, offset: e.offset, length: Math.max(1, e.length), line, column },
    };
  }
  return { ok: true, value, json: JSON.stringify(value) };
}

export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The `model` property of a payload object, if it is a string. */
export function payloadModel(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const m = (value as Record<string, unknown>).model;
    return typeof m === 'string' ? m : undefined;
  }
  return undefined;
}

/** Whether the payload asks for a streamed answer. */
export function wantsStream(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).stream === true;
}
