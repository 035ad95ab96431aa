import * as assert from 'node:assert/strict';
import { readEndpoint, withEndpoint } from '../../../src/requests/core/endpointHeader';

describe('requests: endpoint header', () => {
  it('reads the endpoint from a first-line comment, tolerant of case, spaces and slashes', () => {
    assert.equal(readEndpoint('// POST /v1/chat\n{}'), '/v1/chat');
    assert.equal(readEndpoint('//post   v1/Embeddings/ \r\n{}'), '/v1/embeddings');
    assert.equal(readEndpoint('// POST /v1/responses'), '/v1/responses');
    assert.equal(readEndpoint('{}\n// POST /v1/chat'), undefined, 'only the first line counts');
    assert.equal(readEndpoint('// POST /v1/unknown\n{}'), undefined);
    assert.equal(readEndpoint('// GET /v1/models\n{}'), undefined);
  });

  it('replaces an existing header or inserts one, keeping the payload intact', () => {
    assert.equal(withEndpoint('// POST /v1/chat\n{"a":1}', '/v1/responses'), '// POST /v1/responses\n{"a":1}');
    assert.equal(withEndpoint('{"a":1}', '/v1/chat'), '// POST /v1/chat\n{"a":1}');
  });
});
