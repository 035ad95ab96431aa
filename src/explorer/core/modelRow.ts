/**
 * What a Models view row says beyond the id: its description (the registry change since the list was last seen
 * and the lifecycle first, so a narrow sidebar cuts the version and capabilities, never "retires 2027-01-31" or
 * "new"; then version, family in the flat list, capabilities) and its accessible name, which says the same
 * words in the same order and the model that replaces it. Pure; no `vscode`.
 */
import type { ModelEntry } from '../../api/types';
import { l10n } from '../../common/l10n';
import { displayText, type DisplayText } from '../../common/text';
import { capabilityList, capabilityWord, readCapabilities, shortTokens } from '../../domain/registry/capabilities';
import type { ModelChange } from '../../domain/registry/changes';
import { changeMark } from '../../domain/registry/changeText';
import {
  lifecycleLabel,
  lifecycleStage,
  readLifecycle,
  type LifecycleStage,
  type ModelLifecycle,
} from '../../domain/registry/lifecycle';

export interface ModelRow {
  description: DisplayText;
  /** What a screen reader says for the row. */
  spoken: DisplayText;
  stage: LifecycleStage | undefined;
}

export interface RowOptions {
  /** The flat list names the family after the version. */
  showFamily: boolean;
  change?: ModelChange;
  now: number;
  /** How many places in the workspace's code name the model (Models in Use counts them). */
  uses?: number;
}

/** "used in 3 places": how much of the workspace a move away from the model touches. */
function usesText(uses: number | undefined): DisplayText {
  if (!uses) {
    return '' as DisplayText;
  }
  return uses === 1 ? l10n.t('used in 1 place') : l10n.t('used in {0} places', uses);
}

/** `chat · vision · 128k`: capabilities as short words for a row. */
function capabilityWords(model: ModelEntry): DisplayText {
  const c = readCapabilities(model.raw);
  if (!c) {
    return '' as DisplayText;
  }
  const parts: string[] = capabilityList(c).map(capabilityWord);
  if (c.contextWindow !== undefined) {
    parts.push(shortTokens(c.contextWindow));
  }
  return parts.join(' ') as DisplayText;
}

export function modelRow(model: ModelEntry, options: RowOptions): ModelRow {
  const text = displayText(model.id) || l10n.t('(no id)');
  const version = displayText(model.version, 60);
  const family = options.showFamily ? displayText(model.family, 60) : '';
  const lifecycle = readLifecycle(model.raw);
  const stage = lifecycleStage(lifecycle, options.now);
  // Lifecycle news is said by the change's mark ("now retires …"), not twice.
  const changedLifecycle = options.change?.update?.lifecycle === true;
  const life = changedLifecycle ? ('' as DisplayText) : lifecycleLabel(lifecycle, options.now);
  const mark = options.change ? changeMark(options.change, options.now) : '';
  const capabilities = capabilityWords(model);
  const used = usesText(options.uses);
  const description = [mark, life, used, version, family, capabilities].filter(Boolean).join(' · ') as DisplayText;
  let spoken = text;
  for (const part of [mark, ...(changedLifecycle ? [] : spokenLifecycle(lifecycle, stage, life)), used]) {
    if (part) {
      spoken = l10n.t('{0}, {1}', spoken, part as DisplayText);
    }
  }
  if (model.version) {
    spoken = l10n.t('{0}, version {1}', spoken, version);
  }
  if (model.family) {
    spoken = l10n.t('{0}, family {1}', spoken, displayText(model.family, 60));
  }
  if (capabilities) {
    spoken = l10n.t('{0}, {1}', spoken, capabilities);
  }
  return { description, spoken, stage };
}

/**
 * The lifecycle as a screen reader hears it: "deprecated" when the entry says so (also for a model with a
 * retirement date, whose row shows only "retires …"), the row's label, and the model that replaces it.
 */
function spokenLifecycle(
  lifecycle: ModelLifecycle | undefined,
  stage: LifecycleStage | undefined,
  label: DisplayText,
): DisplayText[] {
  if (!lifecycle) {
    return [];
  }
  const parts: DisplayText[] = [];
  if (lifecycle.deprecated && stage !== 'deprecated' && stage !== 'retired') {
    parts.push(l10n.t('deprecated'));
  }
  if (label) {
    parts.push(label);
  }
  if (lifecycle.successor !== undefined) {
    parts.push(l10n.t('replaced by {0}', displayText(lifecycle.successor, 120)));
  }
  return parts;
}
