import * as vscode from 'vscode';
import type { ModelEntry, PostEndpoint } from '../api/types';
import { displayEnds, displayText, type DisplayText } from '../common/text';
import { modelKind, suitsEndpoint, type ModelKind } from '../domain/modelKind';
import { familyOf, sortModels } from '../domain/modelSorting';
import { isGoingAway, lifecycleLabel, readLifecycle } from '../domain/registry/lifecycle';
import { l10n } from './l10n';
import type { SafePickItem } from './ui';
import { formatPrice, priceFor } from '../domain/cost/prices';

export type ModelPickItem = SafePickItem & { model?: ModelEntry };

/** How much of an id a pick item's label shows: its beginning and end, a long one with `…` between. */
const ID_SHOWN = 60;

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

/**
 * One model's item; `kind` adds what kind it is to the description (the models that do not suit), and the
 * lifecycle is said when the entry has one ("retires 2027-01-31").
 */
function item(
  model: ModelEntry,
  picked: ReadonlySet<string> | undefined,
  lifecycle: DisplayText,
  kind?: ModelKind,
  prices?: unknown,
): ModelPickItem {
  const label = displayEnds(model.id, ID_SHOWN);
  // A long id keeps its end in view (a `{{…}}` hidden past the cut would be written unseen), and says so.
  const long = label !== displayText(model.id, Infinity);
  // The price when one is known (the registry's or the setting's); a list of "no price known" would drown it.
  const price = priceFor(model.id, model.raw, prices);
  const details = [
    ...(long ? [l10n.t('A long id of {0} characters: its middle is not shown', model.id.length)] : []),
    ...(price ? [displayText(formatPrice(price), 200)] : []),
  ];
  return {
    label,
    ...(details.length > 0 ? { detail: details.join(' · ') as DisplayText } : {}),
    description: [displayText(model.version, 60), displayText(model.family, 60), lifecycle, kind ? kindLabel(kind) : '']
      .filter(Boolean)
      .join(' · ') as DisplayText,
    picked: picked?.has(model.id),
    model,
  };
}

/**
 * Models as quick-pick items in the view's order, a separator per family; `picked` checks those ids in a
 * multi-select pick. With `endpoint`, the models that suit it come first (by family), then every other model
 * under one separator that says they may not answer it, each with its kind: nothing is hidden. Models the
 * registry deprecates or retires come after the current ones that suit, under their own separator and with
 * their date, so the first model offered (the one Enter takes) is one that stays. Ids, versions and
 * families are registry text, so they go through displayText. With `prices`, an item's detail says its price.
 */
export function modelPickItems(
  models: readonly ModelEntry[],
  picked?: ReadonlySet<string>,
  endpoint?: PostEndpoint,
  now = Date.now(),
  /** `modelAccess.prices`: each item's detail says the model's price when one is known. */
  prices?: unknown,
): ModelPickItem[] {
  const sorted = sortModels(models);
  const suited = endpoint ? sorted.filter((m) => suitsEndpoint(m, endpoint)) : sorted;
  // Each entry's lifecycle read once: its label for the item, and whether it goes after the current models.
  const lifecycles = new Map(sorted.map((m) => [m, readLifecycle(m.raw)] as const));
  const label = (m: ModelEntry) => lifecycleLabel(lifecycles.get(m), now);
  const leavingSet = new Set(suited.filter((m) => isGoingAway(lifecycles.get(m), now)));
  const current = suited.filter((m) => !leavingSet.has(m));
  const leaving = suited.filter((m) => leavingSet.has(m));
  const items: ModelPickItem[] = [];
  let family: string | undefined;
  for (const model of current) {
    const f = familyOf(model);
    if (f !== family) {
      family = f;
      items.push({ label: displayText(f, 80), kind: vscode.QuickPickItemKind.Separator });
    }
    items.push(item(model, picked, label(model), undefined, prices));
  }
  if (leaving.length > 0) {
    items.push({ label: l10n.t('Deprecated or retiring'), kind: vscode.QuickPickItemKind.Separator });
    items.push(...leaving.map((model) => item(model, picked, label(model), undefined, prices)));
  }
  if (endpoint && suited.length < sorted.length) {
    items.push({
      label: l10n.t('Other models (may not answer POST {0})', displayText(endpoint)),
      kind: vscode.QuickPickItemKind.Separator,
    });
    for (const model of sorted) {
      if (!suitsEndpoint(model, endpoint)) {
        items.push(item(model, picked, label(model), modelKind(model), prices));
      }
    }
  }
  return items;
}
