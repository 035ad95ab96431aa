// package.json as VS Code reads it: every `%key%` string replaced by its English text from package.nls.json.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The English manifest strings (package.nls.json): key → text. */
export function readNls(root = REPO_ROOT): Record<string, string> {
  return JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
}

/** package.json with its `%key%` placeholders resolved; an unknown key throws, naming it. */
export function readManifest(root = REPO_ROOT): unknown {
  const nls = readNls(root);
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const key = /^%(.+)%$/.exec(value)?.[1];
      if (key === undefined) {
        return value;
      }
      if (!(key in nls)) {
        throw new Error(`package.json uses %${key}%, which package.nls.json does not define`);
      }
      return nls[key];
    }
    if (Array.isArray(value)) {
      return value.map(resolve);
    }
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    }
    return value;
  };
  return resolve(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')));
}
