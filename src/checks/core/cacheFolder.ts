/**
 * The cache's folder: one file per answer (`ab/abcdef….json`), in a folder the person chose or, by default,
 * under the OS cache directory — never the repository. A folder that cannot be written turns the cache off
 * for the run, with a warning; the checks go on. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { l10n } from '../../common/plainL10n';
import type { CacheStore } from './answerCache';

/** `<OS cache dir>/model-access/answers`: XDG_CACHE_HOME or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%. */
export function defaultCacheFolder(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  const base =
    platform === 'win32'
      ? (env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Caches')
        : (env.XDG_CACHE_HOME ?? path.join(home, '.cache'));
  return path.join(base, 'model-access', 'answers');
}

/** A store in `folder`, or the warning to show when it cannot be written. */
export function openCacheFolder(folder: string): CacheStore | { warning: string } {
  try {
    fs.mkdirSync(folder, { recursive: true });
    const probe = path.join(folder, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (e) {
    return {
      warning: l10n.t(
        'The cache folder {0} cannot be written ({1}); this run goes on without the cache',
        folder,
        (e as NodeJS.ErrnoException).code ?? (e as Error).message,
      ),
    };
  }
  const file = (key: string) => path.join(folder, key.slice(0, 2), `${key}.json`);
  return {
    get(key) {
      try {
        return fs.readFileSync(file(key), 'utf8');
      } catch {
        return undefined;
      }
    },
    put(key, value) {
      const target = file(key);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // Written aside and renamed: a run stopped halfway never leaves half an answer to replay.
      const temp = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(temp, value);
      fs.renameSync(temp, target);
    },
  };
}
