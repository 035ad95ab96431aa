import type * as vscode from 'vscode';

/**
 * Calls `onChange` with the rest of the name when a secret under `prefix` changes, in this window or another
 * (SecretStorage reports both).
 */
export function onSecretChange(
  secrets: vscode.SecretStorage,
  prefix: string,
  onChange: (rest: string) => void,
): vscode.Disposable {
  return secrets.onDidChange((e) => {
    if (e.key.startsWith(prefix)) {
      onChange(e.key.slice(prefix.length));
    }
  });
}
