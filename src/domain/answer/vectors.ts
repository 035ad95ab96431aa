/** Embedding vectors: `data[].embedding` as numbers or base64 little-endian float32. Pure. */
import { isRecord } from './fields';

/** A base64 float32 vector (`encoding_format: "base64"`) as numbers; undefined when it is not one. */
export function decodeBase64Vector(text: string): number[] | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    return undefined;
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) {
    return undefined;
  }
  const out: number[] = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) {
    out[i] = bytes.readFloatLE(i * 4);
  }
  return out;
}

function vectorOf(embedding: unknown): number[] | undefined {
  if (Array.isArray(embedding)) {
    return embedding.every((n) => typeof n === 'number') ? (embedding as number[]) : undefined;
  }
  return typeof embedding === 'string' ? decodeBase64Vector(embedding) : undefined;
}

/**
 * The vectors of an embeddings answer (`{data: [{index, embedding}]}`), sorted by `index` where given;
 * undefined when `data` is not a list of embeddings (an empty `data` is an embeddings answer with none).
 */
export function readVectors(body: Record<string, unknown>): number[][] | undefined {
  if (!Array.isArray(body.data)) {
    return undefined;
  }
  const entries: { index: number; vector: number[] }[] = [];
  for (const [position, item] of body.data.entries()) {
    const vector = isRecord(item) ? vectorOf(item.embedding) : undefined;
    if (!vector || !isRecord(item)) {
      return undefined;
    }
    entries.push({ index: typeof item.index === 'number' ? item.index : position, vector });
  }
  return entries.sort((a, b) => a.index - b.index).map((e) => e.vector);
}
