import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { Environment } from '../../domain/environments';
import { variableContext } from '../../domain/payload/variableContext';
import { clean, displayText, type DisplayText } from '../../common/text';
import type { Environments } from '../../platform/environments';
import { l10n } from '../../platform/l10n';
import { Lifecycle } from '../../platform/lifecycle';
import { isPayload, PAYLOAD_SELECTOR, registerPayloadHover } from './payloadEditing';
import type { ScratchFiles } from './scratchFiles';
import type { EnvAccess } from '../../platform/envAccess';
import {
  eachLine,
  missingFieldMessage,
  withDatasetFields,
  type DatasetFields,
} from '../../domain/payload/datasetVariables';
import { PayloadDatasets } from './payloadDatasets';
import {
  envAccess,
  openReferenceBefore,
  pinnedEnvironment,
  referencesIn,
  resolveModel,
  resolveString,
  type Resolved,
  type VariableContext,
  type VariableProblem,
} from '../../domain/payload/variables';

/**
 * The environment a payload goes to: the one its `// @env NAME` line names, else the active one.
 * `missing` is the pinned name when no environment has it (nothing may be sent then).
 */
export function payloadEnvironment(
  text: string,
  environments: Environments,
): { env: Environment | undefined; pinned?: { name: string; line: number }; missing?: string } {
  const pinned = pinnedEnvironment(text);
  if (!pinned) {
    return { env: environments.active };
  }
  const env = environments.find(pinned.name);
  return env ? { env, pinned } : { env: undefined, pinned, missing: pinned.name };
}

/** Why nothing was sent: the first reference that cannot be resolved (and how many more), and the way out. */
export function unresolvedMessage(problems: readonly VariableProblem[]): DisplayText {
  // A refused environment variable first: its way out (Allow) is the one offered.
  const refused = problems.find((p) => p.refusedEnv !== undefined);
  if (refused) {
    return l10n.t('Nothing was sent: {0}.', clean(refused.message));
  }
  const first = problems[0];
  const more = problems.length - 1;
  const problem =
    more === 0
      ? clean(first.message)
      : more === 1
        ? l10n.t('{0} (and 1 more)', clean(first.message))
        : l10n.t('{0} (and {1} more)', clean(first.message), more);
  return l10n.t(
    'Nothing was sent: {0}. Define it under "variables" of the environment in modelAccess.environments, or write \\{{ for literal braces.',
    problem,
  );
}

/**
 * The payload's top-level `"model"` resolved for `{{model}}`, with the payload's own context (its `{{$env}}`
 * policy): a hover on `{{model}}` never shows a secret the model reads.
 */
function modelOf(text: string, context: VariableContext): Resolved | undefined {
  const tree = parseTree(text);
  const node = tree && findNodeAtLocation(tree, ['model']);
  return node?.type === 'string' ? resolveModel(String(node.value), context) : undefined;
}

/**
 * Errors on references that cannot be resolved for the payload's environment (unknown variable, unset
 * `$env`, unknown built-in) and on a `// @env` line naming no environment: Send refuses those payloads,
 * and this says so before it is tried.
 */
export class VariableDiagnostics extends Lifecycle {
  private readonly collection = vscode.languages.createDiagnosticCollection('model-access-variables');

  constructor(
    private readonly environments: Environments,
    private readonly scratch: ScratchFiles,
    private readonly envAccess: EnvAccess,
    private readonly datasets: PayloadDatasets,
  ) {
    super();
    const all = () => vscode.workspace.textDocuments.forEach((d) => this.check(d));
    this.own(
      this.collection,
      datasets.onDidChange(all),
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
      environments.onDidSwitch(all),
      environments.onDidChangeList(all),
      vscode.workspace.onDidGrantWorkspaceTrust(all),
    );
    all();
  }

  check(doc: vscode.TextDocument): void {
    if (!isPayload(doc, this.scratch)) {
      this.collection.delete(doc.uri);
      return;
    }
    if (eachLine(doc.getText()) === undefined) {
      this.collection.set(doc.uri, this.problems(doc, undefined));
      return;
    }
    // The dataset's fields are variables too: read the file first (once; again when it changes).
    const version = doc.version;
    void this.datasets.fieldsFor(doc).then((fields) => {
      if (!doc.isClosed && doc.version === version) {
        this.collection.set(doc.uri, this.problems(doc, fields));
      }
    });
  }

