import * as assert from 'node:assert/strict';
import { readErrorBody } from '../../../src/api/errorBody';
import { httpError, networkError, ServiceError } from '../../../src/api/errors';
import { redactor } from '../../../src/api/redact';

describe('api/errors: reading error bodies', () => {
  const cases: [string, string, Record<string, string>, { message?: string; code?: string; type?: string }][] = [
    [
      'OpenAI',
      '{"error":{"message":"The model `x` does not exist.","type":"invalid_request_error","param":null,"code":"model_not_found"}}',
      {},
      { message: 'The model `x` does not exist.', code: 'model_not_found', type: 'invalid_request_error' },
    ],
    [
      'Anthropic',
      '{"type":"error","error":{"type":"not_found_error","message":"model: x"},"request_id":"r"}',
      {},
      { message: 'model: x', type: 'not_found_error' },
    ],
    [
      'Gemini',
      '{"error":{"code":404,"message":"Model not found.","status":"NOT_FOUND"}}',
      {},
      { message: 'Model not found.', code: '404' },
    ],
    ['Ollama', '{"error":"model \'x\' not found"}', {}, { message: "model 'x' not found" }],
    [
      'MLflow',
      '{"error_code":"RESOURCE_DOES_NOT_EXIST","message":"Registered Model with name=x not found"}',
      {},
      { message: 'Registered Model with name=x not found', code: 'RESOURCE_DOES_NOT_EXIST' },
    ],
    ['FastAPI detail', '{"detail":"Not authenticated"}', {}, { message: 'Not authenticated' }],
    [
      'FastAPI list',
      '{"detail":[{"loc":["q"],"msg":"field required"},{"msg":"too long"}]}',
      {},
      { message: 'field required; too long' },
    ],
    [
      'problem+json',
      '{"type":"about:blank","title":"Forbidden","status":403,"detail":"Key lacks scope models:read"}',
      { 'content-type': 'application/problem+json' },
      { message: 'Forbidden: Key lacks scope models:read', type: 'about:blank' },
    ],
    ['OAuth', '{"error_description":"token expired"}', {}, { message: 'token expired' }],
    ['errors[]', '{"errors":[{"message":"bad","code":"E1"}]}', {}, { message: 'bad', code: 'E1' }],
    [
      'headers',
      '',
      { 'x-error-message': 'Repo not found', 'x-error-code': 'RepoNotFound' },
      { message: 'Repo not found', code: 'RepoNotFound' },
    ],
    [
      'text',
      '\n  upstream connect error\nmore\n',
      { 'content-type': 'text/plain' },
      { message: 'upstream connect error' },
    ],
  ];
  for (const [name, body, headers, expected] of cases) {
    it(`reads the ${name} shape`, () => {
      const got = readErrorBody(body, headers);
      assert.equal(got.message, expected.message);
      assert.equal(got.code, expected.code);
      assert.equal(got.type, expected.type);
    });
  }

  it('turns an HTML page into one short clean line', () => {
    const page = `<!DOCTYPE html><html><head><style>body{}</style><title>503 Service\n Temporarily  Unavailable &amp; more</title></head><body>${'<p>x</p>'.repeat(10000)}</body></html>`;
    const got = readErrorBody(page, { 'content-type': 'text/html' });
    assert.equal(got.html, true);
    assert.equal(got.message, '503 Service Temporarily Unavailable & more');
  });

  it('never throws and bounds what it returns', () => {
    for (const body of [
      '',
      '{',
      'null',
      '[]',
      '[1]',
      '{"error":{}}',
      '{"error":null}',
      'x'.repeat(100000),
      '{"message":{"a":1}}',
    ]) {
      const got = readErrorBody(body);
      assert.ok(got.message === undefined || got.message.length <= 300);
    }
  });
});

describe('api/errors: ServiceError messages', () => {
  it('says status, server message and request id in plain words', () => {
    const e = httpError({
      status: 401,
      headers: {},
      body: '{"error":{"message":"Invalid API key","code":"invalid_api_key"}}',
      host: 'https://h',
      requestId: 'req_123',
    });
    assert.ok(e instanceof ServiceError);
    assert.equal(e.message, 'The server answered 401 Unauthorized: Invalid API key (request id req_123)');
    assert.equal(e.kind, 'unauthorized');
    assert.equal(e.code, 'invalid_api_key');
    assert.equal(String(e), 'ServiceError: The server answered 401 Unauthorized: Invalid API key (request id req_123)');
  });

  it('maps statuses to kinds', () => {
    const kind = (status: number): string => httpError({ status, headers: {}, body: '', host: 'h' }).kind;
    assert.deepEqual([401, 403, 404, 429, 400, 500, 503].map(kind), [
      'unauthorized',
      'unauthorized',
      'notFound',
      'rateLimited',
      'http',
      'http',
      'http',
    ]);
  });

  it('does not repeat a proxy page title that is the status line', () => {
    const e = httpError({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>502 Bad Gateway</title></head></html>',
      host: 'h',
    });
    assert.equal(
      e.message,
      'The server answered 502 Bad Gateway (an HTML page, probably from a proxy or gateway in front of the service)',
    );
  });

  it('names network failures', () => {
    const err = (code: string): Error => Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code });
    assert.equal(
      networkError(err('ECONNREFUSED'), 'https://host', 'connect').message,
      'Could not connect to https://host: connection refused.',
    );
    assert.equal(
      networkError(err('ENOTFOUND'), 'https://host', 'connect').message,
      'Could not connect to https://host: the host name was not found (DNS).',
    );
    assert.equal(
      networkError(err('ECONNRESET'), 'https://host', 'body').message,
      'The connection to https://host was reset before the answer was complete.',
    );
    assert.match(
      networkError(err('DEPTH_ZERO_SELF_SIGNED_CERT'), 'https://host', 'connect').message,
      /^The certificate of https:\/\/host is not trusted: .*\(DEPTH_ZERO_SELF_SIGNED_CERT\)\. .*modelAccess\.tls\.caCertificates/,
    );
    const t = networkError(
      Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
      'https://host',
      'headers',
      undefined,
      1500,
    );
    assert.equal(t.kind, 'timeout');
    assert.equal(t.message, 'https://host did not answer within 1.5 s (timed out waiting for the response headers).');
    assert.equal(networkError(Object.assign(new Error('x'), { name: 'AbortError' }), 'h', 'body').kind, 'aborted');
  });

  it('removes the key from every field, toString and JSON', () => {
    const key = 'sk-canary-0123456789';
    const r = redactor([key]);
    const e = httpError({
      status: 401,
      headers: { 'x-error-code': key },
      body: JSON.stringify({
        error: { message: `Incorrect API key provided: ${key} (${encodeURIComponent(key)})`, type: key },
      }),
      host: 'https://h',
      requestId: key,
      redact: r,
    });
    const all = [
      e.message,
      String(e),
      e.stack ?? '',
      JSON.stringify(e),
      e.serverMessage ?? '',
      e.type ?? '',
      e.code ?? '',
      e.requestId ?? '',
    ].join('\n');
    assert.ok(!all.includes(key), all);
    assert.ok(all.includes('[redacted]'));
  });
});
