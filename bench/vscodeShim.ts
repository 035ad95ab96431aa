/**
 * The few `vscode` classes the explorer's tree code constructs, for measuring it in plain Node.
 * Behaviour follows VS Code where it costs something (MarkdownString escaping); the rest is data.
 */
export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: unknown,
  ) {}
}

export class MarkdownString {
  isTrusted = false;
  supportHtml = false;
  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}
  appendText(value: string): this {
    // As VS Code does: escape Markdown syntax, keep runs of spaces and line breaks visible.
    this.value += value
      .replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, '\\$&')
      .replace(/([ \t]+)/g, (_, g: string) => '&nbsp;'.repeat(g.length))
      .replace(/\n/g, '\n\n');
    return this;
  }
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
}

export class TreeItem {
  id?: string;
  description?: string | boolean;
  contextValue?: string;
  iconPath?: unknown;
  tooltip?: unknown;
  command?: unknown;
  accessibilityInformation?: unknown;
  constructor(
    public label: unknown,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class Disposable {
  constructor(private readonly fn: () => void) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Array<(e: T) => void> = [];
  readonly event = (listener: (e: T) => void): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };
  fire(e: T): void {
    this.listeners.forEach((l) => l(e));
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** `vscode.l10n.t` without a bundle: the English message with `{0}`, `{1}`… (or `{name}`) filled in, as VS Code does. */
export const l10n = {
  t(message: string, ...args: unknown[]): string {
    const values: Record<string, unknown> =
      args.length === 1 && typeof args[0] === 'object' && args[0] !== null
        ? (args[0] as Record<string, unknown>)
        : { ...args };
    return message.replace(/\{([^}]+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
  },
};
