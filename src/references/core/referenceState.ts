/**
 * The lifecycle verdict on one model reference, shared by the command line and the editor: what state the
 * model is in, how loud to say it, and the sentence that says it. The lifecycle is read by
 * domain/registry/lifecycle.ts (the one reader of entry shapes); registry text (ids, successors) goes through
 * the display function. Pure; no `vscode` import.
 *
 * - retired, or gone (listed in a saved list, no longer in the registry) → error;
 * - retiring (a retirement date ahead) → warning, rising to error once the date is within `warnDays`;
 * - deprecated (no retirement date) → warning;
 * - an unlisted id one edit from a listed one → information ("did you mean");
 * - preview, current, or an unlisted id with no neighbour → no diagnostic.
 * The caller asks only while it knows the registry: with no registry there is no lookup, so nothing is ever
 * called unknown.
 */
import type { ModelEntry } from '../../api/types';
import { l10n } from '../../common/l10n';
import { displayEnds, type DisplayText } from '../../common/text';
import { isoDay, lifecycleStage, readLifecycle } from '../../domain/registry/lifecycle';
import type { ModelReference } from './types';

export type ReferenceState = 'current' | 'preview' | 'deprecated' | 'retiring' | 'retired' | 'gone' | 'unknown';

export interface ReferenceVerdict {
  state: ReferenceState;
  severity: 'error' | 'warning' | 'information' | 'none';
  /** One line for a person: the id, the state, its date and the successor (display text). */
  message: DisplayText;
  /** The model that replaces it, as the registry writes it (raw: an edit writes it literally). */
  successor?: string;
  /** The date the state is about (retirement; deprecation for a deprecated model), epoch ms. */
  date?: number;
}

export interface JudgeOptions {
  now: number;
  /** Days before a retirement from which a retiring reference is an error (the setting's default: 90). */
  warnDays: number;
  /** Ids a saved list named that the registry no longer lists. */
  goneIds?: ReadonlySet<string>;
}

export const DEFAULT_WARN_DAYS = 90;
const DAY = 86_400_000;

/** An id for a message: its ends kept, so a `{{…}}` or a version at the end is never cut off unseen. */
const shown = (id: string) => displayEnds(id, 80);

export function judgeReference(
  ref: ModelReference,
  entry: ModelEntry | undefined,
  options: JudgeOptions,
): ReferenceVerdict {
  const id = shown(ref.id);
  if (!entry) {
    if (options.goneIds?.has(ref.id)) {
      return {
        state: 'gone',
        severity: 'error',
        message: l10n.t('Model {0} is no longer in the registry.', id),
      };
    }
    if (!ref.listed && ref.nearest !== undefined) {
      return {
        state: 'unknown',
        severity: 'information',
        message: l10n.t('Model {0} is not in the registry. Did you mean {1}?', id, shown(ref.nearest)),
      };
    }
    return { state: 'unknown', severity: 'none', message: l10n.t('Model {0} is not in the registry.', id) };
  }
  const lifecycle = readLifecycle(entry.raw);
  const stage = lifecycleStage(lifecycle, options.now);
  const successor = lifecycle?.successor;
  const use = successor !== undefined ? l10n.t(' Use {0}.', shown(successor)) : ('' as DisplayText);
  const withSuccessor = (verdict: Omit<ReferenceVerdict, 'successor'>): ReferenceVerdict =>
    successor !== undefined ? { ...verdict, successor } : verdict;
  switch (stage) {
    case 'retired': {
      const at = lifecycle?.retiresAt;
      return withSuccessor({
        state: 'retired',
        severity: 'error',
        message: ((at !== undefined
          ? l10n.t('Model {0} retired on {1}.', id, isoDay(at))
          : l10n.t('Model {0} is retired.', id)) + use) as DisplayText,
        ...(at !== undefined ? { date: at } : {}),
      });
    }
    case 'retiring': {
      const at = lifecycle!.retiresAt!;
      const days = Math.ceil((at - options.now) / DAY);
      return withSuccessor({
        state: 'retiring',
        severity: days <= options.warnDays ? 'error' : 'warning',
        message: (l10n.t('Model {0} retires on {1} (in {2} days).', id, isoDay(at), days) + use) as DisplayText,
        date: at,
      });
    }
    case 'deprecated': {
      const at = lifecycle?.deprecatedAt;
      return withSuccessor({
        state: 'deprecated',
        severity: 'warning',
        message: ((at !== undefined && at > options.now
          ? l10n.t('Model {0} is deprecated from {1}.', id, isoDay(at))
          : at !== undefined
            ? l10n.t('Model {0} is deprecated since {1}.', id, isoDay(at))
            : l10n.t('Model {0} is deprecated.', id)) + use) as DisplayText,
        ...(at !== undefined ? { date: at } : {}),
      });
    }
    case 'preview':
      return withSuccessor({ state: 'preview', severity: 'none', message: l10n.t('Model {0} is in preview.', id) });
    default:
      return withSuccessor({ state: 'current', severity: 'none', message: l10n.t('Model {0} is current.', id) });
  }
}
