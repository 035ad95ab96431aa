/** Whether a file or folder is there, through VS Code's file system (so remote and virtual workspaces too). */
import * as vscode from 'vscode';

export async function fileExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
