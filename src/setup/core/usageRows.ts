/**
 * The rows of the Usage view: what the window used since it opened, today, and each earlier day kept —
 * requests, tokens and cost — each split by model and by environment. Unknown tokens or costs are said, never
 * shown as zero. Pure; no `vscode` import.
 */
import { l10n } from '../../common/l10n';
import { clean, displayText, type DisplayText } from '../../common/text';
import { formatTally, type Tally, type TotalsFilter, type UsageTotals } from '../../domain/cost/totals';

export interface UsageRow {
  /** Stable across redraws (the tree keeps what was expanded). */
  id: string;
  label: DisplayText;
  description: DisplayText;
  /** What a screen reader and the hover say: the label and the whole tally. */
  tooltip: DisplayText;
  children: UsageRow[];
}

/** The days shown one by one under "Earlier days" (the most recent first). */
export const EARLIER_DAYS_SHOWN = 31;

function tallyText(t: Tally): DisplayText {
  return clean(formatTally(t));
}

function leaf(id: string, label: DisplayText, t: Tally): UsageRow {
  const description = tallyText(t);
  return { id, label, description, tooltip: l10n.t('{0}: {1}', label, description), children: [] };
}

/** A period's row: its tally, then a row per model and per environment when there is more than one of either. */
function period(id: string, label: DisplayText, totals: UsageTotals, filter: TotalsFilter): UsageRow {
  const row = leaf(id, label, totals.summary(filter));
  const models = totals.by('model', filter);
  const environments = totals.by('environment', filter).filter((e) => e.name !== '');
  row.children = [
    ...models.map((m) =>
      leaf(`${id}/model/${m.name}`, l10n.t('Model {0}', displayText(m.name || l10n.t('(not named)'), 80)), m.tally),
    ),
    ...(environments.length > 1
      ? environments.map((e) =>
          leaf(`${id}/env/${e.name}`, l10n.t('Environment {0}', displayText(e.name, 60)), e.tally),
        )
      : []),
  ];
  return row;
}

/**
 * The view's rows: "Since this window opened", "Today", and "Earlier days" (one row per day kept, the most
 * recent first). Empty when nothing was counted yet (the view's welcome text says so).
 */
export function usageRows(session: UsageTotals, days: UsageTotals, today: string): UsageRow[] {
  if (session.summary().requests === 0 && days.days().length === 0) {
    return [];
  }
  const rows = [
    period('session', l10n.t('Since this window opened'), session, {}),
    period('today', l10n.t('Today'), days, { day: today }),
  ];
  const earlier = days
    .days()
    .filter((d) => d < today)
    .reverse();
  if (earlier.length > 0) {
    const shown = earlier.slice(0, EARLIER_DAYS_SHOWN);
    const all = shown.reduce((sum, d) => sum + days.summary({ day: d }).requests, 0);
    const description = all === 1 ? l10n.t('1 request') : l10n.t('{0} requests', all);
    rows.push({
      id: 'earlier',
      label: l10n.t('Earlier days'),
      description,
      tooltip: l10n.t('{0}: {1}', l10n.t('Earlier days'), description),
      children: shown.map((d) => period(`day/${d}`, clean(d), days, { day: d })),
    });
  }
  return rows;
}
