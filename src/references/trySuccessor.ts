import * as vscode from 'vscode';
import { fileExists } from '../platform/fileExists';
import type { PostEndpoint } from '../api/types';
import { displayText } from '../common/text';
import { modelFromArg } from '../domain/commandArgs';
import { modelKind } from '../domain/modelKind';
import { Commands } from '../ids';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import type { ModelReference } from './core/types';
import { switchEdit } from './edits';
import type { ReferenceArgs } from './hover';
import { UsedModelNode } from './modelsInUse';
import { draftPayload, promptNear } from './core/payloadDraft';
import type { FileReferences, ReferenceIndex } from './referenceIndex';

/** The folder a payload made from code goes to (in the reference's workspace folder). */
export const DRAFT_FOLDER = 'model-checks';

function isReferenceArgs(arg: unknown): arg is ReferenceArgs {
  const a = arg as Partial<ReferenceArgs> | undefined;
  return typeof a?.uri === 'string' && typeof a.line === 'number' && typeof a.character === 'number';
}

/**
 * Try the Successor…: the workspace's own evidence for a move. It finds the payloads that use the model, runs
 * their checks on the model and its successor side by side (Run Checks on Several Models, `@repeat` and all),
 * and the grid offers "Switch N references" (the workspace edit, refactor preview first). With no payload using
 * the model it offers to make one from the code around a reference.
 */
export class TrySuccessor {
  constructor(
    private readonly deps: Services,
    private readonly index: ReferenceIndex,
  ) {}

  /** The model a command was invoked for: a reference (quick fix, hover), a row of either view, or an id. */
  private modelOf(arg: unknown): { id: string; at?: { uri: vscode.Uri; ref: ModelReference } } | undefined {
    if (isReferenceArgs(arg)) {
      const uri = vscode.Uri.parse(arg.uri);
      const ref = this.index.referencesOf(uri)?.refs.find((r) => r.line === arg.line && r.character === arg.character);
      return ref ? { id: ref.id, at: { uri, ref } } : undefined;
    }
    if (arg instanceof UsedModelNode) {
      return { id: arg.used.id };
    }
    const model = modelFromArg(arg, this.deps.catalog.models) ?? this.deps.selection.current?.model;
    return model ? { id: model.id } : undefined;
  }

  async run(arg: unknown): Promise<void> {
    const registry = this.index.registry;
    if (!registry) {
      void this.deps.ui.info(l10n.t('Load the model list first: the successor comes from the registry.'));
      return;
    }
    const asked = this.modelOf(arg) ?? (await this.pickUsedModel());
    if (!asked) {
      return;
    }
    const { id } = asked;
    const now = Date.now();
    const successor = registry.successor(id) ?? registry.newestInFamily(id, now);
    if (!successor) {
      void this.deps.ui.info(
        l10n.t('The registry names no successor for {0}, and its family has no newer model.', displayText(id, 120)),
      );
      return;
    }
    const files = [...this.index.all.values()].filter((f) => f.refs.some((r) => r.id === id));
    let payload = await this.pickPayload(files.filter((f) => f.payload));
    if (payload === null) {
      return;
    }
    if (!payload) {
      payload = await this.offerDraft(id, asked.at ?? firstPlace(files, id));
      if (!payload) {
        return;
      }
    }
    const references = files.reduce((n, f) => n + f.refs.filter((r) => r.id === id).length, 0);
    const title =
      references === 1
        ? l10n.t('Switch 1 reference to {0}', displayText(successor, 120))
        : l10n.t('Switch {0} references to {1}', references, displayText(successor, 120));
    await vscode.commands.executeCommand(Commands.runChecksOnModels, payload, {
      models: [id, successor],
      then: { title, command: Commands.switchReferences, arguments: [id, successor] },
    });
  }

  /** Moves every reference to `from` to `to`, through the refactor preview; false when nothing was applied. */
  async switchReferences(from: unknown, to: unknown): Promise<boolean> {
    if (typeof from !== 'string' || typeof to !== 'string' || from === to) {
      return false;
    }
    const { edit, references, refused } = switchEdit(this.index.all.values(), from, to);
    if (refused > 0) {
      void this.deps.ui.warn(
        l10n.t(
          '{0} cannot be written as it is into {1} files (quotes or control characters); they were left as they are.',
          displayText(to, 120),
          refused,
        ),
      );
    }
    if (references === 0) {
      void this.deps.ui.info(l10n.t('Nothing in this workspace names {0} now.', displayText(from, 120)));
      return false;
    }
    return vscode.workspace.applyEdit(edit);
  }

