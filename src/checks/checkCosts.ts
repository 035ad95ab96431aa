import type * as vscode from 'vscode';
import { clean, displayText } from '../common/text';
import { costText, tokensText, type Priced } from '../domain/answerFacts';
import { requestsLeft } from '../domain/cost/rateLimits';
import type { Services } from '../services';
import { l10n } from '../platform/l10n';
import type { RowResult } from './core/fileRun';

/**
 * What a check run costs, for the Test Explorer glue: each answered request counted in the Usage view and
 * priced (for its Test Results line and the results grid), and a warning before a run that would send more
 * requests than the service said are left.
 */
export class CheckCosts {
  private readonly priced = new WeakMap<RowResult, Priced>();
  /** Once the person chose to run anyway, the rest of this run is not asked about again. */
  private goAhead = false;

  constructor(private readonly deps: Pick<Services, 'meter' | 'ui'>) {}

  /** A new run of checks: the warning may be shown again. */
  startRun(): void {
    this.goAhead = false;
  }

  /** Counts an answered request (the environment by name; the active one when undefined). */
  record(row: RowResult, environment: string | undefined): void {
    if (row.kind !== 'run' || row.result.observed.status === undefined || row.result.observed.status >= 400) {
      return;
    }
    this.priced.set(
      row,
      this.deps.meter.record({ model: row.result.model, environment, usage: row.result.observed.answer?.usage }),
    );
  }

  /** The request's price and cost, once counted. */
  pricedOf = (row: RowResult): Priced | undefined => this.priced.get(row);

  /** `42 tokens (12 in, 30 out) · 0.000072 USD` for a counted request's Test Results line; empty otherwise. */
  factsOf(row: RowResult): string {
    const priced = this.priced.get(row);
    if (row.kind !== 'run' || !priced) {
      return '';
    }
    return `${tokensText(row.result.observed.answer?.usage)} · ${costText(priced)}`;
  }

  /**
   * Before `count` requests go to `environment`: when the service said fewer are left (and its window has not
   * reset), a warning with the way out — Run Anyway, or Cancel (the file's requests are skipped).
   */
  async confirm(count: number, environment: string | undefined, token?: vscode.CancellationToken): Promise<boolean> {
    const left = requestsLeft(this.deps.meter.limitsOf(environment), Date.now());
    if (this.goAhead || left === undefined || count <= left || token?.isCancellationRequested) {
      return true;
    }
    const where = environment ? displayText(environment, 60) : l10n.t('the service');
    const runAnyway = l10n.t('Run Anyway');
    const chosen = await this.deps.ui.ask(
      count === 1
        ? l10n.t(
            'This run sends 1 request, and {0} said it allows {1} more before its limit resets.',
            clean(where),
            left,
          )
        : l10n.t(
            'This run sends {0} requests, and {1} said it allows {2} more before its limit resets.',
            count,
            clean(where),
            left,
          ),
      l10n.t(
        'The requests past the limit may be refused (429) and fail their checks. Run anyway, or cancel and run fewer (fewer dataset rows or models) once the limit resets.',
      ),
      runAnyway,
    );
    this.goAhead = chosen === runAnyway;
    return this.goAhead;
  }
}
