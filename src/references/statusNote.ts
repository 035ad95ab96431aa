import { displayText, type DisplayText } from '../common/text';
import { Views } from '../ids';
import { l10n } from '../platform/l10n';
import { StatusBarEntry } from '../platform/statusBarEntry';
import { badge, type ModelsInUse, type UsedModel } from './modelsInUse';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a used model needs attention now: retired or gone, or retiring within `warnDays`. */
export function retiresSoon(used: UsedModel, now: number, warnDays: number): boolean {
  const { state, date } = used.verdict;
  if (state === 'retired' || state === 'gone') {
    return true;
  }
  return state === 'retiring' && date !== undefined && date - now <= warnDays * DAY_MS;
}

/** The status-bar note: shown while a model the workspace names retires within the window (or has). */
export class RetiringNote extends StatusBarEntry {
  constructor(
    private readonly inUse: ModelsInUse,
    private readonly warnDays: () => number,
  ) {
    super('modelAccess.references', l10n.t('Model Access: models in use retiring'), 90);
    this.item.command = { command: `${Views.modelsInUse}.focus`, title: l10n.t('Show Models in Use') };
    this.follow(inUse.onDidChangeTreeData);
  }

  /** What the note says now (undefined: hidden). */
  get text(): string | undefined {
    return this.shown;
  }
  private shown: string | undefined;

  protected update(): void {
    const now = Date.now();
    const soon = this.inUse.used.filter((m) => retiresSoon(m, now, this.warnDays()));
    if (soon.length === 0) {
      this.shown = undefined;
      this.item.hide();
      return;
    }
    const text: DisplayText =
      soon.length === 1
        ? l10n.t('{0}: {1}', displayText(soon[0].id, 60), badge(soon[0].verdict))
        : l10n.t('{0} models in use are retiring or retired', soon.length);
    this.shown = text;
    this.item.text = `$(warning) ${text}`;
    this.item.accessibilityInformation = { label: text };
    const md = this.tooltip(l10n.t('Models in use retiring within {0} days', this.warnDays()));
    for (const m of soon) {
      md.appendText(`${displayText(m.id, 120)}: ${badge(m.verdict)}`);
      md.appendMarkdown('  \n');
    }
    this.item.tooltip = md;
    this.item.show();
  }
}
