/**
 * Splitting a pasted command line into words the way bash or PowerShell would, without running anything:
 * quotes and escapes are resolved, variables stay as written (`$MODEL_ACCESS_API_KEY`), and the words stop at
 * the first pipe, `;`, `&&` or redirection outside quotes. Pure; no `vscode` import; never throws.
 */

export type Shell = 'posix' | 'powershell';

export interface Words {
  words: string[];
  /** A quote was left open at the end (the words hold what was read). */
  unterminated: boolean;
}

/** PowerShell when the text looks like it: backtick line continuations, `curl.exe`, `$env:`. */
export function guessShell(text: string): Shell {
  return /`\r?\n|^\s*curl\.exe\b|\$env:/i.test(text) ? 'powershell' : 'posix';
}

const POWERSHELL_SINGLE_QUOTE = /['\u2018\u2019\u201a\u201b]/;
const POWERSHELL_DOUBLE_QUOTE = /["\u201c\u201d\u201e]/;
const ANSI_C: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
};
const POWERSHELL_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  e: '\x1b',
};

export function shellWords(text: string, shell: Shell = guessShell(text)): Words {
  return shell === 'powershell' ? scanWords(text, '`', powershellQuoted) : scanWords(text, '\\', posixQuoted);
}

/** What a quoted part read: its text, where reading goes on, and whether the text ended inside it. */
interface Quoted {
  value: string;
  next: number;
  unterminated: boolean;
}

/**
 * The part both shells share: `escape` takes the next character literally (before a newline it continues
 * the line), white space ends a word, `#` starts a comment, a pipe, `;`, `&` or redirection ends the
 * command. `quoted` reads the shell's own quotes (undefined when none starts at `i`).
 */
function scanWords(text: string, escape: string, quoted: (text: string, i: number) => Quoted | undefined): Words {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const end = () => {
    if (inWord) {
      words.push(word);
    }
    word = '';
    inWord = false;
  };
  while (i < text.length) {
    const ch = text[i];
    const q = ch === escape ? undefined : quoted(text, i);
    if (ch === escape) {
      if (text[i + 1] === '\n') {
        i += 2;
      } else if (text[i + 1] === '\r' && text[i + 2] === '\n') {
        i += 3;
      } else {
        if (i + 1 < text.length) {
          word += text[i + 1];
          inWord = true;
        }
        i += 2;
      }
    } else if (q) {
      word += q.value;
      inWord = true;
      if (q.unterminated) {
        end();
        return { words, unterminated: true };
      }
      i = q.next;
    } else if (/\s/.test(ch)) {
      end();
      i++;
    } else if (ch === '#' && !inWord) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (/[|;&<>]/.test(ch)) {
      break;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  end();
  return { words, unterminated: false };
}

/** bash's quotes: '…' (literal), $'…' (ANSI-C escapes) and "…" (backslash escapes only $ ` " \ newline). */
function posixQuoted(text: string, start: number): Quoted | undefined {
  const ch = text[start];
  if (ch === "'") {
    const close = text.indexOf("'", start + 1);
    return close < 0
      ? { value: text.slice(start + 1), next: text.length, unterminated: true }
      : { value: text.slice(start + 1, close), next: close + 1, unterminated: false };
  }
  let value = '';
  let i: number;
  if (ch === '$' && text[start + 1] === "'") {
    for (i = start + 2; i < text.length && text[i] !== "'"; i++) {
      if (text[i] === '\\' && i + 1 < text.length) {
        const next = text[++i];
        const hex =
          next === 'x'
            ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1))
            : next === 'u'
              ? /^[0-9a-fA-F]{1,4}/.exec(text.slice(i + 1))
              : next === 'U'
                ? /^[0-9a-fA-F]{1,8}/.exec(text.slice(i + 1))
                : null;
        if (hex) {
          const code = parseInt(hex[0], 16);
          value += code <= 0x10ffff ? String.fromCodePoint(code) : '';
          i += hex[0].length;
        } else {
          value += ANSI_C[next] ?? `\\${next}`;
        }
      } else {
        value += text[i];
      }
    }
  } else if (ch === '"') {
    for (i = start + 1; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\' && /[$`"\\\n]/.test(text[i + 1] ?? '')) {
        if (text[i + 1] !== '\n') {
          value += text[i + 1];
        }
        i++;
      } else {
        value += text[i];
      }
    }
  } else {
    return undefined;
  }
  return i >= text.length ? { value, next: i, unterminated: true } : { value, next: i + 1, unterminated: false };
}

/**
 * PowerShell's quotes, typographic ones included: '…' (literal, '' is one quote) and "…" (backtick escapes,
 * "" is one quote).
 */
function powershellQuoted(text: string, start: number): Quoted | undefined {
  const single = POWERSHELL_SINGLE_QUOTE.test(text[start]);
  const quote = single ? POWERSHELL_SINGLE_QUOTE : POWERSHELL_DOUBLE_QUOTE;
  if (!single && !quote.test(text[start])) {
    return undefined;
  }
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= text.length) {
      return { value, next: i, unterminated: true };
    }
    const c = text[i];
    if (!single && c === '`' && i + 1 < text.length) {
      value += POWERSHELL_ESCAPES[text[i + 1]] ?? text[i + 1];
      i += 2;
    } else if (quote.test(c)) {
      if (quote.test(text[i + 1] ?? '')) {
        value += c;
        i += 2;
        continue;
      }
      return { value, next: i + 1, unterminated: false };
    } else {
      value += c;
      i++;
    }
  }
}
