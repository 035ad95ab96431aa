import * as vscode from 'vscode';
import { displayText } from '../common/text';
import { Commands } from '../ids';
import { l10n } from '../platform/l10n';
import type { ModelReference } from './core/types';
import { rangeOf, referenceAt, switchEdit, writtenId } from './edits';
import type { ReferenceArgs } from './hover';
import type { FileReferences, ReferenceIndex } from './referenceIndex';

/** A code action whose workspace edit (every file) is built only when it is chosen. */
class AllFilesAction extends vscode.CodeAction {
  constructor(
    title: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(title, vscode.CodeActionKind.QuickFix);
  }
}

/**
 * Quick fixes on a model id the registry says is going (or gone, or a near miss): "Use successor …" and
 * "Use newest in family …" for this reference, the same "in all N files" as one WorkspaceEdit that VS Code
 * shows in the refactor preview before it applies (`needsConfirmation`), and Try the Successor….
 */
export class ReferenceFixes implements vscode.CodeActionProvider<vscode.CodeAction> {
  static readonly metadata: vscode.CodeActionProviderMetadata = {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
  };

  constructor(
    private readonly index: ReferenceIndex,
    private readonly warnDays: () => number,
  ) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const registry = this.index.registry;
    const file = this.index.referencesOf(document.uri);
    const ref = referenceAt(file?.refs, range.start);
    if (!registry || !file || !ref) {
      return [];
    }
    const now = Date.now();
    const verdict = registry.judge(ref, now, this.warnDays());
    if (verdict.severity === 'none') {
      return [];
    }
    const actions: vscode.CodeAction[] = [];
    const successor = registry.successor(ref.id, verdict);
    const newest = registry.newestInFamily(ref.id, now, successor);
    const nearest =
      !ref.listed && ref.nearest !== undefined && registry.listed.has(ref.nearest) ? ref.nearest : undefined;
    const files = this.filesNaming(ref.id);
    const add = (to: string, one: string, all: string) => {
      const single = this.single(file, ref, to, one);
      if (single) {
        actions.push(single);
      }
      if (files > 1) {
        actions.push(new AllFilesAction(all, ref.id, to));
      }
    };
    if (nearest !== undefined) {
      add(
        nearest,
        l10n.t('Use {0}', displayText(nearest, 120)),
        l10n.t('Use {0} in all {1} files', displayText(nearest, 120), files),
      );
    }
    if (successor !== undefined) {
      add(
        successor,
        l10n.t('Use successor {0}', displayText(successor, 120)),
        l10n.t('Use successor {0} in all {1} files', displayText(successor, 120), files),
      );
    }
    if (newest !== undefined) {
      add(
        newest,
        l10n.t('Use newest in family {0}', displayText(newest, 120)),
        l10n.t('Use newest in family {0} in all {1} files', displayText(newest, 120), files),
      );
    }
    if (actions[0]) {
      actions[0].isPreferred = true;
    }
    if (successor !== undefined || newest !== undefined) {
      const args: ReferenceArgs = { uri: document.uri.toString(), line: ref.line, character: ref.character };
      const tryIt = new vscode.CodeAction(l10n.t('Try the Successor…'), vscode.CodeActionKind.QuickFix);
      tryIt.command = { command: Commands.trySuccessor, title: l10n.t('Try the Successor…'), arguments: [args] };
      actions.push(tryIt);
    }
    return actions;
  }

  resolveCodeAction(action: vscode.CodeAction): vscode.CodeAction {
    if (action instanceof AllFilesAction) {
      action.edit = switchEdit(this.index.all.values(), action.from, action.to).edit;
    }
    return action;
  }

  /** How many non-payload and payload files name `id`. */
  private filesNaming(id: string): number {
    let n = 0;
    for (const f of this.index.all.values()) {
      if (f.refs.some((r) => r.id === id)) {
        n++;
      }
    }
    return n;
  }

  private single(file: FileReferences, ref: ModelReference, to: string, title: string): vscode.CodeAction | undefined {
    const text = writtenId(to, file);
    if (text === undefined) {
      return undefined;
    }
    const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
    action.edit = new vscode.WorkspaceEdit();
    action.edit.replace(file.uri, rangeOf(ref), text);
    return action;
  }
}
