/**
 * The model list, page by page. One page, from its text to models + where the next page is: pure and total,
 * anything but a usable page becomes a ServiceError `invalidResponse`, never a TypeError (fuzzed in the tests).
 * The whole list: the paging loop and the five rules that stop it early, with the warning each gives.
 */
import { ServiceError } from './errors';
import { extractList, normalizeInto } from './models';
import { findNextPage, parseLinkNext, withParam, type NextPage } from './paging';
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

/** The limits of one list read (ServiceClientOptions.maxPages, maxModels, maxListBytes). */
export interface ListLimits {
  maxPages: number;
  maxModels: number;
  maxListBytes: number;
}

/** What has been read so far, for the stop rules. */
export interface ListProgress {
  pages: number;
  models: number;
  bytes: number;
}

/** A page as fetched: its text and where it came from. */
export interface FetchedPage {
  text: string;
  /** Absolute URL after redirects. */
  url: string;
  link?: string | string[];
  requestId?: string;
}

/**
 * Why the list stops before `nextUrl` although the server names one, as the warning the user sees, or
 * undefined to go on. The five rules, in order: another origin (the key is not sent there), a page read
 * already (a loop), the page limit, the model limit, the byte limit. `at-max-models` marks the model rule.
 */
export function stopBefore(
  nextUrl: string,
  source: string,
  origin: string,
  seen: ReadonlySet<string>,
  done: ListProgress,
  limits: ListLimits,
): { warning: string; atMaxModels?: true } | undefined {
  const { pages, models, bytes } = done;
  const nextOrigin = new URL(nextUrl).origin;
  if (nextOrigin !== origin) {
    return {
      warning: l10n.t(
        'Stopped after page {0}: the next page is on another origin ({1}), so it was not requested and your API key was not sent there. The list may be incomplete.',
        pages,
        nextOrigin,
      ),
    };
  }
  if (seen.has(nextUrl)) {
    return {
      warning: l10n.t(
        'Stopped after page {0}: the server sent a next page ({1}) that was already read, which would loop forever. The list may be incomplete.',
        pages,
        source,
      ),
    };
  }
  if (pages >= limits.maxPages) {
    return {
      warning:
        pages === 1
          ? l10n.t('Stopped after 1 page (the page limit); the list may be incomplete.')
          : l10n.t('Stopped after {0} pages (the page limit); the list may be incomplete.', pages),
    };
  }
  if (models >= limits.maxModels) {
    return {
      atMaxModels: true,
      warning:
        models === 1
          ? l10n.t('Stopped after 1 model (the limit set by modelAccess.limits.maxModels); the list may be incomplete.')
          : l10n.t(
              'Stopped after {0} models (the limit set by modelAccess.limits.maxModels); the list may be incomplete.',
              models,
            ),
    };
  }
  if (bytes >= limits.maxListBytes) {
    const mb = Math.round(limits.maxListBytes / 1024 / 1024);
    return {
      warning:
        pages === 1
          ? l10n.t(
              'Stopped after 1 page: the list passed {0} MB (the limit set by modelAccess.limits.maxListMegabytes); it may be incomplete.',
              mb,
            )
          : l10n.t(
              'Stopped after {0} pages: the list passed {1} MB (the limit set by modelAccess.limits.maxListMegabytes); it may be incomplete.',
              pages,
              mb,
            ),
    };
  }
  return undefined;
}

/**
 * Reads the whole list from `first`, page after page, until the server names no next page or a stop rule
 * (stopBefore) ends it; trims the models to `maxModels`. `fetchPage` GETs one page (`what` names it in messages);
 * `onPage` sees the models so far after each page that is not the last.
 */
export async function readModelList(
  first: string,
  origin: string,
  limits: ListLimits,
  fetchPage: (url: string, what: string) => Promise<FetchedPage>,
  onPage?: (models: readonly ModelEntry[]) => void,
): Promise<{ models: ModelEntry[]; skipped: number; warnings: string[]; pages: number }> {
  const models: ModelEntry[] = [];
  const warnings: string[] = [];
  let stoppedAtMaxModels = false;
  let skipped = 0;
  let pages = 0;
  let bytes = 0;
  let url = first;
  const seen = new Set<string>([url]);
  /** The next page, asked for while this one is read (only when a Link header named it up front). */
  let ahead: { url: string; page: Promise<FetchedPage> } | undefined;
  const whatPage = (n: number) => (n === 1 ? l10n.t('The model list') : l10n.t('Page {0} of the model list', n));
  for (;;) {
    const what = whatPage(pages + 1);
    const fetched = ahead?.url === url ? await ahead.page : await fetchPage(url, what);
    ahead = undefined;
    pages++;
    bytes += fetched.text.length;
    // A Link header names the next page before the body is parsed: the service prepares it meanwhile. Only when
    // no stop rule could end the list here, so no page is asked for that the list would not read: the model
    // limit with the most models this page can hold (the shortest entry with an id, `{"id":1}`, is 8 characters).
    const early = parseLinkNext(fetched.link, fetched.url);
    if (
      early !== undefined &&
      models.length + Math.floor(fetched.text.length / 8) < limits.maxModels &&
      stopBefore(early, '', origin, seen, { pages, models: models.length, bytes }, limits) === undefined
    ) {
      const page = fetchPage(early, whatPage(pages + 1));
      // Read only if the list goes on to it; a list that ends here (an error on this page) drops it.
      page.catch(() => undefined);
      ahead = { url: early, page };
    }
    const page = readListPage(
      fetched.text,
      { url: fetched.url, link: fetched.link, what, host: origin, requestId: fetched.requestId },
      models,
    );
    skipped += page.skipped;
    const next = page.next;
    if (next.kind === 'end') {
      break;
    }
    if (onPage && models.length <= limits.maxModels) {
      onPage(models);
    }
    const nextUrl = next.kind === 'url' ? next.url : withParam(fetched.url, next.name, next.value);
    const stop = stopBefore(nextUrl, next.source, origin, seen, { pages, models: models.length, bytes }, limits);
    if (stop) {
      warnings.push(stop.warning);
      stoppedAtMaxModels = stop.atMaxModels === true;
      break;
    }
    seen.add(nextUrl);
    url = nextUrl;
  }
  if (models.length > limits.maxModels) {
    if (!stoppedAtMaxModels) {
      // More than the limit means at least 2, so no message for one model.
      warnings.push(
        l10n.t(
          'Showing the first {0} of {1} models (the limit set by modelAccess.limits.maxModels).',
          limits.maxModels,
          models.length,
        ),
      );
    }
    models.length = limits.maxModels;
  }
  return { models, skipped, warnings, pages };
}
