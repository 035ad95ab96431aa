/**
 * The JSON paths of `// @expect json …`: `$`, then `.name`, `['name']` / `["name"]`, `[0]`, `[-1]` (from the
 * end) and `[*]` (every element or value). A small, exact subset of JSONPath: enough to reach any field of
 * an answer, nothing that needs an expression language. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';

export type PathStep = { key: string } | { index: number } | { every: true };

export interface JsonPath {
  steps: PathStep[];
  /** As written. */
  text: string;
}

export type ParsedPath = { ok: true; path: JsonPath; length: number } | { ok: false; message: string };

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/** Reads a path at the start of `text`; `length` is how much of `text` it took. */
export function parseJsonPath(text: string): ParsedPath {
  if (!text.startsWith('$')) {
    return { ok: false, message: l10n.t('a JSON path starts with $, as in: $.model or $.data[0].embedding') };
  }
  const steps: PathStep[] = [];
  let i = 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      const name = NAME.exec(text.slice(i + 1));
      if (!name) {
        return bad(text, i);
      }
      steps.push({ key: name[0] });
      i += 1 + name[0].length;
    } else if (c === '[') {
      const close = bracket(text, i);
      if (!close) {
        return bad(text, i);
      }
      steps.push(close.step);
      i = close.end;
    } else if (/\s/.test(c)) {
      break;
    } else {
      return bad(text, i);
    }
  }
  return { ok: true, path: { steps, text: text.slice(0, i) }, length: i };
}

function bracket(text: string, open: number): { step: PathStep; end: number } | undefined {
  const rest = text.slice(open);
  const index = /^\[(-?\d+)\]/.exec(rest);
  if (index) {
    return { step: { index: Number(index[1]) }, end: open + index[0].length };
  }
  if (rest.startsWith('[*]')) {
    return { step: { every: true }, end: open + 3 };
  }
  const quoted = /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest);
  if (quoted) {
    const raw = quoted[1] ?? quoted[2];
    return { step: { key: raw.replace(/\\(.)/g, '$1') }, end: open + quoted[0].length };
  }
  return undefined;
}

function bad(text: string, at: number): ParsedPath {
  return {
    ok: false,
    message: l10n.t(
      'the JSON path {0} cannot be read at character {1}: use .name, [0], [-1], [*] or ["name"]',
      text.split(/\s/)[0],
      at + 1,
    ),
  };
}

/**
 * Every value the path reaches (none when it reaches nothing), and how far it got: the longest prefix that
 * matched, for a message that says where the path stopped.
 */
export function select(value: unknown, path: JsonPath): { values: unknown[]; reached: string } {
  let current: unknown[] = [value];
  let reached = '$';
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const v of current) {
      // One by one: spreading a 600,000-element array as arguments overflows the stack.
      for (const x of stepInto(v, step)) {
        next.push(x);
      }
    }
    if (next.length === 0) {
      return { values: [], reached };
    }
    reached += stepText(step);
    current = next;
  }
  return { values: current, reached };
}

function stepInto(v: unknown, step: PathStep): unknown[] {
  if ('every' in step) {
    if (Array.isArray(v)) {
      return v;
    }
    return isObject(v) ? Object.values(v) : [];
  }
  if ('index' in step) {
    if (!Array.isArray(v)) {
      return [];
    }
    const i = step.index < 0 ? v.length + step.index : step.index;
    return i >= 0 && i < v.length ? [v[i]] : [];
  }
  return isObject(v) && Object.hasOwn(v, step.key) ? [v[step.key]] : [];
}

function stepText(step: PathStep): string {
  if ('every' in step) {
    return '[*]';
  }
  if ('index' in step) {
    return `[${step.index}]`;
  }
  return NAME.exec(step.key)?.[0] === step.key ? `.${step.key}` : `[${JSON.stringify(step.key)}]`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
