/**
 * JSON for people to read, whatever the service sent. `JSON.stringify` recurses, and an answer nested
 * thousands of levels deep (20 KB of `[[[[…`) makes it throw a RangeError; those values are written by
 * an explicit-stack writer on one line instead. Pure; no `vscode` import.
 */

/** Deeper than this, the value is written compactly (no indentation) by the iterative writer. */
const MAX_PRETTY_DEPTH = 64;

export interface PrettyJson {
  text: string;
  /** True when the value was too deeply nested to indent and is written on one line. */
  flat: boolean;
}

export function prettyJson(value: unknown): PrettyJson {
  if (depthAtLeast(value, MAX_PRETTY_DEPTH)) {
    return { text: flatJson(value), flat: true };
  }
  try {
    return { text: JSON.stringify(value, null, 2) ?? 'null', flat: false };
  } catch {
    return { text: flatJson(value), flat: true };
  }
}

/** Whether `value` nests at least `limit` levels (iterative: never recurses). */
function depthAtLeast(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop() as [unknown, number];
    if (d >= limit) {
      return true;
    }
    if (typeof v === 'object' && v !== null) {
      for (const child of Array.isArray(v) ? v : Object.values(v)) {
        if (typeof child === 'object' && child !== null) {
          stack.push([child, d + 1]);
        }
      }
    }
  }
  return false;
}

type Frame = { kind: 'text'; text: string } | { kind: 'value'; value: unknown };

/** Compact JSON written with an explicit stack, so nesting depth never touches the call stack. */
export function flatJson(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [{ kind: 'value', value }];
  const seen = new Set<object>();
  while (stack.length) {
    const frame = stack.pop() as Frame;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const v = frame.value;
    if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') {
      out.push(typeof v === 'number' && !Number.isFinite(v) ? 'null' : JSON.stringify(v));
    } else if (Array.isArray(v) || (typeof v === 'object' && v !== null)) {
      if (seen.has(v)) {
        out.push('"[circular]"');
        continue;
      }
      seen.add(v);
      const entries: [string | undefined, unknown][] = Array.isArray(v)
        ? v.map((x) => [undefined, x])
        : Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function');
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      // Pushed in reverse: the stack pops the first entry first.
      stack.push({ kind: 'text', text: close });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i];
        stack.push({ kind: 'value', value: x === undefined || typeof x === 'function' ? null : x });
        stack.push({ kind: 'text', text: `${i > 0 ? ',' : ''}${k === undefined ? '' : `${JSON.stringify(k)}:`}` });
      }
      out.push(open);
    } else {
      out.push('null');
    }
  }
  return out.join('');
}
