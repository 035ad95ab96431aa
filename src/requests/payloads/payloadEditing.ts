import { getLocation, parseTree, findNodeAtLocation } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { ModelEntry } from '../../api/types';
import { Commands } from '../../ids';
import type { ModelCatalog } from '../../platform/catalog';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { jsonStringContent } from '../../domain/payload/parse';
import { isPayloadDocument } from '../../domain/payload/kind';
import { clean, displayText } from '../../common/text';
import { l10n } from '../../platform/l10n';
import type { ScratchFiles } from './scratchFiles';
import { Lifecycle } from '../../platform/lifecycle';

export const PAYLOAD_SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];

/**
 * A payload is a scratch file or any JSON document whose first line records an endpoint (domain/payload/kind.ts).
 * The selector only narrows to JSON; every provider checks this before doing anything.
 */
export function isPayload(doc: vscode.TextDocument, scratch: ScratchFiles): boolean {
  return isPayloadDocument(
    { languageId: doc.languageId, uri: doc.uri, firstLine: doc.lineCount > 0 ? doc.lineAt(0).text : '' },
    scratch.folder,
  );
}

/** Send / Change endpoint / Copy as Code over a payload. */
export class PayloadCodeLens implements vscode.CodeLensProvider {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this._onDidChange.event;

  /** @param answered whether a payload has an answer (Reply is offered then). */
  constructor(
    private readonly scratch: ScratchFiles,
    private readonly answered: (uri: vscode.Uri) => boolean = () => false,
  ) {}

  refresh(): void {
    this._onDidChange.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!isPayload(doc, this.scratch)) {
      return [];
    }
    const endpoint = readEndpoint(doc.lineAt(0).text);
    const range = new vscode.Range(0, 0, 0, 0);
    const conversation = endpoint === '/v1/chat' || endpoint === '/v1/responses';
    return [
      new vscode.CodeLens(range, {
        title: endpoint ? l10n.t('$(play) Send to POST {0}', clean(endpoint)) : l10n.t('$(play) Send…'),
        command: Commands.sendRequest,
        arguments: [doc.uri],
      }),
      new vscode.CodeLens(range, {
        title: l10n.t('Change endpoint'),
        command: Commands.changeEndpoint,
        arguments: [doc.uri],
      }),
      new vscode.CodeLens(range, {
        title: l10n.t('Copy as Code…'),
        command: Commands.copyAsCode,
        arguments: [doc.uri],
      }),
      ...(conversation && this.answered(doc.uri)
        ? [
            new vscode.CodeLens(range, {
              title: l10n.t('$(reply) Reply'),
              command: Commands.reply,
              arguments: [doc.uri],
            }),
          ]
        : []),
      ...(conversation
        ? [
            new vscode.CodeLens(range, {
              title: l10n.t('Show Conversation'),
              command: Commands.showConversation,
              arguments: [doc.uri],
            }),
          ]
        : []),
    ];
  }
}

/** Where the `"model"` string value is in the document, if the cursor or text has one. */
function modelValueAt(
  doc: vscode.TextDocument,
  position: vscode.Position,
): { range: vscode.Range; value: string } | undefined {
  const text = doc.getText();
  const offset = doc.offsetAt(position);
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey || location.path.length !== 1 || location.path[0] !== 'model') {
    return undefined;
  }
  const node = location.previousNode;
  if (!node || node.type !== 'string') {
    return undefined;
  }
  return {
    range: new vscode.Range(doc.positionAt(node.offset + 1), doc.positionAt(node.offset + node.length - 1)),
    value: String(node.value),
  };
}

function detail(m: ModelEntry): string {
  return [m.family, m.version].filter(Boolean).join(' · ');
}

/** Completion of `"model"` values with the organization's model ids. */
export class ModelCompletion implements vscode.CompletionItemProvider {
  constructor(
    private readonly catalog: ModelCatalog,
    private readonly scratch: ScratchFiles,
  ) {}

