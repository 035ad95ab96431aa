import * as vscode from 'vscode';
import type { TokenUsage } from '../domain/answer';
import { costOf, type Cost } from '../domain/cost/cost';
import { priceFor, type ModelPrice } from '../domain/cost/prices';
import { nextRateLimits, readRateLimits, type RateLimits } from '../domain/cost/rateLimits';
import { dayOf, UsageTotals } from '../domain/cost/totals';
import type { Config } from './config';
import type { ServiceConnection } from './connection';
import type { EnvironmentCatalogs } from './environmentCatalogs';
import type { Environments } from './environments';
import { Lifecycle } from './lifecycle';

/** The globalState key of the totals per day (counts and amounts only: never a key, a prompt or an answer). */
export const USAGE_STATE_KEY = 'modelAccess.usage.v1';
/** Days of totals kept. */
export const USAGE_DAYS_KEPT = 62;

/** One answer as the features report it: which model, where, what it used. */
export interface AnswerUsage {
  model: string | undefined;
  /** The environment it went to, by name; the active one when undefined. */
  environment?: string;
  usage?: TokenUsage;
  /** Epoch milliseconds; now when undefined. */
  at?: number;
}

/**
 * What the work costs, as the window saw it: each model's price (the registry's entry, overridden or filled by
 * `modelAccess.prices`), the cost of each answer the features report, the totals since the window opened and
 * per day (kept in global storage: counts and amounts, never text), and the last rate limits each environment's
 * service announced (read from every answer any client of that environment saw).
 */
export class UsageMeter extends Lifecycle {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** The totals, the rate limits or the prices changed. */
  readonly onDidChange = this._onDidChange.event;
  /** Since the window opened. */
  readonly session = new UsageTotals();
  /** Per day, as stored. */
  readonly days: UsageTotals;
  private readonly limits = new Map<string, RateLimits>();
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: Pick<Config, 'prices' | 'onDidChange'>,
    private readonly environments: Pick<Environments, 'active' | 'find'>,
    private readonly catalogs: Pick<EnvironmentCatalogs, 'catalogFor'>,
    connection: Pick<ServiceConnection, 'onDidAnswer'>,
    private readonly state: vscode.Memento,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.days = UsageTotals.from(state.get<unknown>(USAGE_STATE_KEY));
    this.own(
      this._onDidChange,
      connection.onDidAnswer(({ environment, entry }) => {
        const seen = entry.rateLimitHeaders && readRateLimits(entry.rateLimitHeaders, this.now());
        if (seen) {
          this.limits.set(environment, nextRateLimits(this.limits.get(environment), seen) ?? seen);
          this._onDidChange.fire();
        }
      }),
      config.onDidChange((e) => {
        if (e.view) {
          this._onDidChange.fire();
        }
      }),
    );
  }

  /** The model's price in `environment` (the active one by default): registry and setting; undefined: none known. */
  priceOf(model: string | undefined, environment?: string): ModelPrice | undefined {
    if (!model) {
      return undefined;
    }
    const env = environment === undefined ? this.environments.active : this.environments.find(environment);
    const entry = env ? this.catalogs.catalogFor(env).models.find((m) => m.id === model)?.raw : undefined;
    return priceFor(model, entry, this.config.prices);
  }

  /** Loads `environment`'s model list if it is not loaded yet: the registry's prices are in its entries. */
  async loadPrices(environment?: string): Promise<void> {
    const env = environment === undefined ? this.environments.active : this.environments.find(environment);
    if (env) {
      // A list that cannot be loaded leaves the prices unknown: the checks then say so, never guess.
      await this.catalogs
        .catalogFor(env)
        .ensureLoaded()
        .catch(() => undefined);
    }
  }

  /** What an answer cost: undefined when the price or the counts it needs are unknown (never zero by guess). */
  costOf(a: AnswerUsage): { price: ModelPrice | undefined; cost: Cost | undefined } {
    const price = this.priceOf(a.model, a.environment);
    return { price, cost: costOf(a.usage, price) };
  }

  /** Counts an answer in the totals (the window's and the day's, saved); returns its model's price and its cost. */
  record(a: AnswerUsage): { price: ModelPrice | undefined; cost: Cost | undefined } {
    const priced = this.costOf(a);
    const cost = priced.cost;
    const at = a.at ?? this.now();
    const event = {
      model: a.model ?? '',
      environment: a.environment ?? this.environments.active?.name ?? '',
      usage: a.usage,
      cost,
      at,
    };
    this.session.add(event);
    this.days.add(event);
    this.days.dropBefore(dayOf(at - USAGE_DAYS_KEPT * 24 * 3600 * 1000));
    // One write at a time, each the latest totals: a burst of answers never interleaves its writes.
    this.saving = this.saving.then(
      () => this.state.update(USAGE_STATE_KEY, this.days.toJSON()),
      () => undefined,
    );
    this._onDidChange.fire();
    return priced;
  }

  /** The last rate limits `environment`'s service announced (the active one by default). */
  limitsOf(environment?: string): RateLimits | undefined {
    const name = environment ?? this.environments.active?.name;
    return name === undefined ? undefined : this.limits.get(name);
  }
}
