import * as assert from 'node:assert/strict';
import {
  endpointInfo,
  ENDPOINTS,
  normalizeEndpoint,
  readEndpoint,
  withEndpoint,
} from '../../../../src/domain/payload/endpointHeader';

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
    assert.equal(withEndpoint('// POST /v1/chat', '/v1/embeddings'), '// POST /v1/embeddings');
  });

  it('names each endpoint in the picker, and finds its entry by path', () => {
    assert.deepEqual(
      ENDPOINTS.map((e) => `${e.label} ${e.path}`),
      ['Responses /v1/responses', 'Chat /v1/chat', 'Embeddings /v1/embeddings'],
    );
    assert.equal(endpointInfo('/v1/chat')?.label, 'Chat');
    assert.equal(endpointInfo('/v1/files'), undefined);
  });

  it('reads a header line ending in CR, and a path written with spaces or trailing slashes', () => {
    assert.equal(readEndpoint('// POST /v1/chat\r\n{}'), '/v1/chat');
    assert.equal(readEndpoint('// POST /v1/chat\r'), '/v1/chat');
    assert.equal(readEndpoint('// POST /v1/chat\r\r\n{}'), undefined);
    assert.equal(normalizeEndpoint('  v1/chat//  '), '/v1/chat');
    assert.equal(withEndpoint('// POST /v1/chat\r\n{}', '/v1/responses'), '// POST /v1/responses\n{}');
    assert.equal(withEndpoint('// POST /v1/chat', '/v1/embeddings'), '// POST /v1/embeddings');
    assert.equal(withEndpoint('\n{}', '/v1/chat'), '// POST /v1/chat\n\n{}');
  });
});