  async provideCompletionItems(
    doc: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<vscode.CompletionItem[] | undefined> {
    if (!isPayload(doc, this.scratch)) {
      return undefined;
    }
    const at = modelValueAt(doc, position);
    if (!at) {
      return undefined;
    }
    if (this.catalog.models.length === 0) {
      await this.catalog.ensureLoaded(); // The first completion may come before the Models view ever loaded.
    }
    return this.catalog.models.map((m, i) => {
      const item = new vscode.CompletionItem(
        { label: displayText(m.id, 200), description: displayText(detail(m), 120) },
        vscode.CompletionItemKind.Value,
      );
      item.detail = displayText(detail(m), 120) || undefined;
      item.range = at.range;
      // Inside the quotes: escaped, so an id with `"` or `\` stays one string.
      item.insertText = jsonStringContent(m.id);
      item.filterText = jsonStringContent(m.id);
      item.sortText = String(i).padStart(6, '0');
      return item;
    });
  }
}

/**
 * A hover for payload documents only. Its text is plain: registry and environment values are shown as
 * typed, never as Markdown, links, HTML or commands.
 */
export function registerPayloadHover(
  scratch: ScratchFiles,
  hover: (doc: vscode.TextDocument, position: vscode.Position, md: vscode.MarkdownString) => vscode.Range | undefined,
): vscode.Disposable {
  return vscode.languages.registerHoverProvider(PAYLOAD_SELECTOR, {
    provideHover(doc, position) {
      if (!isPayload(doc, scratch)) {
        return undefined;
      }
      const md = new vscode.MarkdownString();
      md.isTrusted = false;
      md.supportHtml = false;
      const range = hover(doc, position, md);
      return range && new vscode.Hover(md, range);
    },
  });
}

/** Hover over a model id: family, version and card link. */
export function modelHover(catalog: ModelCatalog, scratch: ScratchFiles): vscode.Disposable {
  return registerPayloadHover(scratch, (doc, position, md) => {
    const at = modelValueAt(doc, position);
    const model = at && catalog.models.find((m) => m.id === at.value);
    if (!at || !model) {
      return undefined;
    }
    md.appendText(displayText(model.id, 300));
    md.appendMarkdown('\n\n');
    md.appendText(l10n.t('Family: {0}', displayText(model.family, 200) || clean('—')));
    md.appendMarkdown('  \n');
    md.appendText(l10n.t('Version: {0}', displayText(model.version, 200) || clean('—')));
    if (model.cardUrl) {
      md.appendMarkdown('\n\n');
      md.appendText(l10n.t('Model Card: {0}', displayText(model.cardUrl, 300)));
    }
    return at.range;
  });
}

/** A warning when a payload names a model the catalog does not list. */
export class ModelDiagnostics extends Lifecycle {
  private readonly collection = vscode.languages.createDiagnosticCollection('model-access-models');

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly scratch: ScratchFiles,
  ) {
    super();
    this.own(
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
      catalog.onDidChange(() => vscode.workspace.textDocuments.forEach((d) => this.check(d))),
    );
    vscode.workspace.textDocuments.forEach((d) => this.check(d));
  }

  check(doc: vscode.TextDocument): void {
    if (!isPayload(doc, this.scratch) || this.catalog.models.length === 0) {
      this.collection.delete(doc.uri);
      return;
    }
    const tree = parseTree(doc.getText());
    const node = tree && findNodeAtLocation(tree, ['model']);
    // A `{{…}}` model is checked by the variable diagnostics, against the environment's values.
    if (
      !node ||
      node.type !== 'string' ||
      String(node.value).includes('{{') ||
      this.catalog.models.some((m) => m.id === node.value)
    ) {
      this.collection.delete(doc.uri);
      return;
    }
    const range = new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length));
    const d = new vscode.Diagnostic(
      range,
      l10n.t(
        '"{0}" is not one of your organization\'s models (the Models view lists them).',
        displayText(node.value, 200),
      ),
      vscode.DiagnosticSeverity.Warning,
    );
    d.source = 'Model Access';
    this.collection.set(doc.uri, [d]);
  }

  override dispose(): void {
    this.collection.dispose();
    super.dispose();
  }
}
