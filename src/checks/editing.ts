import * as vscode from 'vscode';
import { displayText } from '../common/text';
import { l10n } from '../platform/l10n';
import { PAYLOAD_LANGUAGE } from '../domain/payload/kind';
import { Lifecycle } from '../platform/lifecycle';
import { hasChecks, readCheckLines } from './core/checkFile';
import { describeExpectation, FORMS } from './core/expectations';

/** JSON and JSON-with-comments files on disk or untitled: where payloads with checks are written. */
export const CHECK_SELECTOR: vscode.DocumentSelector = [
  { language: 'json', scheme: 'file' },
  { language: 'jsonc', scheme: 'file' },
  { language: 'json', scheme: 'untitled' },
  { language: 'jsonc', scheme: 'untitled' },
  { language: PAYLOAD_LANGUAGE, scheme: 'file' },
];

function isCheckDocument(doc: vscode.TextDocument): boolean {
  return vscode.languages.match(CHECK_SELECTOR, doc) > 0;
}

/**
 * An expectation (or `@each`) line that cannot be read is an error at its text: the test fails with the
 * same reason, and the person sees it while writing, never a silent pass.
 */
export class ExpectationDiagnostics extends Lifecycle {
  private readonly collection = vscode.languages.createDiagnosticCollection('model-access-checks');

  constructor() {
    super();
    this.own(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
    );
    vscode.workspace.textDocuments.forEach((d) => this.check(d));
  }

  check(doc: vscode.TextDocument): void {
    const text = doc.getText();
    if (!isCheckDocument(doc) || !/@(expect|each)\b/i.test(text)) {
      this.collection.delete(doc.uri);
      return;
    }
    const lines = readCheckLines(text);
    const diagnostics: vscode.Diagnostic[] = [];
    const at = (line: number, column: number) => {
      const end = doc.lineAt(line).range.end;
      return new vscode.Range(line, Math.min(column, end.character), line, end.character);
    };
    for (const l of lines.expectations) {
      if (l.problem) {
        diagnostics.push(diagnostic(at(l.line, l.column), displayText(l.problem, 600)));
      }
    }
    if (lines.each?.problem) {
      diagnostics.push(diagnostic(at(lines.each.line, lines.each.column), displayText(lines.each.problem, 300)));
    }
    for (const p of lines.problems) {
      diagnostics.push(diagnostic(at(p.line, 0), displayText(p.message, 300)));
    }
    this.collection.set(doc.uri, diagnostics);
  }
}

function diagnostic(range: vscode.Range, message: string): vscode.Diagnostic {
  const d = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Error);
  d.source = 'Model Access';
  return d;
}

/** The forms of an expectation as snippets, offered after `// @expect `. */
const SNIPPETS: readonly { form: string; snippet: string; detail: () => string }[] = [
  { form: 'status 200', snippet: 'status ${1:200}', detail: () => l10n.t('The HTTP status of the answer') },
  {
    form: 'text contains "…"',
    snippet: 'text contains "${1}"',
    detail: () => l10n.t("The answer's text contains a string"),
  },
  {
    form: 'text matches /…/i',
    snippet: 'text matches /${1}/i',
    detail: () => l10n.t("The answer's text matches a regular expression"),
  },
  {
    form: 'json $.path == …',
    snippet: 'json \\$.${1:model} == ${2:"value"}',
    detail: () => l10n.t('A value of the JSON answer'),
  },
  {
    form: 'json $.path contains …',
    snippet: 'json \\$.${1:path} contains ${2:"value"}',
    detail: () => l10n.t('A string, list or object of the JSON answer holds a value'),
  },
  {
    form: 'json $.path matches /…/',
    // Two literals: the placeholder before "matches" is not a count (text.test.ts looks for counted nouns).
    snippet: 'json \\$.${1:path}' + ' matches /${2}/',
    detail: () => l10n.t('A string of the JSON answer matches a regular expression'),
  },
  {
    form: 'json $.path exists',
    snippet: 'json \\$.${1:path} exists',
    detail: () => l10n.t('The JSON answer has a value at the path'),
  },
  { form: 'time < 2s', snippet: 'time < ${1:2s}', detail: () => l10n.t('The whole answer arrives within a time') },
  {
    form: 'first token < 800ms',
    snippet: 'first token < ${1:800ms}',
    detail: () => l10n.t('A streamed answer starts within a time'),
  },
  {
    form: 'tokens < 500',
    snippet: 'tokens ${1|total,input,output|} < ${2:500}',
    detail: () => l10n.t('The token usage the answer reports'),
  },
  {
    form: 'schema file.json',
    snippet: 'schema ${1:answer.schema.json}',
    detail: () => l10n.t('The JSON answer is valid against a JSON Schema file'),
  },
  {
    form: 'text schema file.json',
    snippet: 'text schema ${1:answer.schema.json}',
    detail: () => l10n.t("The answer's text, parsed as JSON, is valid against a JSON Schema file"),
  },
  {
    form: 'dimension 1536',
    snippet: 'dimension ${1:1536}',
    detail: () => l10n.t('Every embedding has this many dimensions'),
  },
  {
    form: 'cost <= 0.01',
    snippet: 'cost <= ${1:0.01}',
    detail: () => l10n.t("One request's cost at the model's price (its currency; USD unless it says another)"),
  },
  {
    form: 'total cost <= 0.50',
    snippet: 'total cost <= ${1:0.50}',
    detail: () => l10n.t('The cost of every request of the run (a dataset, several models: per model)'),
  },
];

/** Completion of the expectation forms right after `// @expect`. */
export class ExpectationCompletion implements vscode.CompletionItemProvider {
  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const before = doc.lineAt(position.line).text.slice(0, position.character);
    const m = /^\s*\/\/\s*@expect\s+(\S*)$/i.exec(before);
    if (!m) {
      return [];
    }
    const range = new vscode.Range(position.line, position.character - m[1].length, position.line, position.character);
    return SNIPPETS.map((s, i) => {
      const item = new vscode.CompletionItem(s.form, vscode.CompletionItemKind.Snippet);
      item.insertText = new vscode.SnippetString(s.snippet);
      item.detail = s.detail();
      item.range = range;
      item.sortText = String(i).padStart(2, '0');
      return item;
    });
  }
}

/** Hover over an expectation: what it checks, in words, or why it cannot be read. */
export class ExpectationHover implements vscode.HoverProvider {
  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const text = doc.getText();
    if (!hasChecks(text) && !/@each\b/i.test(text)) {
      return undefined;
    }
    const line = readCheckLines(text).expectations.find((l) => l.line === position.line);
    if (!line) {
      return undefined;
    }
    const body = line.expectation
      ? l10n.t(
          'Checks the answer: {0}. A failure shows here in Test Explorer with expected and actual.',
          displayText(describeExpectation(line.expectation), 300),
        )
      : l10n.t('This expectation cannot be read: {0}', displayText(line.problem, 600));
    const md = new vscode.MarkdownString();
    md.appendText(body);
    md.appendText(`\n\n${l10n.t('Forms: {0}', displayText(FORMS.join(' · '), 600))}`);
    return new vscode.Hover(md);
  }
}
