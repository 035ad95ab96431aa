import type * as vscode from 'vscode';

/** Owns listeners and registrations and disposes them together with itself, last owned first. */
export abstract class Lifecycle implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];

  protected own(...items: vscode.Disposable[]): void {
    this.owned.push(...items);
  }

  dispose(): void {
    for (const item of this.owned.splice(0).reverse()) {
      item.dispose();
    }
  }
}
