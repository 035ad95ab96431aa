/**
 * The model references of whole folders, read with node's fs: the walk honours `.gitignore` files (nested
 * ones too, ignoreRules.ts) and `include`/`exclude` globs, never enters `.git`, follows symbolic links
 * but enters no folder twice (a link loop ends there), and reads files a few at a time. A file is skipped,
 * and counted by reason, when it is over 1 MB, binary (a NUL byte in its first 8 KB, as git decides),
 * minified (`*.min.*`, or long lines throughout), a model list saved by `model-access models --save`, or
 * vanishes or cannot be read mid-scan. Cancellable through
 * an AbortSignal: the promise then rejects with the signal's reason. Pure node; no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { globMatcher, isIgnored, parseIgnoreFile, type IgnoreFile } from './ignoreRules';
import { syntaxOf } from './languages';
import { findModelReferences } from './matcher';
import type { IdLookup, ModelReference } from './types';

/** Why a file (or a folder, counted once) was not read. */
export type SkipReason =
  | 'ignored'
  | 'excluded'
  | 'language'
  | 'too-large'
  | 'binary'
  | 'minified'
  | 'model-list'
  | 'symlink-loop'
  | 'vanished'
  | 'unreadable';

export interface ScanOptions {
  ids: IdLookup;
  /** Globs of the files to read (relative to a root); default: the default languages (isReferenceFile). */
  include?: string[];
  /** Globs of files and folders never read; default {@link DEFAULT_EXCLUDE}. */
  exclude?: string[];
  signal?: AbortSignal;
  /** Called as each file is read (or skipped after being picked): the number done so far. */
  onProgress?(filesDone: number): void;
  /** Files read at once; default 8. */
  concurrency?: number;
}

export interface ScanResult {
  /** The files with at least one reference, by absolute path (a root joined with the path below it). */
  files: Map<string, ModelReference[]>;
  /** Files read and matched. */
  scanned: number;
  /** Files and folders left out, by reason (a folder ignored or excluded counts once, not its files). */
  skipped: Partial<Record<SkipReason, number>>;
}

/** Never read unless `exclude` is given: dependencies and version control. */
export const DEFAULT_EXCLUDE = ['node_modules', '.git', '.hg', '.svn'];
export const MAX_FILE_BYTES = 1024 * 1024;
const BINARY_PROBE = 8000;
const MINIFIED_FROM = 4096;
const MINIFIED_LINE = 500;
/**
 * A list `model-access models --save` wrote (cli/modelList.ts, format `model-access/models@…`): it names
 * every model of the registry, and what the code names is the question.
 */
const MODEL_LIST = /^\s*\{\s*"format"\s*:\s*"model-access\/models@/;

/** Whether the text is a model list saved by `model-access models --save`. */
export function isSavedModelList(text: string): boolean {
  return MODEL_LIST.test(text.slice(0, 200));
}

/** Bundles and other minified text: a `.min.` name, or lines that average over 500 characters (JSON data aside). */
export function isMinified(text: string, fileName: string): boolean {
  if (/\.min\.[^./\\]+$/i.test(fileName)) {
    return true;
  }
  const syntax = syntaxOf(fileName);
  if (text.length < MINIFIED_FROM || syntax === 'json' || syntax === 'notebook') {
    return false;
  }
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lines++;
  }
  return text.length / lines > MINIFIED_LINE;
}

function errorReason(e: unknown): SkipReason {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'vanished' : code === 'ELOOP' ? 'symlink-loop' : 'unreadable';
}

/** Opened without waiting: a FIFO must not block the scan until someone writes to it. */
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/**
 * The bytes of a regular file of at most MAX_FILE_BYTES, or why not: one open, one fstat, the reads, one
 * close (a stat by path first would cost a fifth more system calls, most of a scan's time).
 */
