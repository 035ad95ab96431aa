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
  return shell === 'powershell' ? powershellWords(text) : posixWords(text);
}

function posixWords(text: string): Words {
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
    if (ch === '\\') {
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
    } else if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      inWord = true;
      if (close < 0) {
        word += text.slice(i + 1);
        end();
        return { words, unterminated: true };
      }
      word += text.slice(i + 1, close);
      i = close + 1;
    } else if (ch === '$' && text[i + 1] === "'") {
      inWord = true;
      i += 2;
      for (; i < text.length && text[i] !== "'"; i++) {
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
            word += code <= 0x10ffff ? String.fromCodePoint(code) : '';
            i += hex[0].length;
          } else {
            word += ANSI_C[next] ?? `\\${next}`;
          }
        } else {
          word += text[i];
        }
      }
      if (i >= text.length) {
        end();
        return { words, unterminated: true };
      }
      i++;
    } else if (ch === '"') {
      inWord = true;
      i++;
      for (; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && /[$`"\\\n]/.test(text[i + 1] ?? '')) {
          if (text[i + 1] !== '\n') {
            word += text[i + 1];
          }
          i++;
        } else {
          word += text[i];
        }
      }
      if (i >= text.length) {
        end();
        return { words, unterminated: true };
      }
      i++;
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

function powershellWords(text: string): Words {
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
    if (ch === '`') {
      const next = text[i + 1];
      if (next === '\n') {
        i += 2;
      } else if (next === '\r' && text[i + 2] === '\n') {
        i += 3;
      } else {
        if (next !== undefined) {
          word += next;
          inWord = true;
        }
        i += 2;
      }
    } else if (POWERSHELL_SINGLE_QUOTE.test(ch)) {
      inWord = true;
      i++;
      for (;;) {
        if (i >= text.length) {
          end();
          return { words, unterminated: true };
        }
        if (POWERSHELL_SINGLE_QUOTE.test(text[i])) {
          if (POWERSHELL_SINGLE_QUOTE.test(text[i + 1] ?? '')) {
            word += text[i];
            i += 2;
            continue;
          }
          i++;
          break;
        }
        word += text[i++];
      }
    } else if (POWERSHELL_DOUBLE_QUOTE.test(ch)) {
      inWord = true;
      i++;
      for (;;) {
        if (i >= text.length) {
          end();
          return { words, unterminated: true };
        }
        const c = text[i];
        if (c === '`' && i + 1 < text.length) {
          word += POWERSHELL_ESCAPES[text[i + 1]] ?? text[i + 1];
          i += 2;
        } else if (POWERSHELL_DOUBLE_QUOTE.test(c)) {
          if (POWERSHELL_DOUBLE_QUOTE.test(text[i + 1] ?? '')) {
            word += c;
            i += 2;
            continue;
          }
          i++;
          break;
        } else {
          word += c;
          i++;
        }
      }
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
