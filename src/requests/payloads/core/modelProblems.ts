/**
 * What a payload's `"model"` value gets from the registry: a warning when the environment does not list it
 * (with the closest listed id and the newest model of its family as fixes), or when the registry says it is
 * deprecated, retiring or retired (with the date, and the successor as the fix). Pure; no `vscode`.
 */
import type { ModelEntry } from '../../../api/types';
import { l10n } from '../../../common/l10n';
import { displayEnds, displayText, type DisplayText } from '../../../common/text';
import { isGoingAway, lifecycleSentence, readLifecycle } from '../../../domain/registry/lifecycle';
import { closestModel, familyFor, newestOfFamily } from '../../../domain/registry/suggestions';

export type ModelProblemCode = 'unknownModel' | 'retiringModel';

export interface ModelFix {
  /** What the quick fix says. */
  title: DisplayText;
  /** The id it writes. */
  id: string;
}

export interface ModelProblem {
  code: ModelProblemCode;
  message: DisplayText;
  fixes: ModelFix[];
}

/**
 * The problem with `value` as the model of a payload sent to an environment listing `models`, if any.
 * `known`: the entry of that id in a list seen earlier (a gone model), for its family.
 */
export function modelProblem(
  value: string,
  models: readonly ModelEntry[],
  now: number,
  known?: ModelEntry,
): ModelProblem | undefined {
  const listed = models.find((m) => m.id === value);
  if (listed) {
    const lifecycle = readLifecycle(listed.raw);
    if (!isGoingAway(lifecycle, now)) {
      return undefined;
    }
    const successor = lifecycle?.successor !== undefined ? models.find((m) => m.id === lifecycle.successor) : undefined;
    return {
      code: 'retiringModel',
      message: l10n.t('“{0}” is going away: {1}.', displayText(value, 200), lifecycleSentence(lifecycle, now)),
      fixes: successor
        ? [{ title: l10n.t('Use {0} (its successor)', displayEnds(successor.id, 60)), id: successor.id }]
        : [],
    };
  }
  const fixes: ModelFix[] = [];
  const closest = closestModel(value, models, now);
  if (closest) {
    fixes.push({ title: l10n.t('Did you mean {0}?', displayEnds(closest.id, 60)), id: closest.id });
  }
  const family = familyFor(value, models, known);
  const newest = family !== undefined ? newestOfFamily(family, models, now) : undefined;
  if (newest && newest.id !== closest?.id) {
    fixes.push({
      title: l10n.t('Use {0} (the newest {1})', displayEnds(newest.id, 60), displayText(family, 60)),
      id: newest.id,
    });
  }
  return {
    code: 'unknownModel',
    message: l10n.t(
      '"{0}" is not one of your organization\'s models (the Models view lists them).',
      displayText(value, 200),
    ),
    fixes,
  };
}
