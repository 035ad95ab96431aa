import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { displayText, type DisplayText } from '../common/text';
import { familyOf, sortModels } from '../domain/modelSorting';
import type { SafePickItem } from './ui';

export type ModelPickItem = SafePickItem & { model?: ModelEntry };

/**
 * Models as quick-pick items in the view's order, a separator per family; `picked` checks those ids in a
 * multi-select pick. Ids, versions and families are registry text, so they go through displayText.
 */
export function modelPickItems(models: readonly ModelEntry[], picked?: ReadonlySet<string>): ModelPickItem[] {
  const items: ModelPickItem[] = [];
  let family: string | undefined;
  for (const model of sortModels(models)) {
    const f = familyOf(model);
    if (f !== family) {
      family = f;
      items.push({ label: displayText(f, 80), kind: vscode.QuickPickItemKind.Separator });
    }
    items.push({
      label: displayText(model.id, 200),
      description: [displayText(model.version, 60), displayText(model.family, 60)]
        .filter(Boolean)
        .join(' · ') as DisplayText,
      picked: picked?.has(model.id),
      model,
    });
  }
  return items;
}
