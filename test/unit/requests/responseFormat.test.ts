import * as assert from 'node:assert/strict';
import { renderResponse } from '../../../src/requests/core/responseFormat';

const same = (text: string) => text;

describe('requests: response document', () => {
  it('starts with endpoint, status, time, size and request id, then pretty JSON', () => {
    const text = renderResponse(
      {
        method: 'POST',
        endpoint: '/v1/chat',
        startedAt: 0,
        status: 200,
        statusText: 'OK',
        elapsedMs: 12.4,
        bytes: 2048,
        requestId: 'req_1',
        bodyText: '{"a":1}',
        bodyJson: { a: 1 },
      },
      same,
    );
    const [head, ...rest] = text.split('\n');
    assert.equal(head, '// POST /v1/chat · 200 OK · 12 ms · 2.0 KB · request id req_1');
    assert.equal(rest.join('\n'), '{\n  "a": 1\n}\n');
  });

  it('cuts a huge body for display and says how to save all of it', () => {
    const big = 'x'.repeat(300 * 1024);
    const text = renderResponse(
      { method: 'POST', endpoint: '/v1/chat', startedAt: 0, status: 200, bodyText: big },
      same,
    );
    assert.ok(text.length < big.length);
    assert.match(text, /Save Response Body/);
  });
});
