/** Reading untyped JSON (registry entries, error bodies, stream events) without trusting its shape. */

/** A JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `v` when it is a JSON object, else undefined (for optional chaining through untrusted JSON). */
export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

/** A string with something in it besides white space, trimmed; anything else is undefined. */
export function nonBlank(v: unknown): string | undefined {
  if (typeof v !== 'string') {
    return undefined;
  }
  const t = v.trim();
  return t === '' ? undefined : t;
}
