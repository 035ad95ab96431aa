import * as vscode from 'vscode';
import type { Redactor } from '../api/redact';
import { Lifecycle } from './lifecycle';

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

/**
 * Secrets of one kind (one name prefix) in SecretStorage. Every value read or written is registered with the
 * log's redactor; a change here or in another window fires `onDidChange`.
 */
export abstract class PrefixedSecrets extends Lifecycle {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a value changes here or in another window. */
  readonly onDidChange = this._onDidChange.event;

  protected constructor(
    protected readonly secrets: vscode.SecretStorage,
    protected readonly redactor: Redactor | undefined,
    prefix: string,
  ) {
    super();
    this.own(
      this._onDidChange,
      onSecretChange(secrets, prefix, () => this._onDidChange.fire()),
    );
  }

  /** Stores `value` under `name`, or removes it when empty. */
  protected async write(name: string, value: string): Promise<void> {
    if (value) {
      this.redactor?.add(value);
      await this.secrets.store(name, value);
    } else {
      await this.secrets.delete(name);
    }
    // SecretStorage fires onDidChange too, but not always before this returns: fire now so the UI follows.
    this._onDidChange.fire();
  }
}