  private problems(doc: vscode.TextDocument, dataset: DatasetFields | undefined): vscode.Diagnostic[] {
    const text = doc.getText();
    const target = payloadEnvironment(text, this.environments);
    const diagnostics: vscode.Diagnostic[] = [];
    if (target.missing !== undefined && target.pinned) {
      const line = doc.lineAt(target.pinned.line);
      diagnostics.push(
        diagnostic(
          line.range,
          `No environment is named "${displayText(target.missing, 80)}" (modelAccess.environments); this payload cannot be sent.`,
        ),
      );
    } else {
      // Unset $env values are read from process.env only; nothing here is shown but the reference.
      const own = {
        ...variableContext(target.env, { envPolicy: this.envAccess.policyFor(doc.uri) }),
        uuid: () => '',
        now: () => 0,
      };
      const context = dataset ? withDatasetFields(own, dataset) : own;
      const model = modelOf(text, context);
      for (const ref of referencesIn(text)) {
        const problem = resolveString(ref.text, context, model).problems[0];
        if (problem) {
          const range = new vscode.Range(doc.positionAt(ref.offset), doc.positionAt(ref.offset + ref.length));
          // A name that is no field of the dataset nor a variable: say which dataset it was looked for in.
          const unknownField =
            dataset !== undefined &&
            ref.kind === 'variable' &&
            ref.name !== 'model' &&
            !(ref.name in context.variables);
          const message = unknownField ? missingFieldMessage(ref.text, dataset, target.env?.name) : problem.message;
          diagnostics.push(diagnostic(range, `${displayText(message, 300)}.`));
        }
      }
    }
    return diagnostics;
  }
}

function diagnostic(range: vscode.Range, message: string): vscode.Diagnostic {
  const d = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Error);
  d.source = 'Model Access';
  return d;
}

/** The built-in variables; `detail` is read when completing (the display language's bundle loads later). */
const BUILTINS: readonly { variable: string; insert: string; detail: () => string }[] = [
  { variable: 'model', insert: 'model', detail: () => l10n.t('The model of this payload ("model")') },
  { variable: '$env NAME', insert: '$env ', detail: () => l10n.t("A variable of VS Code's environment (kept secret)") },
  { variable: '$uuid', insert: '$uuid', detail: () => l10n.t('A new UUID for every send') },
  { variable: '$timestamp', insert: '$timestamp', detail: () => l10n.t('Unix time in seconds, at send') },
];

/** After `{{` inside a payload: the environment's variable names and the built-ins. */
export class VariableCompletion implements vscode.CompletionItemProvider {
  constructor(
    private readonly environments: Environments,
    private readonly scratch: ScratchFiles,
    private readonly datasets: PayloadDatasets,
  ) {}

