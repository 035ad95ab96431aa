/**
 * The files a payload names beside it — its `// @each` dataset, its `// @expect schema` files — read the one
 * way every feature reads them (the editor's dataset variables, Test Explorer's checks): an open editor's text
 * first (what the person sees, saved or not), else the file. Only inside the payload's workspace folder, or the
 * scratch folder for a scratch payload: a payload from a repository must not send `../../.ssh/id_rsa` or a
 * committed symlink's target to the service as dataset rows. Real paths are compared, so a symlink that points
 * out is refused too (the command line has the same rule, src/cli/files.ts).
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { isInside } from '../domain/payload/kind';

export type PayloadFile =
  | { ok: true; text: string }
  /** `outside`: the name leads out of the payload's folder; `missing`: nothing can be read there. */
  | { ok: false; reason: 'outside' | 'missing' };

/** The folder a payload's files must stay in: its workspace folder, the scratch folder, else its own folder. */
function rootOf(payload: vscode.Uri, scratch: vscode.Uri): vscode.Uri {
  if (isInside(payload, scratch)) {
    return scratch;
  }
  return vscode.workspace.getWorkspaceFolder(payload)?.uri ?? vscode.Uri.joinPath(payload, '..');
}

/** The real path of a file-scheme URI (symlinks resolved), or the URI itself for other schemes. */
async function real(uri: vscode.Uri): Promise<vscode.Uri> {
  return uri.scheme === 'file' ? vscode.Uri.file(await fs.realpath(uri.fsPath)) : uri;
}

/** The text of the file `name` (relative to the payload's folder), if it lies inside the payload's root. */
export async function readPayloadFile(payload: vscode.Uri, name: string, scratch: vscode.Uri): Promise<PayloadFile> {
  const target = vscode.Uri.joinPath(payload, '..', name);
  const root = rootOf(payload, scratch);
  let resolved: vscode.Uri;
  try {
    resolved = await real(target);
    if (!isInside(resolved, await real(root))) {
      return { ok: false, reason: 'outside' };
    }
  } catch {
    // realpath failed: the file (or its folder) does not exist. An open, unsaved editor may still hold it.
    if (!isInside(target, root)) {
      return { ok: false, reason: 'outside' };
    }
    resolved = target;
  }
  const open = vscode.workspace.textDocuments.find(
    (d) => d.uri.toString() === target.toString() || d.uri.toString() === resolved.toString(),
  );
  if (open) {
    return { ok: true, text: open.getText() };
  }
  try {
    return { ok: true, text: new TextDecoder().decode(await vscode.workspace.fs.readFile(resolved)) };
  } catch {
    return { ok: false, reason: 'missing' };
  }
}
