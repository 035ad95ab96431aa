/**
 * The cache's folder: one file per answer (`ab/abcdef….json`), in a folder the person chose or, by default,
 * under the OS cache directory — never the repository. The folder and its files are private to the user
 * (0700/0600). A folder that cannot be written, or belongs to someone else, turns the cache off for the run,
 * with a warning; the checks go on. No `vscode` import.
 */
import { randomBytes } from 'node:crypto';
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

/** The cache folder opened: its store, and a note when its permissions had to be narrowed. */
export interface OpenedCache {
  store: CacheStore;
  note?: string;
}

/**
 * A store in `folder`, private to the user running it: created 0700 (files 0600); an existing folder others
 * can read or write is narrowed to 0700, with a note; one that belongs to another user, or is not a folder,
 * is refused — as is one that cannot be written — with the warning to show: the run goes on uncached.
 */
export function openCacheFolder(folder: string): OpenedCache | { warning: string } {
  const refused = (reason: string) => ({
    warning: l10n.t('The cache folder {0} cannot be used ({1}); this run goes on without the cache', folder, reason),
  });
  let note: string | undefined;
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(folder);
    if (!stat.isDirectory()) {
      return refused(l10n.t('it is not a folder'));
    }
    // POSIX only: on Windows the default folder is under the user's own profile, and modes mean little.
    const uid = process.getuid?.();
    if (uid !== undefined && process.platform !== 'win32') {
      if (stat.uid !== uid) {
        return refused(l10n.t('it belongs to another user; choose a folder of your own with --cache-dir'));
      }
      if ((stat.mode & 0o077) !== 0) {
        fs.chmodSync(folder, 0o700);
        note = l10n.t(
          'The cache folder {0} could be read by other users (mode {1}); it is now private to you (700)',
          folder,
          (stat.mode & 0o777).toString(8),
        );
      }
    }
    const probe = path.join(folder, `.write-test-${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.writeFileSync(probe, '', { flag: 'wx', mode: 0o600 });
    fs.rmSync(probe);
  } catch (e) {
    return refused(l10n.t('it cannot be written: {0}', (e as NodeJS.ErrnoException).code ?? (e as Error).message));
  }
  const file = (key: string) => path.join(folder, key.slice(0, 2), `${key}.json`);
  const store: CacheStore = {
    get(key) {
      let fd: number;
      try {
        // Never through a link, never blocking on a FIFO someone left under the name.
        fd = fs.openSync(file(key), fs.constants.O_RDONLY | NOFOLLOW | NONBLOCK);
      } catch (e) {
        // A link where an entry belongs is an entry that fails its seal, not a missing one.
        return (e as NodeJS.ErrnoException).code === 'ELOOP' ? '' : undefined;
      }
      try {
        return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, 'utf8') : '';
      } catch {
        return undefined;
      } finally {
        fs.closeSync(fd);
      }
    },
    put(key, value) {
      const target = file(key);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      // Written aside (a new file, never through a link) and renamed: a run stopped halfway never leaves half
      // an answer to replay.
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      fs.writeFileSync(temp, value, { flag: 'wx', mode: 0o600 });
      fs.renameSync(temp, target);
    },
  };
  return note === undefined ? { store } : { store, note };
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
