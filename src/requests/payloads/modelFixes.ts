import * as vscode from 'vscode';
import type { ModelCatalog } from '../../platform/catalog';
import { literalOf, literalStringContent } from '../../domain/payload/variables';
import { modelProblem } from './core/modelProblems';

/**
 * Quick fixes of the model warnings (ModelDiagnostics): write the closest listed id, the newest model of the
 * family, or the successor the registry names, in place of the value between the quotes. Only the value
 * changes; the rest of the payload stays as typed. The id is registry text, written literally
 * (literalStringContent): sent as listed, never read as a `{{…}}` reference.
 */
export class ModelFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly catalog: ModelCatalog) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== 'Model Access' || (d.code !== 'unknownModel' && d.code !== 'retiringModel')) {
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(doc.getText(d.range));
      } catch {
        continue;
      }
      if (typeof value !== 'string') {
        continue;
      }
      const id = literalOf(value);
      const problem = id === undefined ? undefined : modelProblem(id, this.catalog.models, Date.now());
      // Inside the quotes: the fix replaces the id and keeps the string's quotes.
      const inner = new vscode.Range(d.range.start.translate(0, 1), d.range.end.translate(0, -1));
      problem?.fixes.forEach((fix, i) => {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [d];
        action.isPreferred = i === 0;
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(doc.uri, inner, literalStringContent(fix.id));
        out.push(action);
      });
    }
    return out;
  }
}