  async provideCompletionItems(
    doc: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<vscode.CompletionItem[] | undefined> {
    if (!isPayload(doc, this.scratch)) {
      return undefined;
    }
    const open = openReferenceBefore(doc.lineAt(position.line).text, position.character);
    if (!open) {
      return undefined;
    }
    const env = payloadEnvironment(doc.getText(), this.environments).env;
    const range = new vscode.Range(position.line, open.start, position.line, position.character);
    const closes = doc.lineAt(position.line).text.slice(position.character).startsWith('}}');
    const dataset = await this.datasets.fieldsFor(doc);
    // The dataset's fields first: a run fills them from each row, over the environment's variables.
    const fields = [...(dataset?.fields ?? [])].map(([name, values]) => {
      const item = new vscode.CompletionItem(
        { label: name, description: displayText(dataset?.file, 60) },
        vscode.CompletionItemKind.Field,
      );
      item.detail = displayText(values.join(', '), 120);
      item.insertText = closes ? name : `${name}}}`;
      item.range = range;
      item.sortText = `0${name}`;
      return item;
    });
    const own = Object.entries(env?.variables ?? {}).filter(([name]) => !dataset?.fields.has(name));
    const items = own.map(([name, value]) => {
      const item = new vscode.CompletionItem(
        { label: name, description: displayText(env?.name, 60) },
        vscode.CompletionItemKind.Variable,
      );
      item.detail = displayText(value, 120);
      item.insertText = closes ? name : `${name}}}`;
      item.range = range;
      return item;
    });
    for (const b of BUILTINS) {
      const item = new vscode.CompletionItem(b.variable, vscode.CompletionItemKind.Constant);
      item.detail = b.detail();
      item.insertText = closes || b.insert.endsWith(' ') ? b.insert : `${b.insert}}}`;
      item.range = range;
      items.push(item);
    }
    return [...fields, ...items];
  }
}

/** Over a `{{…}}`: its value in the payload's environment, or that it is secret, or why it is unknown. */
function variableHover(
  environments: Environments,
  scratch: ScratchFiles,
  access: EnvAccess,
  datasets: PayloadDatasets,
): vscode.Disposable {
  return registerPayloadHover(scratch, (doc, position, md) => {
    const text = doc.getText();
    const offset = doc.offsetAt(position);
    const ref = referencesIn(text).find((r) => offset >= r.offset && offset <= r.offset + r.length);
    if (!ref) {
      return undefined;
    }
    const dataset = datasets.readFieldsFor(doc);
    const values = ref.kind === 'variable' ? dataset?.fields.get(ref.name) : undefined;
    if (dataset && values) {
      md.appendText(
        l10n.t(
          '{0}: a field of {1}, filled from each of its {2} rows (first values: {3}).',
          displayText(ref.text, 100),
          displayText(dataset.file, 100),
          dataset.rows,
          displayText(values.join(', '), 200),
        ),
      );
      return new vscode.Range(doc.positionAt(ref.offset), doc.positionAt(ref.offset + ref.length));
    }
    const target = payloadEnvironment(text, environments);
    const policy = access.policyFor(doc.uri);
    const context = { ...variableContext(target.env, { envPolicy: policy }), uuid: () => '', now: () => 0 };
    const r = resolveString(ref.text, context, modelOf(text, context));
    if (r.problems.length) {
      md.appendText(displayText(r.problems[0].message, 300));
    } else if (ref.kind === 'uuid' || ref.kind === 'timestamp') {
      md.appendText(
        ref.kind === 'uuid' ? l10n.t('A new UUID for every send.') : l10n.t('Unix time in seconds when sent.'),
      );
    } else if (ref.kind === 'env') {
      // Where the value comes from, and why this payload may read it.
      const name = displayText(ref.name, 100);
      const grounds = envAccess(ref.name, policy);
      md.appendText(
        grounds === 'allowed'
          ? l10n.t(
              '{0}: a secret from the environment variable {1} of the process VS Code runs in, which you allowed for this workspace; sent, never shown.',
              displayText(ref.text, 100),
              name,
            )
          : l10n.t(
              '{0}: a secret from the environment variable {1} of the process VS Code runs in; sent, never shown.',
              displayText(ref.text, 100),
              name,
            ),
      );
    } else if (r.secrets.length) {
      md.appendText(l10n.t("{0}: a secret from VS Code's environment; sent, never shown.", displayText(ref.text, 100)));
    } else {
      md.appendText(`${displayText(ref.text, 100)} = ${displayText(r.sent, 300)}`);
      md.appendMarkdown('\n\n');
      md.appendText(
        ref.name === 'model'
          ? l10n.t('The model of this payload.')
          : l10n.t('From environment {0}.', displayText(target.env?.name, 80)),
      );
    }
    return new vscode.Range(doc.positionAt(ref.offset), doc.positionAt(ref.offset + ref.length));
  });
}

/** The providers above, for the payload documents. */
export function variableProviders(
  environments: Environments,
  scratch: ScratchFiles,
  access: EnvAccess,
): vscode.Disposable[] {
  const datasets = new PayloadDatasets(scratch.folder);
  return [
    datasets,
    new VariableDiagnostics(environments, scratch, access, datasets),
    vscode.languages.registerCompletionItemProvider(
      PAYLOAD_SELECTOR,
      new VariableCompletion(environments, scratch, datasets),
      '{',
      '$',
    ),
    variableHover(environments, scratch, access, datasets),
  ];
}
