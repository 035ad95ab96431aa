import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { describeFailure } from '../domain/failure';
import type { RedactingLog } from '../platform/log';
import { prettyJson } from '../common/prettyJson';
import { clean, displayText } from '../common/text';
import { l10n } from '../platform/l10n';
import type { Ui } from '../platform/ui';
import { commandEnvironment } from '../platform/environments';
import type { Services } from '../services';

export const INSPECT_SCHEME = 'model-access-model';

/** The outcome of an inspect, for tests: the document shown, or the message given instead. */
export interface InspectOutcome {
  document?: vscode.TextDocument;
  message?: string;
}

/**
 * Read-only documents showing `GET /v1/models/{id}` as pretty JSON, one per model, titled by the id.
 * Inspecting again re-fetches and updates the open document.
 */
export class ModelDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly log: RedactingLog) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(INSPECT_SCHEME, this);
  }

  /**
   * `model-access-model:/<id>.json?id=<id>` — the path gives the tab title, the query the exact id. With
   * `environment` (a row under that environment's root) the title and query name it too: the same id in two
   * environments is two documents, each with its own service's answer.
   */
  static uriFor(id: string, environment?: string): vscode.Uri {
    const title = displayText(id, 120).replace(/[/\\]/g, '∕') || l10n.t('model');
    const where = environment === undefined ? '' : ` · ${displayText(environment, 40).replace(/[/\\]/g, '∕')}`;
    return vscode.Uri.from({
      scheme: INSPECT_SCHEME,
      path: `/${title}${where}.json`,
      query: new URLSearchParams(environment === undefined ? { id } : { id, environment }).toString(),
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ?? `// ${l10n.t('Run "Model Access: Inspect Model" to load this model.')}\n`
    );
  }

  /** `environment`: the environment whose service `fetch` asks, when it is not simply the active one. */
  async inspect(
    model: ModelEntry,
    fetch: (id: string) => Promise<ModelEntry>,
    ui: Ui,
    environment?: string,
  ): Promise<InspectOutcome> {
    const name = displayText(model.id, 80);
    let entry: ModelEntry;
    try {
      entry = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: l10n.t('Inspecting {0}', name) },
        () => fetch(model.id),
      );
    } catch (e) {
      const failure = describeFailure(e);
      const message =
        failure.kind === 'notFound' || failure.status === 404
          ? l10n.t('The model “{0}” is not available to your organization (404).', name)
          : l10n.t('Could not inspect “{0}”: {1}', name, clean(failure.message));
      const full = failure.requestId ? l10n.t('{0} (request id {1})', message, clean(failure.requestId)) : message;
      this.log.warn(full);
      void ui.warn(displayText(this.log.redactor.redact(full), 600));
      return { message: full };
    }
    const uri = ModelDocuments.uriFor(model.id, environment);
    const body =
      entry.raw !== undefined
        ? entry.raw
        : { id: entry.id, family: entry.family, version: entry.version, model_card_url: entry.cardUrl };
    const json = prettyJson(body);
    const text = `${json.flat ? `// ${l10n.t('Nested too deeply to indent: shown as one line.')}\n` : ''}${json.text}\n`;
    this.contents.set(uri.toString(), this.log.redactor.redact(text));
    this._onDidChange.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return { document };
  }

  dispose(): void {
    this.registration.dispose();
    this._onDidChange.dispose();
    this.contents.clear();
  }
}

/**
 * Inspect `model` as the service of `environment` answers it (a row under that environment's root), or the
 * active environment's when none is named. Undefined when the named environment is no longer configured
 * (the person is told).
 */
export async function inspectIn(
  services: Pick<Services, 'environments' | 'ui' | 'connection'>,
  documents: ModelDocuments,
  model: ModelEntry,
  environment?: string,
): Promise<InspectOutcome | undefined> {
  const target = commandEnvironment(services.environments, services.ui, { environment });
  if (!target) {
    return undefined;
  }
  return documents.inspect(
    model,
    async (id) => (await services.connection.getClient(target.env)).getModel(id),
    services.ui,
    target.name,
  );
}
