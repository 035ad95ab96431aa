/**
 * The whole values of line-based config files, with the key each is the value of: YAML (`key: value`,
 * `- value`, quoted or plain, flow lists `[a, "b"]`; a plain key is a value too, for maps keyed by model
 * id), `.env` (`KEY=value`, `export KEY="value"`) and `.properties` (`key=value`, `key: value`, `key value`).
 * Comments, YAML block scalars (`|`, `>`) and documents markers are skipped. A reader for finding values,
 * not a validator: what it cannot read it passes over. Pure; no `vscode` import.
 */

export interface Value {
  value: string;
  /** Offset of its first character in the text. */
  offset: number;
  /** The key it is the value of, when it has one. */
  key?: string;
}

type Emit = (v: Value) => void;

/** The content of a quoted value starting at `text[start]` (`"` or `'`), or undefined if it does not close on the line. */
function quoted(line: string, start: number): { value: string; end: number } | undefined {
  const q = line[start];
  for (let i = start + 1; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && q === '"') {
      i++;
    } else if (c === q) {
      // YAML's '' inside '…' is one quote: such a value is no plain id, so it ends the value as written.
      return { value: line.slice(start + 1, i), end: i + 1 };
    }
  }
  return undefined;
}

/** A plain value from `start`: up to a ` #` comment, trimmed. */
function plain(line: string, start: number, hashComments: boolean): string {
  let end = line.length;
  if (hashComments) {
    const hash = line.indexOf(' #', start);
    if (hash !== -1) {
      end = hash;
    }
    const tab = line.indexOf('\t#', start);
    if (tab !== -1 && tab < end) {
      end = tab;
    }
  }
  return line.slice(start, end).trimEnd();
}

/** One value (quoted or plain) of a line at `start`, emitted with `key`. */
function emitValue(line: string, lineOffset: number, start: number, key: string | undefined, emit: Emit): void {
  const c = line[start];
  if (c === '"' || c === "'") {
    const q = quoted(line, start);
    if (q && q.value !== '') {
      emit({ value: q.value, offset: lineOffset + start + 1, key });
    }
    return;
  }
  const value = plain(line, start, true);
  if (value !== '') {
    emit({ value, offset: lineOffset + start, key });
  }
}

const SPACES = /^[ \t]*/;

function skipSpaces(line: string, i: number): number {
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) {
    i++;
  }
  return i;
}

/** The items of a YAML flow list `[a, "b", c]` starting at `line[start]`. */
function flowItems(line: string, lineOffset: number, start: number, key: string | undefined, emit: Emit): void {
  let i = start + 1;
  while (i < line.length) {
    i = skipSpaces(line, i);
    const c = line[i];
    if (c === ']' || c === '#' || c === undefined) {
      return;
    }
    if (c === '"' || c === "'") {
      const q = quoted(line, i);
      if (!q) {
        return;
      }
      emit({ value: q.value, offset: lineOffset + i + 1, key });
      i = q.end;
    } else {
      let end = i;
      while (end < line.length && line[end] !== ',' && line[end] !== ']') {
        end++;
      }
      const value = line.slice(i, end).trimEnd();
      if (value !== '' && !value.includes('[') && !value.includes('{')) {
        emit({ value, offset: lineOffset + i, key });
      }
      i = end;
    }
    i = skipSpaces(line, i);
    if (line[i] === ',') {
      i++;
    }
  }
}

