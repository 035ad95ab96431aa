import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { scopeOf } from '../domain/keyScope';
import {
  cacheFileName,
  fingerprint,
  parseCache,
  serializeCache,
  type CacheBinding,
  type SavedList,
} from '../domain/savedModelList';
import type { ServiceState } from './connection';

/** The per-install salt of the fingerprints, in SecretStorage (not next to the files it protects). */
const SALT_SECRET = 'modelAccess.modelListCacheSalt';
/** A refresh that lands writes the list this long after (a burst of refreshes writes once). */
const WRITE_DELAY_MS = 1500;

interface Target {
  binding: CacheBinding;
  file: string;
}

/** A file's identity on disk: a write renames a new file into place, so its inode (and mtime) change. */
function stampOf(stat: { ino: number; mtimeMs: number; size: number }, binding: CacheBinding): string {
  return `${stat.ino}:${stat.mtimeMs}:${stat.size}:${binding.fingerprint}`;
}

/**
 * The last good model list of each environment and service, in the extension's global storage. Thin glue
 * over domain/savedModelList.ts: finds the file, reads and writes it, keeps the salt. Failures are never the
 * user's problem: a cache that cannot be read is a cache miss, one that cannot be written is skipped.
 */
export class ModelListCache {
  private salt: Promise<Buffer | undefined> | undefined;
  /** Writes whose file is still being worked out (the salt is read once, from SecretStorage). */
  private readonly scheduling = new Set<Promise<void>>();
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; write: () => Promise<void> }>();
  /**
   * The list last read or written per file, with the file's stamp then: a refresh compares with the seen list
   * every time, and reading and parsing 100,000 entries again cost more than the comparison itself. A file
   * another window rewrote has another stamp and is read again. Only the seen lists are kept: the last good
   * list is read once, when a window starts.
   */
  private readonly memory = new Map<string, { stamp: string; list: SavedList }>();

  constructor(
    private readonly dir: string,
    private readonly secrets: vscode.SecretStorage,
    /** `modelAccess.rememberModelList`. */
    private readonly enabled: () => boolean,
    private readonly log: (message: string) => void = () => undefined,
    /** The files' prefix: `models` (the last good list) or `seen` (the list last marked as seen). */
    private readonly prefix: 'models' | 'seen' = 'models',
  ) {}

  /** The last good list for this service state, or undefined (none, another key, unreadable — it is then rewritten). */
  async read(state: ServiceState): Promise<SavedList | undefined> {
    const target = await this.target(state);
    if (!target) {
      return undefined;
    }
    let text: string;
    let stamp: string;
    try {
      stamp = stampOf(await fs.stat(target.file), target.binding);
      const known = this.memory.get(target.file);
      if (known?.stamp === stamp) {
        return known.list;
      }
      text = await fs.readFile(target.file, 'utf8');
    } catch {
      this.memory.delete(target.file);
      return undefined;
    }
    const reading = parseCache(text, target.binding, Date.now());
    if (reading.kind === 'corrupt') {
      this.memory.delete(target.file);
      this.log(`The saved model list could not be read (${reading.reason}); it is replaced after the next load.`);
      await fs.rm(target.file, { force: true }).catch(() => undefined);
      return undefined;
    }
    if (reading.kind !== 'ok') {
      return undefined;
    }
    this.remember(target.file, stamp, reading.list);
    return reading.list;
  }

  /** Saves `list` for this service state a moment from now, off the path of the refresh that produced it. */
  write(state: ServiceState, list: SavedList): void {
    const scheduled = this.target(state).then((target) => {
      if (!target) {
        return;
      }
      const previous = this.pending.get(target.file);
      if (previous) {
        clearTimeout(previous.timer);
      }
      const write = async () => {
        this.pending.delete(target.file);
        await this.writeNow(target, list);
      };
      this.pending.set(target.file, { timer: setTimeout(() => void write(), WRITE_DELAY_MS), write });
    });
    this.scheduling.add(scheduled);
    void scheduled.finally(() => this.scheduling.delete(scheduled));
  }

  /** Writes what is scheduled now (on shutdown, and in tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.scheduling]);
    const writes = [...this.pending.values()];
    for (const w of writes) {
      clearTimeout(w.timer);
    }
    await Promise.all(writes.map((w) => w.write()));
  }

  /** Removes every saved list (the setting was turned off). */
  async clear(): Promise<void> {
    for (const w of this.pending.values()) {
      clearTimeout(w.timer);
    }
    this.pending.clear();
    this.memory.clear();
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.startsWith(`${this.prefix}-`) && /^[a-z]+-[0-9a-f]+\.json/.test(n))
        .map((n) => fs.rm(path.join(this.dir, n), { force: true })),
    );
  }

  /** The file a state's list lives in (for tests that damage it); undefined when nothing would be cached. */
  async fileFor(state: ServiceState): Promise<string | undefined> {
    return (await this.target(state))?.file;
  }

  private async writeNow(target: Target, list: SavedList): Promise<void> {
    if (!this.enabled()) {
      return;
    }
    const tmp = `${target.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.mkdir(this.dir, { recursive: true });
      await fs.writeFile(tmp, serializeCache(target.binding, list), { encoding: 'utf8', mode: 0o600 });
      // Another window reading meanwhile sees the old file or the new one, never half of one.
      await fs.rename(tmp, target.file);
      this.remember(target.file, stampOf(await fs.stat(target.file), target.binding), list);
    } catch (e) {
      this.memory.delete(target.file);
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      this.log(`The model list could not be saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private remember(file: string, stamp: string, list: SavedList): void {
    if (this.prefix === 'seen') {
      this.memory.set(file, { stamp, list });
    }
  }

  private async target(state: ServiceState): Promise<Target | undefined> {
    if (!this.enabled() || state.setup !== 'ready' || !state.identity || !state.baseUrl) {
      return undefined;
    }
    const origin = scopeOf(state.baseUrl.url);
    const salt = origin && (await this.getSalt());
    if (!origin || !salt) {
      return undefined;
    }
    const environment = state.environment ?? '';
    return {
      binding: { environment, origin, fingerprint: fingerprint(salt, state.identity) },
      file: path.join(this.dir, cacheFileName(environment, origin, this.prefix)),
    };
  }

  private getSalt(): Promise<Buffer | undefined> {
    this.salt ??= (async () => {
      try {
        const stored = await this.secrets.get(SALT_SECRET);
        if (stored) {
          return Buffer.from(stored, 'base64');
        }
        await this.secrets.store(SALT_SECRET, randomBytes(32).toString('base64'));
        // Two windows may have stored one each at the same time: use the one that stayed.
        const kept = await this.secrets.get(SALT_SECRET);
        return kept ? Buffer.from(kept, 'base64') : undefined;
      } catch {
        // No SecretStorage (no keyring): no cache rather than a weaker fingerprint.
        this.salt = undefined;
        return undefined;
      }
    })();
    return this.salt;
  }
}
