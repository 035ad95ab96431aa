import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { debounce } from '../common/debounce';
import { readEndpoint } from '../domain/payload/endpointHeader';
import { l10n } from '../platform/l10n';
import { Lifecycle } from '../platform/lifecycle';
import type { RedactingLog } from '../platform/log';
import { findModelReferences } from './core/matcher';
import { scanFolders, scanOneFile } from './core/scan';
import type { ModelReference } from './core/types';
import type { RegistrySnapshot } from './registrySnapshot';
import { ReferenceScope } from './scope';

/** The references of one file. */
export interface FileReferences {
  readonly uri: vscode.Uri;
  readonly refs: readonly ModelReference[];
  /** A payload (its first line names an endpoint): its own diagnostics cover it; checks can run it. */
  readonly payload: boolean;
}

/** A scan that takes longer than this shows its progress (a shorter one would only flicker). */
const PROGRESS_AFTER_MS = 1000;
/** Edits in an open file are read again this long after the last keystroke. */
const TYPING_MS = 300;

/**
 * The index of the registry's model ids as the workspace's files name them: built in the background at start
 * and after every registry refresh (each scan cancels the one before), kept current per file on change,
 * create, delete and save, and live while an open file is edited. It only reads, so it works in Restricted
 * Mode. Without a registry (no list loaded) it holds nothing: nothing is called unknown then.
 */
export class ReferenceIndex extends Lifecycle {
  private readonly files = new Map<string, FileReferences>();
  private snapshot: RegistrySnapshot | undefined;
  private scanning: { abort: AbortController; done: Promise<void> } | undefined;
  private pending = new Set<Promise<unknown>>();
  private generation = 0;
  private readonly scope = new ReferenceScope();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** What the index holds changed (a scan ended, a file was read again). */
  readonly onDidChange = this._onDidChange.event;
  private readonly typing = new Map<string, () => void>();

