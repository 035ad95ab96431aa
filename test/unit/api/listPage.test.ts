import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { readListPage, readModelList, stopBefore, type PageContext } from '../../../src/api/listPage';
import type { ModelEntry } from '../../../src/api/types';

const ctx: PageContext = { url: 'https://h/v1/models', what: 'Page 2 of the model list', host: 'https://h' };

function refusal(text: string, c: PageContext = ctx): ServiceError {
  try {
    readListPage(text, c, []);
  } catch (e) {
    assert.ok(e instanceof ServiceError);
    return e;
  }
  assert.fail('the page was accepted');
}

describe('api/listPage', () => {
  it('appends the models of a page to what was read before, counts the skipped, and finds the next page', () => {
    const out: ModelEntry[] = [{ id: 'earlier', raw: {} }];
    const page = readListPage(
      '{"data":[{"id":"a"},{"nope":1},{"id":"b"}],"next_page_token":"t"}',
      { ...ctx, link: undefined },
      out,
    );
    assert.deepEqual(
      out.map((m) => m.id),
      ['earlier', 'a', 'b'],
    );
    assert.deepEqual([page.added, page.skipped], [2, 1]);
    assert.deepEqual(page.next, { kind: 'param', name: 'page_token', value: 't', source: 'next_page_token' });
  });

  it('follows the Link header of the page, resolved against its URL', () => {
    const page = readListPage('[{"id":"a"}]', { ...ctx, link: '<?after=a>; rel="next"' }, []);
    assert.deepEqual(page.next, { kind: 'url', url: 'https://h/v1/models?after=a', source: 'Link header' });
  });

  it('says which page from which host is not JSON, with the parser message and request id', () => {
    const e = refusal('{"data": [', { ...ctx, requestId: 'req-9' });
    assert.equal(e.kind, 'invalidResponse');
    assert.equal(e.host, 'https://h');
    assert.equal(e.requestId, 'req-9');
    assert.match(
      e.message,
      /^Page 2 of the model list from https:\/\/h is not valid JSON \(.+\) \(request id req-9\)\.$/,
    );
    assert.ok(refusal(`{${'x'.repeat(500)}`).message.length < 260, 'the parser message is clipped');
  });

  it('says where it looked for the models when the page has none', () => {
    assert.equal(
      refusal('{"object":"list","rows":[]}').message,
      'Page 2 of the model list from https://h has no array of models (looked for a JSON array or a data/models/items/results/value field).',
    );
    assert.doesNotMatch(refusal('"text"').message, /request id/);
  });
});

