/**
 * The files a payload names (its dataset, its schemas), read only inside the working directory: a payload
 * from a repository must not send `../../.ssh/id_rsa`, `/etc/passwd` or a committed symlink's target to the
 * service as dataset rows. Real paths are compared, so a symlink pointing out is refused too;
 * `--allow-outside-files` lifts the rule. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The text of `relative` (from `dir`), or undefined when it cannot be read or lies outside `root`. */
export function readInside(root: string, dir: string, relative: string, allowOutside: boolean): string | undefined {
  try {
    const real = fs.realpathSync(path.resolve(dir, relative));
    if (!allowOutside && !isInside(fs.realpathSync(root), real)) {
      return undefined;
    }
    return fs.readFileSync(real, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Why `readInside` gave nothing for `relative`, when the reason is the rule and not a missing file: the file
 * exists outside `root`, and the option that reads it anyway.
 */
export function whyNotRead(root: string, dir: string, relative: string, allowOutside: boolean): string | undefined {
  try {
    const real = fs.realpathSync(path.resolve(dir, relative));
    return !allowOutside && !isInside(fs.realpathSync(root), real)
      ? `it lies outside the working directory ${root}; run with --allow-outside-files to read it`
      : undefined;
  } catch {
    return undefined;
  }
}

export function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
