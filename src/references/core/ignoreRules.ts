/**
 * `.gitignore` patterns and `include`/`exclude` globs as matchers over `/`-separated relative paths. The
 * `.gitignore` reading follows gitignore(5): blank lines and `#` comments skipped, trailing spaces dropped
 * unless escaped, `!` re-includes, `\` escapes a leading `#` or `!`, a trailing `/` matches folders only, a
 * pattern with a `/` before its end is anchored to its file's folder (else it matches a name at any depth),
 * `*` and `?` stay within a segment, `[…]` classes, `**` as a whole segment spans folders. The last matching
 * pattern decides, and a deeper `.gitignore` comes after its parents. Pure; no `vscode` import.
 */

export interface IgnoreRule {
  /** Tests a path relative to the rule's folder. */
  pattern: RegExp;
  negated: boolean;
  folderOnly: boolean;
}

/** One `.gitignore` file's rules, for paths relative to `base` (its folder, relative to the scan root; '' at the root). */
export interface IgnoreFile {
  base: string;
  rules: IgnoreRule[];
}

/** A glob body (no anchoring) as a regular expression source; `*` and `?` stay in one segment. */
function globBody(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*' && (i === 0 || glob[i - 1] === '/') && (i + 2 === glob.length || glob[i + 2] === '/')) {
        // `**/` any folders (none too); a final `**` everything below.
        if (i + 2 === glob.length) {
          out += '.*';
          i += 1;
        } else {
          out += '(?:[^/]*/)*';
          i += 2;
        }
      } else {
        while (glob[i + 1] === '*') {
          i++;
        }
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, close);
        const negate = body[0] === '!' || body[0] === '^';
        if (negate) {
          body = body.slice(1);
        }
        out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += glob[i + 1].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i++;
    } else {
      out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return out;
}

/** One line of a `.gitignore`, or undefined for a blank line or a comment. */
export function parseIgnoreLine(line: string): IgnoreRule | undefined {
  let s = line.replace(/\r$/, '');
  // Trailing spaces go, unless the last one is escaped.
  s = s.replace(/(?<!\\)[ \t]+$/, '').replace(/\\ $/, ' ');
  if (s === '' || s.startsWith('#')) {
    return undefined;
  }
  let negated = false;
  if (s.startsWith('!')) {
    negated = true;
    s = s.slice(1);
  } else if (s.startsWith('\\!') || s.startsWith('\\#')) {
    s = s.slice(1);
  }
  let folderOnly = false;
  if (s.endsWith('/')) {
    folderOnly = true;
    s = s.slice(0, -1);
  }
  if (s === '') {
    return undefined;
  }
  const anchored = s.includes('/');
  if (s.startsWith('/')) {
    s = s.slice(1);
  }
  // Unanchored: a name at any depth. A match also covers everything below it (a folder's contents).
  const source = `^${anchored ? '' : '(?:[^/]*/)*'}${globBody(s)}$`;
  return { pattern: new RegExp(source), negated, folderOnly };
}

/** The rules of one `.gitignore` text. */
export function parseIgnoreFile(text: string, base: string): IgnoreFile {
  const rules: IgnoreRule[] = [];
  for (const line of text.split('\n')) {
    const rule = parseIgnoreLine(line);
    if (rule) {
      rules.push(rule);
    }
  }
  return { base, rules };
}

/**
 * Whether `relative` (from the scan root, `/`-separated) is ignored by `files`, outermost first. Its
 * folders are not tested here: the walk never enters an ignored folder.
 */
export function isIgnored(files: readonly IgnoreFile[], relative: string, isFolder: boolean): boolean {
  let ignored = false;
  for (const file of files) {
    let path = relative;
    if (file.base !== '') {
      if (!relative.startsWith(`${file.base}/`)) {
        continue;
      }
      path = relative.slice(file.base.length + 1);
    }
    for (const rule of file.rules) {
      if ((!rule.folderOnly || isFolder) && rule.negated === ignored && rule.pattern.test(path)) {
        ignored = !rule.negated;
      }
    }
  }
  return ignored;
}

/**
 * A glob of `include`/`exclude` (`**\/*.py`, `build`, `src/**\/generated/**`) as a test of relative paths:
 * a glob without a `/` matches a name at any depth, as in `.gitignore`; `{a,b}` alternatives are expanded.
 */
export function globMatcher(glob: string): (relative: string) => boolean {
  const alternatives = expandBraces(glob.replace(/^\.\//, '').replace(/\/$/, ''));
  const patterns = alternatives.map((g) => {
    const anchored = g.includes('/');
    return new RegExp(`^${anchored ? '' : '(?:[^/]*/)*'}${globBody(g.replace(/^\//, ''))}$`);
  });
  return (relative) => patterns.some((p) => p.test(relative));
}

/** `a{b,c}d` → `abd`, `acd` (nested braces too); at most 64 alternatives. */
function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  if (open === -1) {
    return [glob];
  }
  let depth = 0;
  const cuts: number[] = [];
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') {
      depth++;
    } else if (glob[i] === '}') {
      depth--;
      if (depth === 0) {
        const head = glob.slice(0, open);
        const tail = glob.slice(i + 1);
        const parts: string[] = [];
        let from = open + 1;
        for (const cut of [...cuts, i]) {
          parts.push(glob.slice(from, cut));
          from = cut + 1;
        }
        return parts.flatMap((p) => expandBraces(`${head}${p}${tail}`)).slice(0, 64);
      }
    } else if (glob[i] === ',' && depth === 1) {
      cuts.push(i);
    }
  }
  return [glob];
}
