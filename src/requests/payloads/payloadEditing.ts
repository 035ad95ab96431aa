import { getLocation, parseTree, findNodeAtLocation } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { ModelEntry } from '../../api/types';
import { Commands } from '../../ids';
import type { ModelCatalog } from '../../platform/catalog';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { literalOf, literalStringContent } from '../../domain/payload/variables';
import { isPayloadDocument, PAYLOAD_LANGUAGES } from '../../domain/payload/kind';
import { clean, displayEnds, displayText } from '../../common/text';
import { l10n } from '../../platform/l10n';
import type { ScratchFiles } from './scratchFiles';
import { Lifecycle } from '../../platform/lifecycle';
import { modelProblem } from './core/modelProblems';

export const PAYLOAD_SELECTOR: vscode.DocumentSelector = PAYLOAD_LANGUAGES.map((language) => ({ language }));

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

/**
 * Two short lenses over a payload: Send, and the conversation (Chat, Responses) or every other action.
 * A longer row is cut at the editor's width (at 900 px with the sidebar open, after "Send to POST /v1/chat");
 * the rest — Change endpoint, Copy as Code, Compare, Reply, Regenerate… — is in Payload Actions (its
 * keybinding, the editor's title bar and context menu), so no action hides past the right edge.
 */
export class PayloadCodeLens implements vscode.CodeLensProvider {
  constructor(private readonly scratch: ScratchFiles) {}

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!isPayload(doc, this.scratch)) {
      return [];
    }
    const endpoint = readEndpoint(doc.lineAt(0).text);
    const range = new vscode.Range(0, 0, 0, 0);
    const conversation = endpoint === '/v1/chat' || endpoint === '/v1/responses';
    return [
      new vscode.CodeLens(range, {
        title: l10n.t('$(play) Send'),
        tooltip: endpoint
          ? l10n.t('Send to POST {0} (Ctrl+Alt+Enter, Cmd+Alt+Enter on macOS)', clean(endpoint))
          : l10n.t('Send: asks for the endpoint (Ctrl+Alt+Enter, Cmd+Alt+Enter on macOS)'),
        command: Commands.sendRequest,
        arguments: [doc.uri],
      }),
      conversation
        ? new vscode.CodeLens(range, {
            title: l10n.t('$(comment-discussion) Conversation'),
            tooltip: l10n.t('The conversation of this payload, rendered'),
            command: Commands.showConversation,
            arguments: [doc.uri],
          })
        : new vscode.CodeLens(range, {
            title: l10n.t('Actions…'),
            tooltip: l10n.t(
              'Payload Actions: Change endpoint, Copy as Code, Compare… (Ctrl+Shift+Alt+Enter, Cmd+Shift+Alt+Enter on macOS)',
            ),
            command: Commands.payloadActions,
            arguments: [doc.uri],
          }),
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
        // The id's end stays in view: a long one is shown by both ends (the whole id is what is inserted).
        { label: displayEnds(m.id, 60), description: displayText(detail(m), 120) },
        vscode.CompletionItemKind.Value,
      );
      item.detail = displayText(detail(m), 120) || undefined;
      item.range = at.range;
      // Inside the quotes: escaped, so an id with `"` or `\` stays one string and one with `{{` stays text
      // (a plain string, not a snippet: `$` means nothing in it).
      item.insertText = literalStringContent(m.id);
      item.filterText = literalStringContent(m.id);
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
    // An id written literally (`\{{`) is the id it sends.
    const model = at && catalog.models.find((m) => m.id === (literalOf(at.value) ?? at.value));
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
    // A `{{…}}` model is checked by the variable diagnostics, against the environment's values; an id written
    // literally (`\{{`) is checked as the id it sends.
    const id = node && node.type === 'string' ? literalOf(String(node.value)) : undefined;
    const problem = id !== undefined ? modelProblem(id, this.catalog.models, Date.now()) : undefined;
    if (!node || !problem) {
      this.collection.delete(doc.uri);
      return;
    }
    const range = new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length));
    const d = new vscode.Diagnostic(range, problem.message, vscode.DiagnosticSeverity.Warning);
    d.source = 'Model Access';
    // The quick fixes (modelFixes.ts) are worked out again from the code when asked for.
    d.code = problem.code;
    this.collection.set(doc.uri, [d]);
  }

  override dispose(): void {
    this.collection.dispose();
    super.dispose();
  }
}