async function readSmallFile(file: string): Promise<Buffer | SkipReason> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, OPEN_FLAGS);
  } catch (e) {
    return errorReason(e);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      return stat.isDirectory() ? 'vanished' : 'unreadable';
    }
    if (stat.size > MAX_FILE_BYTES) {
      return 'too-large';
    }
    // One byte more than the size: a file that grew since is seen to have grown.
    const bytes = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, null);
      if (bytesRead === 0) {
        break;
      }
      length += bytesRead;
      if (length === bytes.length) {
        return 'too-large';
      }
    }
    return bytes.subarray(0, length);
  } catch (e) {
    return errorReason(e);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** One file's references, or why it was skipped; its type and the ignore rules are the caller's to decide. */
export async function scanOneFile(file: string, ids: IdLookup): Promise<ModelReference[] | { skipped: SkipReason }> {
  const bytes = await readSmallFile(file);
  if (typeof bytes === 'string') {
    return { skipped: bytes };
  }
  if (bytes.subarray(0, BINARY_PROBE).includes(0)) {
    return { skipped: 'binary' };
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) {
    // An editor shows the text without its byte order mark: columns count from after it.
    text = text.slice(1);
  }
  if (isMinified(text, file)) {
    return { skipped: 'minified' };
  }
  if (isSavedModelList(text)) {
    return { skipped: 'model-list' };
  }
  return findModelReferences(text, file, ids);
}

interface Folder {
  absolute: string;
  /** From its root, `/`-separated; '' for the root. */
  relative: string;
  real: string;
  ignores: IgnoreFile[];
}

/** Every reference under `roots` (folders, or files named directly: those are read whatever their type). */
export async function scanFolders(roots: string[], options: ScanOptions): Promise<ScanResult> {
  const { signal } = options;
  const skipped: Partial<Record<SkipReason, number>> = {};
  const skip = (reason: SkipReason) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const excludes = (options.exclude ?? DEFAULT_EXCLUDE).map(globMatcher);
  const includes = options.include?.map(globMatcher);
  const excluded = (relative: string) => excludes.some((m) => m(relative));
  const wanted = (relative: string, name: string) =>
    includes ? includes.some((m) => m(relative)) : syntaxOf(name) !== undefined;
  const files: string[] = [];
  const seen = new Set<string>();

  const walk = async (folder: Folder) => {
    signal?.throwIfAborted();
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(folder.absolute, { withFileTypes: true });
    } catch (e) {
      skip(errorReason(e));
      return;
    }
    let ignores = folder.ignores;
    if (entries.some((e) => e.name === '.gitignore' && !e.isDirectory())) {
      try {
        const text = await fs.promises.readFile(path.join(folder.absolute, '.gitignore'), 'utf8');
        ignores = [...ignores, parseIgnoreFile(text, folder.relative)];
      } catch {
        // A .gitignore that vanished or cannot be read ignores nothing.
      }
    }
    const below: Folder[] = [];
    // In name order, so a scan reports the same files in the same order on every machine.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = entry.name;
      // Version control's own folder is never read; a .gitignore was read above, as rules.
      if (name === '.git' || (name === '.gitignore' && !entry.isDirectory())) {
        continue;
      }
      const relative = folder.relative === '' ? name : `${folder.relative}/${name}`;
      const absolute = path.join(folder.absolute, name);
      let isFolder = entry.isDirectory();
      let real = `${folder.real}${path.sep}${name}`;
      if (entry.isSymbolicLink()) {
        try {
          isFolder = (await fs.promises.stat(absolute)).isDirectory();
          if (isFolder) {
            real = await fs.promises.realpath(absolute);
          }
        } catch (e) {
          skip(errorReason(e));
          continue;
        }
      } else if (!isFolder && !entry.isFile()) {
        // A socket, a FIFO, a device: nothing to read.
        skip('unreadable');
        continue;
      }
      if (excluded(relative)) {
        skip('excluded');
      } else if (isIgnored(ignores, relative, isFolder)) {
        skip('ignored');
      } else if (isFolder) {
        if (seen.has(real)) {
          skip('symlink-loop');
        } else {
          seen.add(real);
          below.push({ absolute, relative, real, ignores });
        }
      } else if (wanted(relative, name)) {
        files.push(absolute);
      } else {
        skip('language');
      }
    }
    for (const next of below) {
      await walk(next);
    }
  };

  for (const root of roots) {
    signal?.throwIfAborted();
    const absolute = path.resolve(root);
    let stat: fs.Stats;
    let real: string;
    try {
      stat = await fs.promises.stat(absolute);
      real = await fs.promises.realpath(absolute);
    } catch (e) {
      skip(errorReason(e));
      continue;
    }
    if (!stat.isDirectory()) {
      files.push(absolute);
    } else if (!seen.has(real)) {
      seen.add(real);
      await walk({ absolute, relative: '', real, ignores: [] });
    }
  }

  const result: ScanResult = { files: new Map(), scanned: 0, skipped };
  // Read several at once, but keep the walk's order: reads finish in any order, and the CLI's output, the
  // SARIF file and the views must not change from one run to the next.
  const found: (ModelReference[] | undefined)[] = new Array(files.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      signal?.throwIfAborted();
      const index = next++;
      const refs = await scanOneFile(files[index], options.ids);
      if (Array.isArray(refs)) {
        result.scanned++;
        if (refs.length > 0) {
          found[index] = refs;
        }
      } else {
        skip(refs.skipped);
      }
      options.onProgress?.(++done);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 8, files.length));
  await Promise.all(Array.from({ length: workers }, worker));
  signal?.throwIfAborted();
  found.forEach((refs, index) => refs && result.files.set(files[index], refs));
  return result;
}
