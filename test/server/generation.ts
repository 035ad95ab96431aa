/**
 * Deterministic "model output": the same model and input always give the same text and vectors, so tests
 * can assert exact results. Answers come from a small responder (responder.ts); embeddings are hashed word
 * features, so sentences about the same things are close.
 */
import { createHash } from 'node:crypto';
import { badRequest } from './http';
import { demoAnswer } from './responder';

/** The text of a Responses `input` or of Chat `messages`, whichever shape the caller used. */
export function promptText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    return value
      .map(promptText)
      .filter((s) => s !== '')
      .join('\n');
  }
  if (typeof value === 'object' && value !== null) {
    const v = value as { content?: unknown; text?: unknown };
    if (typeof v.text === 'string') {
      return v.text;
    }
    if (v.content !== undefined) {
      return promptText(v.content);
    }
  }
  return '';
}

/**
 * The question a request asks: the text of the last user message of Chat `messages` or of a Responses `input`
 * array (a string `input`, or an array of content parts without roles, is one user message). Earlier turns and
 * system text are context the demo does not answer.
 */
export function questionText(value: unknown): string {
  if (!Array.isArray(value) || !value.some((v) => typeof v === 'object' && v !== null && 'role' in v)) {
    return promptText(value);
  }
  for (let i = value.length - 1; i >= 0; i--) {
    const item = value[i] as { role?: unknown } | string;
    if (typeof item === 'string' || item?.role === 'user') {
      const text = promptText(item);
      if (text.trim() !== '') {
        return text;
      }
    }
  }
  return promptText(value);
}

/**
 * The demo model's answer (responder.ts) to a question (`questionText` of what was sent): a known fact or sum,
 * a paragraph when one is asked for, else a plain "this is a demo" quoting the question.
 */
export function generateText(model: string, question: string): string {
  return demoAnswer(model, question);
}

/** Splits text into word-sized deltas whose concatenation is exactly the text. */
export function deltas(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

/** A rough token count (4 characters per token), enough for plausible `usage` objects. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export interface EmbeddingRequest {
  inputs: string[];
  dimensions: number;
  base64: boolean;
}

/** Enough dimensions that unrelated sentences rarely share one; short enough to read in the Embeddings panel. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 64;

export function parseEmbeddingRequest(body: Record<string, unknown>): EmbeddingRequest {
  const { input, dimensions, encoding_format: format } = body;
  let inputs: string[];
  if (typeof input === 'string') {
    inputs = [input];
  } else if (Array.isArray(input) && input.length > 0 && input.every((i) => typeof i === 'string')) {
    inputs = input as string[];
  } else if (Array.isArray(input) && input.length > 0 && input.every((i) => typeof i === 'number')) {
    inputs = [JSON.stringify(input)];
  } else if (
    Array.isArray(input) &&
    input.length > 0 &&
    input.every((i) => Array.isArray(i) && i.every((t) => typeof t === 'number'))
  ) {
    inputs = input.map((i) => JSON.stringify(i));
  } else {
    throw badRequest(
      '"input" must be a string, a non-empty array of strings, or token arrays.',
      'invalid_input',
      'input',
    );
  }
  let dims = DEFAULT_EMBEDDING_DIMENSIONS;
  if (dimensions !== undefined) {
    if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) {
      throw badRequest('"dimensions" must be an integer between 1 and 4096.', 'invalid_dimensions', 'dimensions');
    }
    dims = dimensions;
  }
  if (format !== undefined && format !== 'float' && format !== 'base64') {
    throw badRequest('"encoding_format" must be "float" or "base64".', 'invalid_encoding_format', 'encoding_format');
  }
  return { inputs, dimensions: dims, base64: format === 'base64' };
}

/** Words that mean the same thing to the demo's embedding models (a tiny thesaurus, so paraphrases land close). */
const SAME_MEANING: Readonly<Record<string, string>> = {
  kitten: 'cat',
  kitty: 'cat',
  puppy: 'dog',
  hound: 'dog',
  rest: 'sit',
  sat: 'sit',
  seat: 'sit',
  lay: 'sit',
  lie: 'sit',
  rug: 'mat',
  carpet: 'mat',
  car: 'vehicle',
  automobile: 'vehicle',
  big: 'large',
  huge: 'large',
  small: 'little',
  tiny: 'little',
  happy: 'glad',
  joyful: 'glad',
  fast: 'quick',
  rapid: 'quick',
  buy: 'purchase',
  bought: 'purchase',
  begin: 'start',
  commence: 'start',
};

/** Words that say little about what a sentence is about: they count for less. */
const STOP_WORDS = new Set(
  'a an the on in of to and or is are was were be it its this that at by for with as'.split(' '),
);

/** A word lower-cased, a plural or tense ending dropped, synonyms folded together. */
function meaning(word: string): string {
  const base = SAME_MEANING[word] ?? word;
  const stem = base.length > 4 ? base.replace(/(ing|ed|es|s)$/, '') : base;
  return SAME_MEANING[stem] ?? stem;
}

/** Weighted features of a text: its words, its word pairs, and (faintly) the letters of each word in threes. */
function features(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (f: string, w: number) => out.set(f, (out.get(f) ?? 0) + w);
  const written = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const words = written.map(meaning);
  words.forEach((w, i) => {
    add(`w:${w}`, STOP_WORDS.has(w) ? 0.2 : 1);
    if (i > 0) {
      add(`p:${words[i - 1]} ${w}`, 0.5);
    }
    // The letters as written: "rested" and "rests" share some; "rested" and "sat" none.
    const padded = `^${written[i]}$`;
    for (let j = 0; j + 3 <= padded.length; j++) {
      add(`t:${padded.slice(j, j + 3)}`, 0.15);
    }
  });
  if (out.size === 0) {
    add(`raw:${text}`, 1);
  }
  return out;
}

/**
 * A unit-length vector: each feature of the input is hashed (with the model's id, so two models' vectors
 * differ) to a dimension and a sign. Sentences that share words or synonyms point the same way; unrelated ones
 * are near orthogonal. Stable across runs and platforms.
 */
export function embed(model: string, input: string, dimensions: number): number[] {
  const values = new Array<number>(dimensions).fill(0);
  for (const [feature, weight] of features(input)) {
    // Each feature touches two dimensions, so small vectors collide less.
    const digest = createHash('sha256').update(`${model}\n${feature}`).digest();
    for (let k = 0; k < 2; k++) {
      const index = digest.readUInt32BE(k * 4) % dimensions;
      values[index] += (digest[8 + k] & 1 ? 1 : -1) * weight;
    }
  }
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0));
  if (norm === 0) {
    values[0] = 1;
    return values;
  }
  return values.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

export function embeddingToBase64(vector: number[]): string {
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf.toString('base64');
}
