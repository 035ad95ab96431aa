/**
 * Finds the registry's model ids in one file's text: whole string literals (in the quotes of the file's
 * language, comments left out) and whole config values (YAML, `.env`, `.properties` values plain or quoted;
 * TOML, HCL and JSON/JSONC strings; the string literals of a notebook's cell sources). Never a substring of
 * a word: a literal or value is looked up whole in the id set, so the cost does not grow with the number of
 * ids, and an id's characters (regex specials, `{{…}}`) are never part of a pattern.
 *
 * An id that is a plain word (letters only: `default`, `gpt`) is a reference only as the whole value of a
 * model-ish key (`model=`, `"model":`, `model_name:`, `OPENAI_MODEL=` — a key whose name contains "model"):
 * elsewhere such a word is far more likely to mean something else. The same holds for "did you mean": an
 * unlisted candidate (a literal one edit from a listed id, see idLookup.ts) is reported only when it looks
 * like an id (no white space) and, when it or its neighbour is a plain word, only beside a model-ish key.
 * Pure; no `vscode` import.
 */
import { readConfigValues, type Value } from './configValues';
import { syntaxOf, type Syntax } from './languages';
import type { IdLookup, ModelReference } from './types';

export { isReferenceFile } from './languages';

const DQ = String.raw`"((?:[^"\\\r\n]|\\.)*)"`;
const SQ = String.raw`'((?:[^'\\\r\n]|\\.)*)'`;
const LINE_COMMENT = String.raw`//[^\n]*`;
const HASH_COMMENT = String.raw`#[^\n]*`;
const BLOCK_COMMENT = String.raw`/\*[\s\S]*?(?:\*/|$)`;
const TRIPLE = String.raw`"""([\s\S]*?)"""|'''([\s\S]*?)'''`;
/** A template literal (one with `${…}` is no whole value: readLiterals passes it over). */
const BACKTICK = String.raw`\`((?:[^\`\\]|\\[\s\S])*)\``;

/** Comments first, so a quote inside one starts nothing; each literal's content is a capture group. */
const LITERALS: Partial<Record<Syntax, RegExp>> = {
  c: new RegExp(`${LINE_COMMENT}|${BLOCK_COMMENT}|${DQ}|${SQ}|${BACKTICK}`, 'g'),
  python: new RegExp(`${HASH_COMMENT}|${TRIPLE}|${DQ}|${SQ}`, 'g'),
  ruby: new RegExp(`${HASH_COMMENT}|${DQ}|${SQ}`, 'g'),
  hcl: new RegExp(`${HASH_COMMENT}|${LINE_COMMENT}|${BLOCK_COMMENT}|${DQ}`, 'g'),
  toml: new RegExp(`${HASH_COMMENT}|${TRIPLE}|${DQ}|${SQ}`, 'g'),
  json: new RegExp(`${LINE_COMMENT}|${BLOCK_COMMENT}|${DQ}`, 'g'),
};
/** Any other file (an `include` glob's): its "…" and '…' strings. */
const GENERIC = new RegExp(`${DQ}|${SQ}`, 'g');
/** A notebook's JSON strings (each a line of a cell), and the literals inside one: `\"…\"` and '…'. */
const JSON_STRING = new RegExp(DQ, 'g');
const INNER = String.raw`\\"((?:(?!\\")[^\n])*?)\\"|'((?:[^'\\]|\\.)*)'`;

