import * as vscode from 'vscode';
import type { ModelEntry, PostEndpoint } from '../api/types';
import { displayText, type DisplayText } from '../common/text';
import { modelKind, suitsEndpoint, type ModelKind } from '../domain/modelKind';
import { familyOf, sortModels } from '../domain/modelSorting';
import { l10n } from './l10n';
import type { SafePickItem } from './ui';

export type ModelPickItem = SafePickItem & { model?: ModelEntry };

function kindLabel(kind: ModelKind): DisplayText {
  switch (kind) {
    case 'chat':
      return l10n.t('chat model');
    case 'embedding':
      return l10n.t('embedding model');
    default:
      return l10n.t('other kind of model');
  }
}

/** One model's item; `kind` adds what kind it is to the description (the models that do not suit). */
function item(model: ModelEntry, picked: ReadonlySet<string> | undefined, kind?: ModelKind): ModelPickItem {
  return {
    label: displayText(model.id, 200),
    description: [displayText(model.version, 60), displayText(model.family, 60), kind ? kindLabel(kind) : '']
      .filter(Boolean)
      .join(' · ') as DisplayText,
    picked: picked?.has(model.id),
    model,
  };
}

/**
 * Models as quick-pick items in the view's order, a separator per family; `picked` checks those ids in a
 * multi-select pick. With `endpoint`, the models that suit it come first (by family), then every other model
 * under one separator that says they may not answer it, each with its kind: nothing is hidden. Ids,
 * versions and families are registry text, so they go through displayText.
 */
export function modelPickItems(
  models: readonly ModelEntry[],
  picked?: ReadonlySet<string>,
  endpoint?: PostEndpoint,
): ModelPickItem[] {
  const sorted = sortModels(models);
  const suited = endpoint ? sorted.filter((m) => suitsEndpoint(m, endpoint)) : sorted;
  const items: ModelPickItem[] = [];
  let family: string | undefined;
  for (const model of suited) {
    const f = familyOf(model);
    if (f !== family) {
      family = f;
      items.push({ label: displayText(f, 80), kind: vscode.QuickPickItemKind.Separator });
    }
    items.push(item(model, picked));
  }
  if (endpoint && suited.length < sorted.length) {
    items.push({
      label: l10n.t('Other models (may not answer POST {0})', displayText(endpoint)),
      kind: vscode.QuickPickItemKind.Separator,
    });
    for (const model of sorted) {
      if (!suitsEndpoint(model, endpoint)) {
        items.push(item(model, picked, modelKind(model)));
      }
    }
  }
  return items;
}
