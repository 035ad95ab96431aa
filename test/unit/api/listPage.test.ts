import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { readListPage, type PageContext } from '../../../src/api/listPage';
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