/** Letters only: an id that reads as a word. */
const WORD = /^[A-Za-z]+$/;
/** White space: no id is looked for "did you mean" in a sentence. */
const SPACE = /\s/;
/** The key a value is written after, on the same line: `model=`, `"model": `, `self.model = `, `model_name:`. */
const KEY_BEFORE = /(?:^|[^\w$.-])["'`]?([A-Za-z_$][\w$.-]*)["'`]?\s*(?::=|=>|=|:)\s*$/;
const MODEL_KEY = /model/i;

/** Whether a key (a config key, a keyword argument, a property) names a model. */
export function isModelKey(key: string | undefined): boolean {
  return key !== undefined && MODEL_KEY.test(key);
}

/** The key written before `offset` on its line, if any. */
function keyBefore(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return KEY_BEFORE.exec(text.slice(Math.max(lineStart, offset - 120), offset))?.[1];
}

/** Collects the references of one file; line and column are computed only for the values that are. */
class Collector {
  readonly refs: ModelReference[] = [];
  private lineStarts: number[] | undefined;

  constructor(
    private readonly text: string,
    private readonly ids: IdLookup,
  ) {}

  /**
   * A candidate `value` at `offset`. `key`: the key it is the value of, when the reader knows it (config
   * files); undefined asks for the key written before it on its line, read only when needed.
   */
  add(value: string, offset: number, quoteLength: number, key?: string | null): void {
    // The hot path: most literals are neither an id nor near one, and pay for one look-up and one filter.
    if (this.ids.has(value)) {
      if (!WORD.test(value) || this.isModelValue(offset, quoteLength, key)) {
        this.push(value, offset, true);
      }
      return;
    }
    // A sentence is no near miss: a space rules it out before the neighbourhood is asked (other white space after).
    const nearest = value === '' || value.includes(' ') ? undefined : this.ids.nearest(value);
    if (
      nearest !== undefined &&
      !SPACE.test(value) &&
      ((!WORD.test(value) && !WORD.test(nearest)) || this.isModelValue(offset, quoteLength, key))
    ) {
      this.push(value, offset, false, nearest);
    }
  }

  /** Whether the value at `offset` is that of a model-ish key (the reader's, or the one written before it). */
  private isModelValue(offset: number, quoteLength: number, key: string | null | undefined): boolean {
    return isModelKey(key === undefined ? keyBefore(this.text, offset - quoteLength) : (key ?? undefined));
  }

  private push(id: string, offset: number, listed: boolean, nearest?: string): void {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    const ref: ModelReference = {
      id: detached(id),
      line: lo,
      character: offset - starts[lo],
      length: id.length,
      listed,
    };
    if (nearest !== undefined) {
      ref.nearest = nearest;
    }
    this.refs.push(ref);
  }
}

/**
 * A copy of `s` that holds no reference to the text it was cut from: V8 keeps a long substring as a slice of
 * its parent, so a reference kept for the workspace would keep its whole file alive (20,000 files: 130 MB).
 * Joining flattens the string into a new one; slicing that copy no longer points into the file.
 */
function detached(s: string): string {
  return (' ' + s).slice(1);
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  return starts;
}

/** Every literal `pattern` finds: its content is the first capture group that took part. */
function readLiterals(text: string, pattern: RegExp, into: Collector): void {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    for (let g = 1; g < m.length; g++) {
      const content = m[g];
      if (content !== undefined) {
        if (text.charCodeAt(m.index) === 0x60 && content.includes('${')) {
          break;
        }
        const quote = (m[0].length - content.length) / 2;
        into.add(content, m.index + quote, quote);
        break;
      }
    }
  }
}

/** A notebook: the literals inside each JSON string (a line of a cell's source, as JSON escapes it). */
function readNotebook(text: string, into: Collector): void {
  const inner = new RegExp(INNER, 'g');
  JSON_STRING.lastIndex = 0;
  for (let m = JSON_STRING.exec(text); m !== null; m = JSON_STRING.exec(text)) {
    const body = m[1];
    if (!body.includes('\\"') && !body.includes("'")) {
      continue;
    }
    inner.lastIndex = 0;
    for (let n = inner.exec(body); n !== null; n = inner.exec(body)) {
      const content = n[1] ?? n[2];
      const quote = n[1] !== undefined ? 2 : 1;
      into.add(content, m.index + 1 + n.index + quote, quote);
    }
  }
}

/** The references to `ids` in `text`, a file called `fileName` (its extension says how to read it). */
export function findModelReferences(text: string, fileName: string, ids: IdLookup): ModelReference[] {
  if (ids.size === 0 || text === '') {
    return [];
  }
  const into = new Collector(text, ids);
  const syntax = syntaxOf(fileName);
  if (syntax === 'yaml' || syntax === 'env' || syntax === 'properties') {
    readConfigValues(text, syntax, (v: Value) => into.add(v.value, v.offset, 0, v.key ?? null));
  } else if (syntax === 'notebook') {
    readNotebook(text, into);
  } else {
    readLiterals(text, (syntax && LITERALS[syntax]) ?? GENERIC, into);
  }
  return into.refs;
}