function readYaml(lines: readonly string[], starts: readonly number[], emit: Emit): void {
  // Lines indented deeper than this belong to a block scalar (`key: |`): text, not values.
  let blockIndent = -1;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const indent = SPACES.exec(line)![0].length;
    if (indent === line.length) {
      continue;
    }
    if (blockIndent >= 0 && indent > blockIndent) {
      continue;
    }
    blockIndent = -1;
    let i = indent;
    if (line[i] === '#' || line.startsWith('---', i) || line.startsWith('...', i) || line[i] === '%') {
      continue;
    }
    while (line[i] === '-' && (line[i + 1] === ' ' || line[i + 1] === undefined)) {
      i = skipSpaces(line, i + 1);
    }
    let key: string | undefined;
    const c = line[i];
    if (c === '"' || c === "'") {
      const q = quoted(line, i);
      if (!q) {
        continue;
      }
      const after = skipSpaces(line, q.end);
      if (line[after] === ':' && (after + 1 === line.length || line[after + 1] === ' ' || line[after + 1] === '\t')) {
        key = q.value;
        emit({ value: q.value, offset: starts[n] + i + 1 });
        i = skipSpaces(line, after + 1);
      } else {
        emit({ value: q.value, offset: starts[n] + i + 1 });
        continue;
      }
    } else {
      const sep = /:(?:[ \t]|$)/.exec(line.slice(i));
      if (sep && !line.slice(i, i + sep.index).includes(' #') && c !== '[' && c !== '{') {
        key = line.slice(i, i + sep.index).trimEnd();
        if (key !== '') {
          emit({ value: key, offset: starts[n] + i });
        }
        i = skipSpaces(line, i + sep.index + 1);
      }
    }
    // Tags and anchors before a value: `!!str gpt`, `&default gpt`.
    while (line[i] === '!' || line[i] === '&') {
      const space = line.indexOf(' ', i);
      if (space === -1) {
        i = line.length;
        break;
      }
      i = skipSpaces(line, space);
    }
    const v = line[i];
    if (v === undefined || v === '#' || v === '*') {
      continue;
    }
    if (v === '|' || v === '>') {
      blockIndent = indent;
      continue;
    }
    if (v === '[') {
      flowItems(line, starts[n], i, key, emit);
      continue;
    }
    if (v === '{') {
      continue;
    }
    emitValue(line, starts[n], i, key, emit);
  }
}

const ENV_LINE = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*=[ \t]*/;

function readEnv(lines: readonly string[], starts: readonly number[], emit: Emit): void {
  for (let n = 0; n < lines.length; n++) {
    const m = ENV_LINE.exec(lines[n]);
    if (m) {
      emitValue(lines[n], starts[n], m[0].length, m[1], emit);
    }
  }
}

const PROPERTY_LINE = /^[ \t]*((?:\\.|[^\s=:\\])+)(?:[ \t]*[=:][ \t]*|[ \t]+)/;

function readProperties(lines: readonly string[], starts: readonly number[], emit: Emit): void {
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const first = line.trimStart()[0];
    if (first === '#' || first === '!') {
      continue;
    }
    const m = PROPERTY_LINE.exec(line);
    if (!m) {
      continue;
    }
    const start = m[0].length;
    // A value has no comments in .properties; one written in quotes is read without them.
    const value = line.slice(start).replace(/[ \t\r]+$/, '');
    const q = value[0];
    if ((q === '"' || q === "'") && value.length >= 2 && value[value.length - 1] === q) {
      emit({ value: value.slice(1, -1), offset: starts[n] + start + 1, key: m[1] });
    } else if (value !== '') {
      emit({ value, offset: starts[n] + start, key: m[1] });
    }
  }
}

/** Every value of a YAML, `.env` or `.properties` text. */
export function readConfigValues(text: string, syntax: 'yaml' | 'env' | 'properties', emit: Emit): void {
  const lines = text.split('\n');
  const starts = new Array<number>(lines.length);
  let offset = 0;
  for (let n = 0; n < lines.length; n++) {
    starts[n] = offset;
    offset += lines[n].length + 1;
    if (lines[n].endsWith('\r')) {
      lines[n] = lines[n].slice(0, -1);
    }
  }
  if (syntax === 'yaml') {
    readYaml(lines, starts, emit);
  } else if (syntax === 'env') {
    readEnv(lines, starts, emit);
  } else {
    readProperties(lines, starts, emit);
  }
}
