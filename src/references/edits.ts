import * as vscode from 'vscode';
import { displayText } from '../common/text';
import { literalText } from '../domain/payload/variables';
import { l10n } from '../platform/l10n';
import type { ModelReference } from './core/types';
import type { FileReferences } from './referenceIndex';

/** Characters that would end or change a string literal in some language: such an id is not written. */
const UNSAFE_IN_CODE = /["'`\\\u0000-\u001f\u007f\u2028\u2029]/;

/**
 * `id` as it is written inside the literal that held the old one, or undefined when it cannot be written as
 * plain text there. In JSON it is JSON-escaped, and in a payload every `{{` is also written as the `\{{`
 * escape (the registry's text stays literal: it never becomes a variable the next Send resolves). Elsewhere an
 * id with a quote, a backslash or a control character is refused, never written half-escaped.
 */
export function writtenId(id: string, file: FileReferences): string | undefined {
  if (/\.(json|jsonc|ipynb)$/i.test(file.uri.path)) {
    return JSON.stringify(file.payload ? literalText(id) : id).slice(1, -1);
  }
  return UNSAFE_IN_CODE.test(id) ? undefined : id;
}

export function rangeOf(ref: ModelReference): vscode.Range {
  return new vscode.Range(ref.line, ref.character, ref.line, ref.character + ref.length);
}

/** How many files name `id`, and the edit moving every one of those references to `to`. */
export interface SwitchEdit {
  edit: vscode.WorkspaceEdit;
  files: number;
  references: number;
  /** Files whose literal cannot hold `to` as written (see writtenId): left as they are. */
  refused: number;
}

/**
 * One WorkspaceEdit moving every reference to `from` (in `files`) to `to`. Each change carries
 * `needsConfirmation`, so VS Code shows the refactor preview before anything is written.
 */
export function switchEdit(files: Iterable<FileReferences>, from: string, to: string): SwitchEdit {
  const edit = new vscode.WorkspaceEdit();
  const metadata: vscode.WorkspaceEditEntryMetadata = {
    needsConfirmation: true,
    label: l10n.t('Use {0} instead of {1}', displayText(to, 120), displayText(from, 120)),
  };
  let count = 0;
  let references = 0;
  let refused = 0;
  for (const file of files) {
    const refs = file.refs.filter((r) => r.id === from);
    if (refs.length === 0) {
      continue;
    }
    const text = writtenId(to, file);
    if (text === undefined) {
      refused++;
      continue;
    }
    count++;
    for (const ref of refs) {
      edit.replace(file.uri, rangeOf(ref), text, metadata);
      references++;
    }
  }
  return { edit, files: count, references, refused };
}

/** The reference at `position` (its quotes included), if any. */
export function referenceAt(
  refs: readonly ModelReference[] | undefined,
  position: vscode.Position,
): ModelReference | undefined {
  return refs?.find(
    (r) =>
      r.line === position.line && position.character >= r.character - 1 && position.character <= r.character + r.length,
  );
}
