import * as assert from 'node:assert/strict';
import { readErrorBody } from '../../../src/api/errorBody';
import {
  httpError,
  isConnectionSetupFailure,
  isServiceError,
  networkError,
  ServiceError,
} from '../../../src/api/errors';
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

describe('api/errors: every network failure and status line', () => {
  const fail = (code: string, extra: Record<string, unknown> = {}): Error =>
    Object.assign(new Error(`failed ${code}`), { code, ...extra });
  const net = (e: unknown, phase: 'connect' | 'headers' | 'body' = 'connect', ms?: number) =>
    networkError(e, 'https://h', phase, undefined, ms);

  it('recognizes a cancel by any of its names', () => {
    for (const name of ['AbortError', 'RequestAbortedError']) {
      assert.equal(net(Object.assign(new Error('x'), { name })).kind, 'aborted', name);
    }
    for (const code of ['UND_ERR_ABORTED', 'ABORT_ERR']) {
      const e = net(fail(code));
      assert.deepEqual([e.kind, e.message], ['aborted', 'The request was cancelled.'], code);
    }
  });

  it('words each timeout by phase, in ms below a second and in tenths of seconds above', () => {
    for (const code of ['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']) {
      assert.equal(net(fail(code), 'connect', 999).message, 'Could not connect to https://h: no answer within 999 ms.');
    }
    assert.equal(
      net(Object.assign(new Error('t'), { name: 'ConnectTimeoutError' }), 'connect', 1000).message,
      'Could not connect to https://h: no answer within 1 s.',
    );
    assert.equal(
      net(Object.assign(new Error('t'), { name: 'HeadersTimeoutError' }), 'headers').message,
      'https://h did not answer (timed out waiting for the response headers).',
    );
    assert.equal(
      net(fail('UND_ERR_BODY_TIMEOUT'), 'body', 30_000).message,
      'https://h stopped sending its answer (nothing received within 30 s; timed out).',
    );
    assert.equal(net(Object.assign(new Error('t'), { name: 'BodyTimeoutError' }), 'body', 1250).kind, 'timeout');
    assert.match(net(fail('UND_ERR_BODY_TIMEOUT'), 'body', 1250).message, /within 1\.3 s/);
  });

  it('names DNS failures, unreachable networks and TLS failures with their codes', () => {
    for (const code of ['EAI_NONAME', 'EAI_FAIL']) {
      assert.equal(net(fail(code)).code, 'ENOTFOUND', code);
    }
    const again = net(fail('EAI_AGAIN'));
    assert.deepEqual(
      [again.code, again.message],
      ['EAI_AGAIN', 'Could not connect to https://h: the host name could not be looked up right now (DNS).'],
    );
    for (const code of ['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']) {
      const e = net(fail(code));
      assert.deepEqual(
        [e.kind, e.code, e.message],
        ['network', code, 'Could not connect to https://h: the network or host is unreachable.'],
      );
    }
    // Each TLS failure says what is wrong with the certificate and what to do about it.
    const trust =
      'If your organization uses its own certificate authority, add its PEM file to modelAccess.tls.caCertificates (or keep http.systemCertificates on and install it in the OS).';
    const tls: [string, string][] = [
      [
        'CERT_HAS_EXPIRED',
        "The certificate of https://h has expired (CERT_HAS_EXPIRED); the service's administrators need to renew it.",
      ],
      [
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
        `The certificate of https://h is not trusted: it was issued by a certificate authority this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE). ${trust}`,
      ],
      [
        'SELF_SIGNED_CERT_IN_CHAIN',
        `The certificate of https://h is not trusted: it was issued by a certificate authority this machine does not trust (SELF_SIGNED_CERT_IN_CHAIN). ${trust}`,
      ],
      [
        'ERR_TLS_CERT_ALTNAME_INVALID',
        'The certificate of https://h is for another host name (ERR_TLS_CERT_ALTNAME_INVALID); check the service URL.',
      ],
      [
        'HOSTNAME_MISMATCH',
        'The certificate of https://h is for another host name (HOSTNAME_MISMATCH); check the service URL.',
      ],
      [
        'ERR_SSL_WRONG_VERSION_NUMBER',
        `Could not connect securely to https://h: the TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER). ${trust}`,
      ],
      [
        'ERR_OSSL_EVP_UNSUPPORTED',
        `Could not connect securely to https://h: the TLS handshake failed (ERR_OSSL_EVP_UNSUPPORTED). ${trust}`,
      ],
    ];
    for (const [code, message] of tls) {
      const e = net(fail(code));
      assert.equal(e.code, code);
      assert.equal(e.message, message);
    }
    assert.notEqual(net(fail('XCERT_LIKE')).code, undefined);
    assert.doesNotMatch(net(fail('XCERT_LIKE')).message, /TLS/);
  });

  it('says when a connection was reset, by phase and by every name of a reset', () => {
    for (const code of ['EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']) {
      assert.equal(net(fail(code), 'body').code, 'ECONNRESET', code);
    }
    assert.equal(net(Object.assign(new Error('s'), { name: 'SocketError' })).code, 'ECONNRESET');
    assert.equal(
      net(fail('ECONNRESET'), 'headers').message,
      'The connection to https://h was reset before it answered.',
    );
    assert.equal(net(fail('ECONNRESET'), 'connect').message, 'The connection to https://h was reset while connecting.');
  });

  it('finds the code in causes up to five levels deep', () => {
    const wrapped = (depth: number): unknown => {
      let e: unknown = fail('ECONNREFUSED');
      for (let i = 0; i < depth; i++) {
        e = { message: 'fetch failed', cause: e };
      }
      return e;
    };
    assert.equal(net(wrapped(4)).message, 'Could not connect to https://h: connection refused.');
    assert.equal(net(wrapped(5)).message, 'Could not talk to https://h: fetch failed');
  });

  it('falls back to the error text and an upper-case code, bounded and redacted', () => {
    const odd = net(Object.assign(new Error('weird failure'), { code: 'E_ODD', name: 'Error' }));
    assert.deepEqual(
      [odd.kind, odd.code, odd.message],
      ['network', 'E_ODD', 'Could not talk to https://h: weird failure'],
    );
    assert.equal(net(Object.assign(new Error('x'), { code: 'lower' })).code, undefined);
    assert.equal(net('plain string').message, 'Could not talk to https://h: plain string');
    assert.equal(net({ message: 42 }).message, 'Could not talk to https://h: [object Object]');
    assert.equal(net(new Error('y'.repeat(1000))).message.length, 'Could not talk to https://h: '.length + 300);
    const r = redactor(['sk-1']);
    assert.equal(
      networkError(new Error('bad sk-1'), 'https://h', 'body', r).message,
      'Could not talk to https://h: bad [redacted]',
    );
    const same = new ServiceError({ kind: 'invalidResponse', message: 'kept' });
    assert.equal(net(same), same);
  });

  it('keeps the cause out of JSON and enumeration', () => {
    const cause = new Error('socket');
    const e = networkError(Object.assign(cause, { code: 'ECONNREFUSED' }), 'https://h', 'connect');
    assert.equal((e as Error & { cause?: unknown }).cause, cause);
    assert.ok(!Object.keys(e).includes('cause'));
    assert.ok(!JSON.stringify(e).includes('socket'));
    const rated = httpError({ status: 429, headers: {}, body: '', host: 'h', retryAfterMs: 1500, requestId: 'r' });
    assert.deepEqual(JSON.parse(JSON.stringify(rated)), {
      name: 'ServiceError',
      kind: 'rateLimited',
      message: 'The server answered 429 Too Many Requests (request id r)',
      status: 429,
      retryAfterMs: 1500,
      requestId: 'r',
    });
    assert.equal(isServiceError(rated), true);
    assert.equal(isServiceError(new Error('x')), false);
    assert.equal(new ServiceError({ kind: 'http', message: 'm' }).name, 'ServiceError');
  });

  it('leaves out a server message that only repeats the status line', () => {
    const said = (status: number, body: string) => httpError({ status, headers: {}, body, host: 'h' }).message;
    assert.equal(said(502, 'Bad Gateway'), 'The server answered 502 Bad Gateway');
    assert.equal(said(502, 'BAD GATEWAY'), 'The server answered 502 Bad Gateway');
    assert.equal(said(502, '502'), 'The server answered 502 Bad Gateway');
    assert.equal(said(502, '502 Bad Gateway'), 'The server answered 502 Bad Gateway');
    assert.equal(said(502, 'upstream down'), 'The server answered 502 Bad Gateway: upstream down');
    assert.equal(said(599, 'odd'), 'The server answered 599: odd');
    assert.equal(said(599, ''), 'The server answered 599');
    assert.equal(httpError({ status: 599, headers: {}, body: '', host: 'h' }).statusText, '');
    assert.equal(
      said(500, '<html><body><p> </p></body></html>'),
      'The server answered 500 Internal Server Error (an HTML page, probably from a proxy or gateway in front of the service)',
    );
  });

  it('maps 403 to unauthorized and carries the status, code, type and server message', () => {
    const e = httpError({
      status: 403,
      headers: {},
      body: '{"error":{"message":"no scope","code":"c","type":"t"}}',
      host: 'https://h',
    });
    assert.deepEqual(
      [e.kind, e.status, e.statusText, e.code, e.type, e.serverMessage, e.host],
      ['unauthorized', 403, 'Forbidden', 'c', 't', 'no scope', 'https://h'],
    );
  });
});

