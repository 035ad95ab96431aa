/**
 * Deterministic "model output": the same model and input always give the same text and vectors, so tests
 * can assert exact results, and the text visibly derives from the input so a person trying the demo sees
 * their payload was read.
 */
import { createHash } from 'node:crypto';
import { badRequest } from './http';

const WORDS = [
  'models',
  'registry',
  'family',
  'version',
  'card',
  'answer',
  'careful',
  'signal',
  'river',
  'lantern',
  'quiet',
  'bright',
  'layer',
  'token',
  'stream',
  'vector',
  'measure',
  'harbor',
  'orbit',
  'meadow',
  'simple',
  'steady',
  'window',
  'garden',
  'compass',
  'north',
  'summit',
  'candle',
  'thread',
  'mirror',
  'echo',
  'pattern',
];

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

export function generateText(model: string, prompt: string): string {
  const digest = createHash('sha256').update(`${model}\n${prompt}`).digest();
  const count = 12 + (digest[0] % 12);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    words.push(WORDS[digest[(i + 1) % digest.length] % WORDS.length]);
  }
  const flat = prompt.replace(/\s+/g, ' ').trim();
  const snippet = flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
  const sentence = words.join(' ');
  return `You wrote ${[...prompt].length} characters: "${snippet}". ${sentence[0].toUpperCase()}${sentence.slice(1)}.`;
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

export const DEFAULT_EMBEDDING_DIMENSIONS = 16;

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

/** A unit-length vector derived from a hash of model and input: stable across runs and platforms. */
export function embed(model: string, input: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${model}\n${block}\n${input}`).digest();
    for (let i = 0; i + 2 <= digest.length && values.length < dimensions; i += 2) {
      values.push(digest.readUInt16BE(i) / 32767.5 - 1);
    }
  }
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0)) || 1;
  return values.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

export function embeddingToBase64(vector: number[]): string {
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf.toString('base64');
}
