import * as vscode from 'vscode';
import { Settings } from '../ids';
import { Lifecycle } from '../platform/lifecycle';
import { globMatcher, isIgnored, parseIgnoreFile, type IgnoreFile } from './core/ignoreRules';
import { isReferenceFile } from './core/matcher';
import { DEFAULT_EXCLUDE } from './core/scan';

/** Glob keys of a `files.exclude` / `search.exclude` object that are on (`true`; a `when` clause counts as on). */
function onKeys(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return Object.entries(value as Record<string, unknown>)
    .filter(([, on]) => on === true || (typeof on === 'object' && on !== null))
    .map(([glob]) => glob);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/**
 * Which files the references read: `modelAccess.references.include` (default: the languages the matcher knows),
 * less `modelAccess.references.exclude`, `files.exclude` and `search.exclude` (`.gitignore` is the scan's).
 * A change of any of them fires `onDidChange` (the index scans again).
 */
export class ReferenceScope extends Lifecycle {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private read:
    | {
        include: string[];
        exclude: string[];
        included: ((relative: string) => boolean)[];
        excluded: ((relative: string) => boolean)[];
      }
    | undefined;

  constructor() {
    super();
    this.own(
      this._onDidChange,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (
          e.affectsConfiguration(`${Settings.section}.references`) ||
          e.affectsConfiguration('files.exclude') ||
          e.affectsConfiguration('search.exclude')
        ) {
          this.read = undefined;
          this._onDidChange.fire();
        }
      }),
    );
  }

  private get settings(): NonNullable<ReferenceScope['read']> {
    if (!this.read) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? null;
      const own = vscode.workspace.getConfiguration(Settings.section, folder);
      const include = strings(own.get(Settings.referencesInclude));
      const exclude = [
        ...DEFAULT_EXCLUDE,
        ...strings(own.get(Settings.referencesExclude)),
        // Resource-scoped: the first folder's (a multi-root workspace's folders share the scan's one list).
        ...onKeys(vscode.workspace.getConfiguration('files', folder).get('exclude')),
        ...onKeys(vscode.workspace.getConfiguration('search', folder).get('exclude')),
      ];
      this.read = {
        include,
        exclude,
        included: include.map(globMatcher),
        excluded: exclude.map(globMatcher),
      };
    }
    return this.read;
  }

  /** The include globs (empty: the default languages). */
  get include(): string[] | undefined {
    const include = this.settings.include;
    return include.length > 0 ? include : undefined;
  }

  get exclude(): string[] {
    return this.settings.exclude;
  }

  /** Whether one file is read (for a file created, changed or typed in after the scan). */
  async covers(uri: vscode.Uri): Promise<boolean> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || uri.scheme !== 'file') {
      return false;
    }
    const relative = uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
    const { included, excluded } = this.settings;
    // A glob matches the path or any folder above it (`**/node_modules` excludes what is inside).
    const parts = relative.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    if (excluded.some((test) => prefixes.some((p) => test(p)))) {
      return false;
    }
    if (!(included.length > 0 ? included.some((test) => test(relative)) : isReferenceFile(relative))) {
      return false;
    }
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      return stat.type === vscode.FileType.File && !(await ignoredByGit(folder.uri, parts));
    } catch {
      return false;
    }
  }
}

/** Whether the `.gitignore` files from the folder down to the file's own folder ignore it or a folder above it. */
async function ignoredByGit(root: vscode.Uri, parts: readonly string[]): Promise<boolean> {
  const files: IgnoreFile[] = [];
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join('/');
    try {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, base, '.gitignore'));
      files.push(parseIgnoreFile(new TextDecoder().decode(bytes), base));
    } catch {
      // No .gitignore in this folder.
    }
    // The walk never enters an ignored folder: test each one on the way down.
    const below = parts.slice(0, depth + 1).join('/');
    if (files.length > 0 && isIgnored(files, below, depth + 1 < parts.length)) {
      return true;
    }
  }
  return false;
}
