import * as vscode from 'vscode';
import { fileExists } from '../../platform/fileExists';
import type { PostEndpoint } from '../../api/types';
import { endpointInfo, withEndpoint } from '../../domain/payload/endpointHeader';
import { COPIED_SCRATCH_ENDING, scratchOrigin, type ScratchOrigin } from '../../domain/payload/kind';
import { INPUT_PLACEHOLDER } from './core/templates';
import { payloadColumn } from '../answers/answerPlacement';

/**
 * Scratch payloads are real files in the extension's global storage: they survive restarts and can be
 * saved elsewhere like any file.
 */
export class ScratchFiles {
  constructor(private readonly storage: vscode.Uri) {}

  get folder(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'scratch');
  }

  /** Whether `uri` is one of our scratch files. */
  contains(uri: vscode.Uri): boolean {
    return uri.scheme === this.folder.scheme && uri.path.startsWith(`${this.folder.path}/`);
  }

  /** Where `uri` stands for `{{$env NAME}}`: one of the person's own scratch payloads, copied in, or outside. */
  originOf(uri: vscode.Uri): ScratchOrigin {
    return scratchOrigin(uri, this.folder);
  }

  /**
   * Writes a new scratch file with `payload` under its endpoint header, opens it, selects the input text.
   * `from` is where the text comes from: the person (New Request), the file it was copied from (a Fork, a
   * copy), or `elsewhere` (a curl command, a history entry without its file). Text that is not from one of
   * the person's own scratch payloads goes to a `.copied.jsonc` file, which keeps the `{{$env}}` policy of a
   * file outside the folder (kind.ts `ScratchOrigin`).
   */
  async create(
    endpoint: PostEndpoint,
    payload: string,
    from: 'own' | 'elsewhere' | vscode.Uri = 'own',
  ): Promise<vscode.TextEditor> {
    await vscode.workspace.fs.createDirectory(this.folder);
    const kind = endpointInfo(endpoint)?.kind ?? 'request';
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const copied = from === 'elsewhere' || (from !== 'own' && this.originOf(from) !== 'own');
    const ending = copied ? COPIED_SCRATCH_ENDING : '.jsonc';
    let uri = vscode.Uri.joinPath(this.folder, `${kind}-${stamp}${ending}`);
    for (let n = 2; await fileExists(uri); n++) {
      uri = vscode.Uri.joinPath(this.folder, `${kind}-${stamp}-${n}${ending}`);
    }
    const text = `${withEndpoint(payload.trimEnd(), endpoint)}\n`;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    // Never over a conversation panel in front: beside it, in the payloads' group. The prompt's placeholder is
    // selected as the editor opens (not a moment later), so what a person types at once replaces it.
    const at = text.indexOf(INPUT_PLACEHOLDER);
    const selection =
      at >= 0 ? new vscode.Range(positionIn(text, at), positionIn(text, at + INPUT_PLACEHOLDER.length)) : undefined;
    return vscode.window.showTextDocument(uri, { preview: false, viewColumn: payloadColumn(), selection });
  }

  /** Scratch files, newest first. */
  async list(): Promise<vscode.Uri[]> {
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.folder);
      const files = entries
        .filter(([, type]) => type === vscode.FileType.File)
        .map(([name]) => vscode.Uri.joinPath(this.folder, name));
      const stats = await Promise.all(
        files.map(async (uri) => ({ uri, mtime: (await vscode.workspace.fs.stat(uri)).mtime })),
      );
      return stats.sort((a, b) => b.mtime - a.mtime).map((s) => s.uri);
    } catch {
      return [];
    }
  }
}

/** The line and character of an offset in `text` (the file as written, before any editor has it). */
function positionIn(text: string, offset: number): vscode.Position {
  const before = text.slice(0, offset).split('\n');
  return new vscode.Position(before.length - 1, before[before.length - 1].length);
}
