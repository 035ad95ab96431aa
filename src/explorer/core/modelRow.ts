/**
 * What a Models view row says beyond the id: its description (version, family in the flat list, lifecycle,
 * capabilities, the registry change since the list was last seen) and its accessible name, which says the
 * same words. Pure; no `vscode`.
 */
import type { ModelEntry } from '../../api/types';
import { l10n } from '../../common/l10n';
import { displayText, type DisplayText } from '../../common/text';
import { capabilityList, capabilityWord, readCapabilities, shortTokens } from '../../domain/registry/capabilities';
import type { ModelChange } from '../../domain/registry/changes';
import { changeMark } from '../../domain/registry/changeText';
import { lifecycleLabel, lifecycleStage, readLifecycle, type LifecycleStage } from '../../domain/registry/lifecycle';

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
  const life = options.change?.update?.lifecycle ? ('' as DisplayText) : lifecycleLabel(lifecycle, options.now);
  const mark = options.change ? changeMark(options.change, options.now) : '';
  const capabilities = capabilityWords(model);
  const description = [version, family, mark, life, capabilities].filter(Boolean).join(' · ') as DisplayText;
  let spoken = text;
  if (model.version) {
    spoken = l10n.t('{0}, version {1}', spoken, version);
  }
  if (model.family) {
    spoken = l10n.t('{0}, family {1}', spoken, displayText(model.family, 60));
  }
  for (const part of [mark, life, capabilities]) {
    if (part) {
      spoken = l10n.t('{0}, {1}', spoken, part as DisplayText);
    }
  }
  return { description, spoken, stage };
}
