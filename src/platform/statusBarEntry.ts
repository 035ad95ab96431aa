import * as vscode from 'vscode';
import { Lifecycle } from './lifecycle';

/** A status bar item that re-renders on the events it follows and goes away with its owner. */
export abstract class StatusBarEntry extends Lifecycle {
  readonly item: vscode.StatusBarItem;

  protected constructor(id: string, name: string, priority: number) {
    super();
    this.item = vscode.window.createStatusBarItem(id, vscode.StatusBarAlignment.Left, priority);
    this.item.name = name;
    this.own(this.item);
  }

  /** Renders now and again on each event. Called by the subclass once its own fields are set. */
  protected follow(...events: vscode.Event<unknown>[]): void {
    this.own(...events.map((event) => event(() => this.update())));
    this.update();
  }

  /** A tooltip headed by `title`, whose text stays plain (service text never becomes a link or command). */
  protected tooltip(title: string): vscode.MarkdownString {
    const md = new vscode.MarkdownString('', true);
    md.isTrusted = false;
    md.appendMarkdown(`**${title}**\n\n`);
    return md;
  }

  protected abstract update(): void;
}
