/**
 * A GET of one JSON document (a page of the list, one model): retried by the policy of retry.ts (a reset while
 * reading the body too), same-origin redirects followed (redirects.ts), the body read up to a size limit.
 */
import type { Call } from './call';
import { httpError, ServiceError } from './errors';
import type { Headers } from './headers';
import { getFollowing } from './redirects';
import { retryAfterMs, retrying, sleep, type Attempt, type RetryPolicy } from './retry';
import type { Exchange, Transport } from './transport';
import { l10n } from '../common/plainL10n';

/** One page of a list, or one model, larger than this is refused (a runaway or hostile server). */
export const MAX_JSON_PAGE_BYTES = 128 * 1024 * 1024;

/**
 * Resolves with the text of a 2xx answer; throws a ServiceError otherwise (after the retries). `what` names
 * the document in messages ("Page 2 of the model list").
 */
export function getText(
  t: Transport,
  call: Call,
  policy: RetryPolicy,
  url: string,
  what: string,
): Promise<{ text: string; ex: Exchange }> {
  return retrying(
    policy,
    (attempt) => getOnce(t, call, url, what, attempt),
    async (ms) => {
      try {
        await sleep(ms, call.signal);
      } catch (e) {
        throw t.failure(e, 'headers', call.redact, call.signal);
      }
    },
  );
}

async function getOnce(
  t: Transport,
  call: Call,
  url: string,
  what: string,
  attempt: number,
): Promise<Attempt<{ text: string; ex: Exchange }>> {
  let answered: Exchange | undefined;
  // The headers of an error answer decide its retry (x-should-retry) even when reading its body fails.
  let headers: Headers = {};
  try {
    const ex = await getFollowing(t, call, url, attempt);
    answered = ex;
    if (ex.status >= 200 && ex.status < 300) {
      const body = await t.readBody(ex, MAX_JSON_PAGE_BYTES, call.redact, call.signal);
      if (body.truncated) {
        throw new ServiceError({
          kind: 'invalidResponse',
          message: l10n.t(
            '{0} from {1} is larger than {2} MB; it was not read.',
            what,
            t.base.origin,
            MAX_JSON_PAGE_BYTES / 1024 / 1024,
          ),
          host: t.base.origin,
          requestId: ex.requestId,
        });
      }
      t.logDone(ex, 'GET', call.redact, undefined, attempt);
      return { value: { text: body.text, ex } };
    }
    headers = ex.headers;
    const body = await t.readBody(ex, 64 * 1024, call.redact, call.signal);
    const failure = httpError({
      status: ex.status,
      headers,
      body: body.text,
      host: t.base.origin,
      requestId: ex.requestId,
      retryAfterMs: retryAfterMs(headers),
      redact: call.redact,
    });
    t.logDone(ex, 'GET', call.redact, failure.message, attempt);
    return { failure, headers };
  } catch (e) {
    const failure = t.failure(e, 'headers', call.redact, call.signal);
    // Failures before the headers are logged by the transport; those while reading the body here.
    if (answered) {
      t.logDone(answered, 'GET', call.redact, failure.message, attempt);
    }
    return { failure, headers };
  }
}