  constructor(private readonly log: RedactingLog) {
    super();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.own(
      this._onDidChange,
      this.scope,
      watcher,
      watcher.onDidCreate((uri) => this.track(this.readFile(uri))),
      watcher.onDidChange((uri) => {
        // An open file's text is what counts (it may be ahead of the disk).
        if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.isDirty)) {
          this.track(this.readFile(uri));
        }
      }),
      watcher.onDidDelete((uri) => this.forgetUnder(uri)),
      vscode.workspace.onDidSaveTextDocument((d) => this.track(this.readFile(d.uri))),
      vscode.workspace.onDidCloseTextDocument((d) => this.track(this.readFile(d.uri))),
      vscode.workspace.onDidChangeTextDocument((e) => this.typed(e.document)),
      this.scope.onDidChange(() => this.rebuild()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rebuild()),
    );
  }

  /** Every file that names a model, by URI string. */
  get all(): ReadonlyMap<string, FileReferences> {
    return this.files;
  }

  get registry(): RegistrySnapshot | undefined {
    return this.snapshot;
  }

  /** The references of one file (an open file's as last typed). */
  referencesOf(uri: vscode.Uri): FileReferences | undefined {
    return this.files.get(uri.toString());
  }

  /** Takes a new registry (or none: the registry is unknown, and the index empties) and scans again. */
  setRegistry(snapshot: RegistrySnapshot | undefined): void {
    this.snapshot = snapshot;
    this.log.info(
      snapshot
        ? `Model references: ${snapshot.listed.size} models listed, ${snapshot.gone.size} gone since last seen`
        : 'Model references: no model list; nothing is judged until one loads',
    );
    this.rebuild();
  }

  /** Resolves once no scan or file update is running. */
  async settled(): Promise<void> {
    while (this.scanning || this.pending.size > 0) {
      await Promise.allSettled([this.scanning?.done, ...this.pending]);
    }
  }

  /** Scans every workspace folder again (cancels a scan that is running). */
  rebuild(): void {
    this.scanning?.abort.abort();
    const generation = ++this.generation;
    const snapshot = this.snapshot;
    if (!snapshot) {
      this.scanning = undefined;
      if (this.files.size > 0) {
        this.files.clear();
        this._onDidChange.fire();
      }
      return;
    }
    const abort = new AbortController();
    const done = this.scan(snapshot, abort, generation).finally(() => {
      if (this.scanning?.abort === abort) {
        this.scanning = undefined;
      }
    });
    this.scanning = { abort, done };
  }

  private async scan(snapshot: RegistrySnapshot, abort: AbortController, generation: number): Promise<void> {
    const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    if (roots.length === 0) {
      this.log.info('Model references: no folder on this machine to read');
      return;
    }
    const started = Date.now();
    let filesDone = 0;
    let finished = false;
    let resolveFinished: () => void = () => undefined;
    const finishedPromise = new Promise<void>((r) => (resolveFinished = r));
    // Progress only for a scan that takes over a second; cancelling it stops the scan.
    const timer = setTimeout(() => {
      if (finished) {
        return;
      }
      void vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: l10n.t('Model Access: finding model ids in the workspace'),
          cancellable: true,
        },
        async (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          const tick = setInterval(() => progress.report({ message: l10n.t('{0} files read', filesDone) }), 500);
          await finishedPromise;
          clearInterval(tick);
        },
      );
    }, PROGRESS_AFTER_MS);
    try {
      const result = await scanFolders(
        roots.map((f) => f.uri.fsPath),
        {
          ids: snapshot.ids,
          include: this.scope.include,
          exclude: this.scope.exclude,
          signal: abort.signal,
          onProgress: (n) => (filesDone = n),
        },
      );
      if (abort.signal.aborted || generation !== this.generation) {
        return;
      }
      this.files.clear();
      for (const [file, refs] of result.files) {
        if (refs.length > 0) {
          const uri = vscode.Uri.file(file);
          this.files.set(uri.toString(), { uri, refs, payload: await isPayloadFile(file) });
        }
      }
      // Open files count as typed, not as saved.
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.isDirty) {
          this.readDocument(doc);
        }
      }
      const skipped = Object.entries(result.skipped)
        .filter(([, n]) => n > 0)
        .map(([why, n]) => `${n} ${why}`)
        .join(', ');
      this.log.info(
        `Model references: ${result.scanned} files read in ${Date.now() - started} ms, ${this.files.size} name a model` +
          (skipped ? `; skipped: ${skipped}` : ''),
      );
      this._onDidChange.fire();
    } catch (e) {
      if (!abort.signal.aborted) {
        this.log.warn(`Model references: the scan failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    } finally {
      finished = true;
      clearTimeout(timer);
      resolveFinished();
    }
  }

  private track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Reads one file from disk again (created, changed, saved, closed). */
  private async readFile(uri: vscode.Uri): Promise<void> {
    const snapshot = this.snapshot;
    if (!snapshot || uri.scheme !== 'file') {
      return;
    }
    if (this.scanning) {
      // The scan running reads it (or has): its result replaces everything when it ends.
      await this.scanning.done;
      if (this.snapshot !== snapshot) {
        return;
      }
    }
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) {
      this.readDocument(open);
      return;
    }
    if (!(await this.scope.covers(uri))) {
      this.set(uri, []);
      return;
    }
    const refs = await scanOneFile(uri.fsPath, snapshot.ids).catch(() => ({ skipped: 'unreadable' }));
    if (this.snapshot !== snapshot) {
      return;
    }
    if (!Array.isArray(refs)) {
      this.log.info(`Model references: ${vscode.workspace.asRelativePath(uri)} skipped (${refs.skipped})`);
      this.set(uri, []);
      return;
    }
    this.set(uri, refs, refs.length > 0 ? await isPayloadFile(uri.fsPath) : false);
  }

  /** An open file's text, read a moment after the last keystroke. */
  private typed(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file' || !this.snapshot) {
      return;
    }
    const key = doc.uri.toString();
    let run = this.typing.get(key);
    if (!run) {
      run = debounce(() => {
        this.typing.delete(key);
        if (!doc.isClosed) {
          this.track(this.scope.covers(doc.uri).then((inScope) => (inScope ? this.readDocument(doc) : undefined)));
        }
      }, TYPING_MS);
      this.typing.set(key, run);
    }
    run();
  }

  private readDocument(doc: vscode.TextDocument): void {
    const snapshot = this.snapshot;
    if (!snapshot) {
      return;
    }
    const text = doc.getText();
    const refs = findModelReferences(text, doc.uri.fsPath, snapshot.ids);
    this.set(doc.uri, refs, readEndpoint(text) !== undefined);
  }

  private set(uri: vscode.Uri, refs: readonly ModelReference[], payload = false): void {
    const key = uri.toString();
    const before = this.files.get(key);
    if (refs.length === 0) {
      if (before) {
        this.files.delete(key);
        this._onDidChange.fire();
      }
      return;
    }
    if (before && before.payload === payload && sameRefs(before.refs, refs)) {
      return;
    }
    this.files.set(key, { uri, refs, payload });
    this._onDidChange.fire();
  }

  /** A deleted file, or a deleted folder and everything under it. */
  private forgetUnder(uri: vscode.Uri): void {
    const key = uri.toString();
    const prefix = key.endsWith('/') ? key : `${key}/`;
    let changed = false;
    for (const k of [...this.files.keys()]) {
      if (k === key || k.startsWith(prefix)) {
        this.files.delete(k);
        changed = true;
      }
    }
    if (changed) {
      this._onDidChange.fire();
    }
  }

  override dispose(): void {
    this.scanning?.abort.abort();
    super.dispose();
  }
}

function sameRefs(a: readonly ModelReference[], b: readonly ModelReference[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (r, i) => r.id === b[i].id && r.line === b[i].line && r.character === b[i].character && r.listed === b[i].listed,
    )
  );
}

/** A JSON file whose first line names an endpoint is a payload (src/domain/payload/kind.ts). */
async function isPayloadFile(file: string): Promise<boolean> {
  if (!/\.jsonc?$/i.test(file)) {
    return false;
  }
  try {
    const handle = await fs.open(file, 'r');
    try {
      const buffer = Buffer.alloc(200);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return readEndpoint(buffer.subarray(0, bytesRead).toString('utf8')) !== undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}
