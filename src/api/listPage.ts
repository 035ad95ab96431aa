/**
 * One page of the model list, from its text to models + where the next page is. Pure and total: anything
 * but a usable page becomes a ServiceError `invalidResponse`, never a TypeError (fuzzed in the tests).
 */
import { ServiceError } from './errors';
import { extractList, normalizeInto } from './models';
import { findNextPage, type NextPage } from './paging';
import type { ModelEntry } from './types';
import { l10n } from '../common/plainL10n';

export interface ListPage {
  /** Models appended to the caller's array. */
  added: number;
  skipped: number;
  next: NextPage;
}

export interface PageContext {
  /** Absolute URL the page was read from (relative next links resolve against it). */
  url: string;
  link?: string | string[];
  /** For messages: "The model list", "Page 3 of the model list". */
  what: string;
  host: string;
  requestId?: string;
}

function invalid(ctx: PageContext, why: string): ServiceError {
  return new ServiceError({
    kind: 'invalidResponse',
    message: ctx.requestId
      ? l10n.t('{0} from {1} {2} (request id {3}).', ctx.what, ctx.host, why, ctx.requestId)
      : l10n.t('{0} from {1} {2}.', ctx.what, ctx.host, why),
    host: ctx.host,
    requestId: ctx.requestId,
  });
}

/** Parses `text`, appends its models to `out`, and finds the next page. */
export function readListPage(text: string, ctx: PageContext, out: ModelEntry[]): ListPage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw invalid(ctx, l10n.t('is not valid JSON ({0})', why.slice(0, 120)));
  }
  const entries = extractList(json);
  if (entries === undefined) {
    throw invalid(
      ctx,
      l10n.t('has no array of models (looked for a JSON array or a data/models/items/results/value field)'),
    );
  }
  const before = out.length;
  try {
    const skipped = normalizeInto(entries, out);
    const next = findNextPage(json, ctx.link, ctx.url, entries);
    return { added: out.length - before, skipped, next };
  } catch (e) {
    // Defensive: the readers are total, but a hostile body must never surface as a TypeError.
    out.length = before;
    throw invalid(
      ctx,
      l10n.t('could not be read ({0})', e instanceof Error ? e.message.slice(0, 120) : l10n.t('unexpected shape')),
    );
  }
}
