/**
 * What the local service answers the checks' graders, and the test-only answer scripts their tests need.
 *
 * - A judge request (a chat POST whose `response_format` is the json_schema `model_access_verdict`) gets a
 *   verdict in the strict format: `{"verdict": "pass" | "fail", "reason": "…"}`. The local judge passes an
 *   answer that mentions every name of the criterion (its capitalized words after the first, and its quoted
 *   phrases), so a demo judge reads like a real one and a test knows the verdict in advance. Always on.
 * - `embeddings: 'words'`: vectors from the words of the text (each word hashed to a dimension), so two
 *   texts that share words are close and `similar` passes and fails where a person expects. Off by default
 *   (the demo's vectors are the hash of the whole text).
 * - `chatScript`: the text of each chat answer in turn (the graders' requests excepted): a service whose
 *   answers alternate, for repeats and flakiness.
 * - `judgeScript`: the text of each judge answer in turn, for a judge that answers in the wrong shape or refuses.
 */
import { createHash } from 'node:crypto';
import { promptText } from './generation';

export interface GradingOptions {
  embeddings?: 'words';
  chatScript?: readonly string[];
  judgeScript?: readonly string[];
}

export const VERDICT_SCHEMA_NAME = 'model_access_verdict';

export function isJudgeRequest(body: Record<string, unknown>): boolean {
  const format = body.response_format as { json_schema?: { name?: unknown } } | undefined;
  return format?.json_schema?.name === VERDICT_SCHEMA_NAME;
}

/** The criterion and the answer the judge prompt quotes between marker lines of three or more `"`. */
export function quotedParts(text: string): string[] {
  const parts: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (/^"{3,}$/.test(lines[i])) {
      const end = lines.indexOf(lines[i], i + 1);
      if (end < 0) {
        break;
      }
      parts.push(lines.slice(i + 1, end).join('\n'));
      i = end;
    }
  }
  return parts;
}

/** The names a criterion asks for: quoted phrases, and capitalized words but the first. */
export function criterionNames(criterion: string): string[] {
  const quoted = [...criterion.matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => m[1] ?? m[2]);
  const words = criterion
    .replace(/"[^"]*"|'[^']*'/g, ' ')
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w, i) => i > 0 && /^\p{Lu}/u.test(w));
  return [...new Set([...quoted, ...words])];
}

/** The local judge's verdict text for a judge request. */
export function localVerdict(body: Record<string, unknown>): string {
  const user = Array.isArray(body.messages) ? promptText(body.messages.slice(-1)) : '';
  const [criterion = '', answer = ''] = quotedParts(user);
  const names = criterionNames(criterion);
  if (names.length === 0) {
    return JSON.stringify({ verdict: 'fail', reason: 'The criterion names nothing this judge can look for.' });
  }
  const missing = names.filter((n) => !answer.toLowerCase().includes(n.toLowerCase()));
  return JSON.stringify(
    missing.length === 0
      ? { verdict: 'pass', reason: `The answer mentions ${names.join(', ')}.` }
      : { verdict: 'fail', reason: `The answer does not mention ${missing.join(', ')}.` },
  );
}

/** A vector of the text's words: each lower-cased word adds 1 to the dimension its hash picks; unit length. */
export function wordVector(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    v[createHash('sha256').update(word).digest().readUInt32BE(0) % dimensions]++;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

/** The answer scripts' state: which text comes next. */
export class GradingRuntime {
  private chat = 0;
  private judge = 0;
  constructor(readonly options: GradingOptions) {}

  /** The text of the next chat answer: a judge's verdict, a scripted answer, or undefined (the usual answer). */
  chatText(body: Record<string, unknown>): string | undefined {
    if (isJudgeRequest(body)) {
      const script = this.options.judgeScript;
      return script && script.length > 0 ? script[this.judge++ % script.length] : localVerdict(body);
    }
    const script = this.options.chatScript;
    return script && script.length > 0 ? script[this.chat++ % script.length] : undefined;
  }

  /** The vector of one input, or undefined for the usual one. */
  vector(input: string, dimensions: number, asked: boolean): number[] | undefined {
    // Words need room to stay apart: 256 dimensions unless the request asks for a number.
    return this.options.embeddings === 'words' ? wordVector(input, asked ? dimensions : 256) : undefined;
  }
}