describe('api/listPage: the whole list', () => {
  const limits = { maxPages: 10, maxModels: 100, maxListBytes: 1_000_000 };
  const origin = 'https://h';

  it('stops for the first rule that applies, in order: origin, loop, pages, models, bytes', () => {
    const seen = new Set(['https://h/v1/models?p=2']);
    const done = { pages: 10, models: 100, bytes: 1_000_000 };
    const stop = (url: string, d = done) => stopBefore(url, 'next', origin, seen, d, limits)?.warning;
    assert.match(
      stop('https://elsewhere/v1/models?p=2') ?? '',
      /^Stopped after page 10: the next page is on another origin \(https:\/\/elsewhere\)/,
    );
    assert.match(
      stop('https://h/v1/models?p=2') ?? '',
      /^Stopped after page 10: the server sent a next page \(next\) that was already read/,
    );
    assert.equal(
      stop('https://h/v1/models?p=3'),
      'Stopped after 10 pages (the page limit); the list may be incomplete.',
    );
    const models = stopBefore('https://h/?p=3', 'next', origin, seen, { ...done, pages: 9 }, limits);
    assert.deepEqual(models, {
      atMaxModels: true,
      warning: 'Stopped after 100 models (the limit set by modelAccess.limits.maxModels); the list may be incomplete.',
    });
    assert.match(
      stop('https://h/?p=3', { ...done, pages: 9, models: 99 }) ?? '',
      /^Stopped after 9 pages: the list passed 1 MB/,
    );
    assert.equal(stop('https://h/?p=3', { pages: 9, models: 99, bytes: 999_999 }), undefined);
  });

  it('says both why it stopped and that it cut the list, when another limit stopped it above maxModels', async () => {
    const page = '{"data":[{"id":"a"},{"id":"b"},{"id":"c"}],"next_cursor":"c2"}';
    const r = await readModelList(
      'https://h/v1/models',
      origin,
      { ...limits, maxPages: 1, maxModels: 2 },
      async (url) => ({
        text: page,
        url,
      }),
    );
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['a', 'b'],
    );
    assert.deepEqual(r.warnings, [
      'Stopped after 1 page (the page limit); the list may be incomplete.',
      'Showing the first 2 of 3 models (the limit set by modelAccess.limits.maxModels).',
    ]);
  });

  it('reads page after page through cursors and links, telling the caller after each page but the last', async () => {
    const pages: Record<string, string> = {
      'https://h/v1/models': '{"data":[{"id":"a"}],"next_cursor":"c2"}',
      'https://h/v1/models?cursor=c2': '{"data":[{"id":"b"},{"no":"id"}],"next":"/v1/models?page=3"}',
      'https://h/v1/models?page=3': '{"data":[{"id":"c"}]}',
    };
    const asked: string[] = [];
    const seenSoFar: string[][] = [];
    const r = await readModelList(
      'https://h/v1/models',
      origin,
      limits,
      async (url, what) => {
        asked.push(`${what}: ${url}`);
        return { text: pages[url], url };
      },
      (models) => seenSoFar.push(models.map((m) => m.id)),
    );
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['a', 'b', 'c'],
    );
    assert.deepEqual([r.pages, r.skipped, r.warnings], [3, 1, []]);
    assert.deepEqual(asked, [
      'The model list: https://h/v1/models',
      'Page 2 of the model list: https://h/v1/models?cursor=c2',
      'Page 3 of the model list: https://h/v1/models?page=3',
    ]);
    assert.deepEqual(seenSoFar, [['a'], ['a', 'b']]);
  });
  it('asks for the next page while it reads this one when a Link header names it, not past a limit', async () => {
    const link = (n: number) => `<https://h/v1/models?page=${n}>; rel="next"`;
    const pages: Record<string, { text: string; link?: string }> = {
      'https://h/v1/models': { text: '[{"id":"a"}]', link: link(2) },
      'https://h/v1/models?page=2': { text: '[{"id":"b"}]', link: link(3) },
      'https://h/v1/models?page=3': { text: '[{"id":"c"}]' },
    };
    const read = async (l: typeof limits) => {
      const asked: string[] = [];
      const askedWhenShown: number[] = [];
      const r = await readModelList(
        'https://h/v1/models',
        origin,
        l,
        async (url, what) => {
          asked.push(`${what}: ${url}`);
          return { ...pages[url], url };
        },
        () => askedWhenShown.push(asked.length),
      );
      return { ids: r.models.map((m) => m.id), asked, askedWhenShown, warnings: r.warnings };
    };
    const all = await read(limits);
    assert.deepEqual(all.ids, ['a', 'b', 'c']);
    assert.deepEqual(all.asked, [
      'The model list: https://h/v1/models',
      'Page 2 of the model list: https://h/v1/models?page=2',
      'Page 3 of the model list: https://h/v1/models?page=3',
    ]);
    // When the rows of page 1 are shown, page 2 has already been asked for (and page 3 with page 2's rows).
    assert.deepEqual(all.askedWhenShown, [2, 3]);
    // The page limit: page 2 is never asked for, so nothing is sent that the list will not use.
    const one = await read({ ...limits, maxPages: 1 });
    assert.deepEqual([one.ids, one.asked.length], [['a'], 1]);
    assert.deepEqual(one.warnings, ['Stopped after 1 page (the page limit); the list may be incomplete.']);
    // The model limit, which this page may reach: page 2 is not asked for either.
    const first = await read({ ...limits, maxModels: 1 });
    assert.deepEqual([first.ids, first.asked.length], [['a'], 1]);
  });

  it('does not ask for a page ahead when the next one is only known from the body (has_more + last_id)', async () => {
    const asked: string[] = [];
    const askedWhenShown: number[] = [];
    await readModelList(
      'https://h/v1/models',
      origin,
      limits,
      async (url) => {
        asked.push(url);
        const last = url.endsWith('after=a');
        return { text: `{"data":[{"id":"${last ? 'b' : 'a'}"}],"has_more":${!last}}`, url };
      },
      () => askedWhenShown.push(asked.length),
    );
    assert.deepEqual(asked, ['https://h/v1/models', 'https://h/v1/models?after=a']);
    assert.deepEqual(askedWhenShown, [1]);
  });
});