  private async pickUsedModel(): Promise<{ id: string; at?: { uri: vscode.Uri; ref: ModelReference } } | undefined> {
    const registry = this.index.registry;
    const ids = new Set<string>();
    for (const f of this.index.all.values()) {
      for (const r of f.refs) {
        ids.add(r.id);
      }
    }
    const now = Date.now();
    const items = [...ids]
      .filter((id) => registry?.successor(id) ?? registry?.newestInFamily(id, now))
      .sort()
      .map((id) => ({ label: displayText(id, 200), id }));
    if (items.length === 0) {
      void this.deps.ui.info(l10n.t('No model this workspace names has a successor in the registry.'));
      return undefined;
    }
    const picked = await this.deps.ui.pick(items, { title: l10n.t('Try the successor of which model?') });
    return picked ? { id: picked.id } : undefined;
  }

  /** The payload to run: the only one, or the one picked; undefined: none; null: the pick was dismissed. */
  private async pickPayload(payloads: FileReferences[]): Promise<vscode.Uri | undefined | null> {
    if (payloads.length <= 1) {
      return payloads[0]?.uri;
    }
    const items = payloads.map((p) => ({
      label: displayText(vscode.workspace.asRelativePath(p.uri), 300),
      uri: p.uri,
    }));
    const picked = await this.deps.ui.pick(items, { title: l10n.t('Run the checks of which payload?') });
    return picked ? picked.uri : null;
  }

  /** Offers a payload made from the code around `at`; writes it (never over a file) and opens it. */
  private async offerDraft(
    id: string,
    at: { uri: vscode.Uri; ref: ModelReference } | undefined,
  ): Promise<vscode.Uri | undefined> {
    const folder = at ? vscode.workspace.getWorkspaceFolder(at.uri) : vscode.workspace.workspaceFolders?.[0];
    if (!at || !folder) {
      void this.deps.ui.info(
        l10n.t('No payload in this workspace uses {0}, and no code names it.', displayText(id, 120)),
      );
      return undefined;
    }
    const make = l10n.t('Make a Payload');
    const answer = await this.deps.ui.ask(
      l10n.t('No payload in this workspace uses {0}.', displayText(id, 120)),
      l10n.t(
        'Make one from the code around {0}? It is written to the {1} folder and opened; its checks then run on both models.',
        displayText(`${vscode.workspace.asRelativePath(at.uri)}:${at.ref.line + 1}`, 300),
        displayText(DRAFT_FOLDER, 40),
      ),
      make,
    );
    if (answer !== make) {
      return undefined;
    }
    const code = await vscode.workspace.openTextDocument(at.uri);
    const entry = this.index.registry?.listed.get(id);
    const endpoint: PostEndpoint = entry && modelKind(entry) === 'embedding' ? '/v1/embeddings' : '/v1/chat';
    const text = draftPayload({
      model: id,
      endpoint,
      prompt: promptNear(code.getText(), at.ref.line, id),
      source: `${vscode.workspace.asRelativePath(at.uri)}:${at.ref.line + 1}`,
    });
    const base = id.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'model';
    let target = vscode.Uri.joinPath(folder.uri, DRAFT_FOLDER, `${base}.jsonc`);
    for (let n = 2; await fileExists(target); n++) {
      target = vscode.Uri.joinPath(folder.uri, DRAFT_FOLDER, `${base}-${n}.jsonc`);
    }
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    await vscode.window.showTextDocument(target, { preview: false });
    return target;
  }
}

function firstPlace(files: FileReferences[], id: string): { uri: vscode.Uri; ref: ModelReference } | undefined {
  for (const f of files) {
    const ref = f.refs.find((r) => r.id === id);
    if (ref && !f.payload) {
      return { uri: f.uri, ref };
    }
  }
  return undefined;
}
