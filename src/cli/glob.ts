/**
 * The payload files a command line names: existing files as they are, folders searched for `.json`/`.jsonc`,
 * and glob patterns (`*`, `?`, `**`, `{a,b}`), quoted so the shell leaves them to us. `node_modules` and
 * dot folders are never searched. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A glob pattern as a regular expression over `/`-separated relative paths. */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` matches any number of folders, including none; a trailing `**` matches everything below.
      const slash = pattern[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`);
}

const PAYLOAD = /\.jsonc?$/i;

/** How many folder entries a search may still look at (the MCP server's globs are bounded; the CLI's are not). */
interface Budget {
  left: number;
}

function walk(dir: string, out: string[], budget: Budget = { left: Infinity }): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name.startsWith('.') || budget.left-- <= 0) {
      continue;
    }
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      walk(full, out, budget);
    } else if (e.isFile()) {
      out.push(full);
    }
  }
}

/**
 * The files the arguments name, each once, sorted; `unmatched` lists the arguments that named nothing. With
 * `maxEntries`, the searches look at that many folder entries in all (`cut`: they stopped there).
 */
export function expandPatterns(
  patterns: readonly string[],
  cwd: string,
  maxEntries = Infinity,
): { files: string[]; unmatched: string[]; cut?: true } {
  const budget: Budget = { left: maxEntries };
  const files = new Set<string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    const before = files.size;
    const full = path.resolve(cwd, pattern);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (stat?.isFile()) {
      files.add(full);
    } else if (stat?.isDirectory()) {
      const found: string[] = [];
      walk(full, found, budget);
      found.filter((f) => PAYLOAD.test(f)).forEach((f) => files.add(f));
    } else {
      // The folder part before the first wildcard is where the search starts.
      const normalized = pattern.split(path.sep).join('/');
      const parts = normalized.split('/');
      const firstWild = parts.findIndex((p) => /[*?{]/.test(p));
      const base = firstWild < 0 ? normalized : parts.slice(0, firstWild).join('/');
      const root = path.resolve(cwd, base === '' ? '.' : base);
      const re = globToRegExp(firstWild < 0 ? '' : parts.slice(firstWild).join('/'));
      const found: string[] = [];
      walk(root, found, budget);
      for (const f of found) {
        if (re.test(path.relative(root, f).split(path.sep).join('/'))) {
          files.add(f);
        }
      }
    }
    if (files.size === before) {
      unmatched.push(pattern);
    }
  }
  return { files: [...files].sort(), unmatched, ...(budget.left < 0 ? { cut: true as const } : {}) };
}
