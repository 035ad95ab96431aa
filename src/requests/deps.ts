import type * as vscode from 'vscode';
import type { ModelEntry, ModelService } from '../api/types';
import type { Config } from '../platform/config';
import type { Ui } from '../platform/ui';

/** The read side of the model catalog that request features (completion, hover, pickers) use. */
export interface CatalogView {
  readonly models: readonly ModelEntry[];
  readonly onDidChange: vscode.Event<void>;
  /** Loads the list unless it was loaded (or is loading); never throws, failures go to the catalog's status. */
  ensureLoaded(): Promise<void>;
}

/** What the composition root (extension.ts) hands to the scratch-request features. */
export interface RequestDeps {
  context: vscode.ExtensionContext;
  /**
   * The client for the configured service and key. Rejects with a ServiceError of kind `config`
   * (with an actionable message) when no base URL or key is set.
   */
  getClient: () => Promise<ModelService>;
  catalog: CatalogView;
  /** Redacting log channel shared by the whole extension. */
  log: vscode.LogOutputChannel;
  /** Typed settings (templates, default file purpose, response tabs). */
  config: Config;
  /** Removes every key in use (in every echoed form) from text about to be shown, saved or kept. */
  redact: (text: string) => string;
  /** Prompts, messages and clipboard, replaceable by tests. */
  ui: Ui;
}