describe('api/errors: TLS and proxy failures a person can act on', () => {
  const tlsErr = (code: string, message = 'x', extra: object = {}): Error =>
    Object.assign(new Error(message), { code, ...extra });

  it('a certificate not valid yet points at the clock; another host names the certificate’s names, capped', () => {
    assert.equal(
      networkError(tlsErr('CERT_NOT_YET_VALID'), 'https://h', 'connect').message,
      "The certificate of https://h is not valid yet (CERT_NOT_YET_VALID); check this machine's clock.",
    );
    const names = `DNS:${'a'.repeat(300)}.example`;
    const other = networkError(
      tlsErr(
        'ERR_TLS_CERT_ALTNAME_INVALID',
        `Hostname/IP does not match certificate's altnames: cert's altnames: ${names}`,
      ),
      'https://h',
      'connect',
    ).message;
    assert.equal(
      other,
      `The certificate of https://h is for another host name (${names.slice(0, 200)}) (ERR_TLS_CERT_ALTNAME_INVALID); check the service URL.`,
    );
  });

  it('reads the message of a failure from its causes, five deep at most, skipping empty ones', () => {
    const alert = 'SSL alert number 116: tlsv13 alert certificate required';
    const nested = (depth: number): Error => {
      let e: Error = new Error(alert);
      for (let i = 0; i < depth; i++) {
        e = Object.assign(new Error(''), { cause: e });
      }
      return Object.assign(e, { code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' });
    };
    assert.match(networkError(nested(4), 'https://h', 'connect').message, /probably requires a client certificate/);
    assert.match(networkError(nested(5), 'https://h', 'connect').message, /^Could not connect securely to https:\/\/h/);
    const odd = Object.assign(Object.create(null) as object, {
      message: 42,
      cause: new Error(alert),
      code: 'ERR_SSL_X',
    });
    assert.match(networkError(odd, 'https://h', 'connect').message, /probably requires a client certificate/);
  });

  it('a proxy that answers something other than 407 to CONNECT is named with its status; without a proxy it is not', () => {
    const refused = networkError(
      new Error('Proxy response (403) !== 200 when HTTP Tunneling'),
      'https://h',
      'connect',
      undefined,
      undefined,
      'http://proxy:3128',
    );
    assert.equal(refused.code, 'PROXY_REFUSED');
    assert.equal(refused.kind, 'network');
    assert.equal(
      refused.message,
      'The proxy http://proxy:3128 did not open a connection to https://h (it answered 403 Forbidden); check http.proxy and http.noProxy, or ask who runs the proxy whether https://h is allowed.',
    );
    const odd = networkError(
      new Error('Proxy response (599) !== 200'),
      'https://h',
      'connect',
      undefined,
      undefined,
      'http://p:1',
    );
    assert.match(odd.message, /\(it answered 599\); check/);
    const direct = networkError(new Error('Proxy response (403) !== 200'), 'https://h', 'connect');
    assert.equal(direct.code, undefined);
    assert.match(direct.message, /^Could not talk to https:\/\/h: Proxy response \(403\)/);
  });

  it('a key that cannot be decrypted is a config error with its own code, before anything is sent', () => {
    const e = networkError(
      tlsErr('ERR_OSSL_BAD_DECRYPT', 'error:1C800064:Provider routines::bad decrypt'),
      'https://h',
      'connect',
    );
    assert.equal(e.kind, 'config');
    assert.equal(e.code, 'TLS_PASSPHRASE');
    // Now and then a wrong passphrase decrypts to bytes OpenSSL cannot decode: the same mistake, the same way out.
    const undecodable = networkError(
      tlsErr('ERR_OSSL_UNSUPPORTED', 'error:1E08010C:DECODER routines::unsupported'),
      'https://h',
      'connect',
    );
    assert.deepEqual([undecodable.kind, undecodable.code], ['config', 'TLS_PASSPHRASE']);
    const unreachable = networkError(tlsErr('EHOSTUNREACH'), 'https://h', 'connect');
    assert.deepEqual([unreachable.kind, unreachable.code], ['network', 'EHOSTUNREACH']);
    // The same words without a TLS code are not about the certificate's key: the error's own message is shown.
    const other = networkError(new Error('bad decrypt in the payload'), 'https://h', 'connect');
    assert.deepEqual([other.kind, other.code], ['network', undefined]);
    assert.equal(other.message, 'Could not talk to https://h: bad decrypt in the payload');
  });

  it('offers Diagnose Connection for TLS and proxy failures only, whatever else the error holds', () => {
    const offered = (kind: unknown, code: unknown): boolean => isConnectionSetupFailure({ kind, code });
    assert.deepEqual(
      [
        offered('network', 'PROXY_AUTH'),
        offered('config', 'TLS_CONFIG'),
        offered('network', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
        offered('network', 'ECONNREFUSED'),
        offered('http', 'PROXY_AUTH'),
        offered('timeout', 'CERT_HAS_EXPIRED'),
        offered('network', undefined),
        offered('network', 407),
        offered('network', ''),
      ],
      [true, true, true, false, false, false, false, false, false],
    );
  });

  it('a failure that is not an object, a TLS alert about something else, and a DNS lookup to retry later', () => {
    assert.equal(networkError('boom', 'https://h', 'connect').message, 'Could not talk to https://h: boom');
    // Through a proxy the failure's text is read for the proxy's answer: a string or null has none.
    const proxied = (e: unknown): string =>
      networkError(e, 'https://h', 'connect', undefined, undefined, 'http://p:1').message;
    assert.equal(proxied('boom'), 'Could not talk to https://h: boom');
    assert.equal(proxied(null), 'Could not talk to https://h: null');
    const version = networkError(
      tlsErr('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'SSL routines:ssl3_read_bytes:tlsv1 alert protocol version'),
      'https://h',
      'connect',
    );
    assert.match(version.message, /^Could not connect securely to https:\/\/h: the TLS handshake failed/);
    const later = networkError(tlsErr('EAI_AGAIN'), 'https://h', 'connect');
    assert.deepEqual([later.kind, later.code], ['network', 'EAI_AGAIN']);
  });
});
