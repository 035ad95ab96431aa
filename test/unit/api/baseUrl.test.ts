import * as assert from 'node:assert/strict';
import {
  isLoopbackHost,
  joinUrl,
  normalizeBaseUrl,
  originOf,
  parseBaseUrl,
  validateBaseUrl,
} from '../../../src/api/baseUrl';
import { ServiceError } from '../../../src/api/errors';

/** The ServiceError `parseBaseUrl` throws for `text`, or undefined when it accepts it. */
function refusal(text: string, allow?: boolean): ServiceError | undefined {
  try {
    parseBaseUrl(text, allow);
    return undefined;
  } catch (e) {
    assert.ok(e instanceof ServiceError);
    return e;
  }
}

describe('api/baseUrl', () => {
  const url = (base: string, path = '/v1/models'): string => joinUrl(parseBaseUrl(base), path);

  it('keeps a path prefix and never doubles /v1', () => {
    assert.equal(url('https://host'), 'https://host/v1/models');
    assert.equal(url('https://host/'), 'https://host/v1/models');
    assert.equal(url('https://host/api'), 'https://host/api/v1/models');
    assert.equal(url('https://host/api//'), 'https://host/api/v1/models');
    assert.equal(url('https://host/api/v1'), 'https://host/api/v1/models');
    assert.equal(url('https://host/v1/'), 'https://host/v1/models');
    assert.equal(url('  https://host:8443/x/V1  '), 'https://host:8443/x/v1/models');
    assert.equal(url('https://host', 'models/a%2Fb'), 'https://host/v1/models/a%2Fb');
  });

  it('strips only a final /v1 segment: /v1beta and /v1/proxy are prefixes of their own', () => {
    assert.equal(url('https://host/v1beta'), 'https://host/v1beta/v1/models');
    assert.equal(url('https://host/v1/proxy'), 'https://host/v1/proxy/v1/models');
    assert.equal(url('https://host/gw/v1/'), 'https://host/gw/v1/models');
    assert.deepEqual(parseBaseUrl('https://host/a/v1'), { origin: 'https://host', prefix: '/a', insecure: false });
    assert.deepEqual(parseBaseUrl('http://localhost:9/'), { origin: 'http://localhost:9', prefix: '', insecure: true });
  });

  it('adds /v1 to any path that does not start with the version segment itself', () => {
    const base = parseBaseUrl('https://host/api');
    assert.equal(joinUrl(base, '/v1'), 'https://host/api/v1');
    assert.equal(joinUrl(base, '/v1?limit=2'), 'https://host/api/v1?limit=2');
    assert.equal(joinUrl(base, 'V1/chat'), 'https://host/api/V1/chat');
    assert.equal(joinUrl(base, '/v1beta/models'), 'https://host/api/v1/v1beta/models');
    assert.equal(joinUrl(base, '/models'), 'https://host/api/v1/models');
    assert.equal(joinUrl(base, 'x/v1/y'), 'https://host/api/v1/x/v1/y');
  });

  it('gives config errors for unusable URLs, insecure for plain http off loopback', () => {
    for (const bad of [
      '',
      '   ',
      'host',
      'ftp://host',
      'https://u:p@host',
      'https://user@host',
      'https://:secret@host',
      'https://host?x=1',
      'https://host#f',
      'https://',
    ]) {
      assert.equal(refusal(bad, false)?.kind, 'config', bad);
    }
    assert.equal(refusal('http://models.example', false)?.kind, 'insecure');
    assert.equal(refusal('http://models.example', true), undefined);
    for (const ok of ['http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:3000', 'http://app.localhost']) {
      assert.equal(refusal(ok, false), undefined, ok);
    }
  });

  it('refuses plain http off loopback unless the caller allows it explicitly', () => {
    assert.equal(refusal('http://models.example')?.kind, 'insecure');
    assert.equal(refusal('http://127.0.0.1.evil.com')?.kind, 'insecure');
    assert.equal(refusal('http://localhost.evil.com')?.kind, 'insecure');
    assert.equal(refusal('https://models.example'), undefined);
  });

  it('says what is wrong in words a person can act on', () => {
    assert.match(refusal('')?.message ?? '', /No service URL is set.*https:\/\/models\.example\.com/);
    assert.match(refusal('host')?.message ?? '', /not a valid absolute URL.*https:\/\/models\.example\.com/);
    assert.equal(refusal('ftp://host')?.message, 'The service URL must start with https:// (got ftp:).');
    assert.match(refusal('https://u@host')?.message ?? '', /must not contain a user name or password/);
    assert.match(refusal('https://host?x')?.message ?? '', /must not contain a query/);
    const insecure = refusal('http://models.example:8080/api')?.message ?? '';
    assert.match(insecure, /^Refusing to send the API key to http:\/\/models\.example:8080 over plain http/);
  });

  it('clips a long scheme in the message at 80 characters', () => {
    const scheme = (n: number): string => `${'s'.repeat(n - 1)}:`;
    assert.equal(
      refusal(`${scheme(80)}//host`)?.message,
      `The service URL must start with https:// (got ${scheme(80)}).`,
    );
    assert.equal(
      refusal(`${scheme(81)}//host`)?.message,
      `The service URL must start with https:// (got ${'s'.repeat(77)}...).`,
    );
  });

  it('counts only localhost, *.localhost, ::1 and 127.x.y.z as loopback', () => {
    for (const h of ['localhost', 'LOCALHOST', 'api.localhost', '::1', '[::1]', '127.0.0.1', '127.255.1.10']) {
      assert.equal(isLoopbackHost(h), true, h);
    }
    for (const h of [
      'localhost.evil.com',
      'evillocalhost',
      '127.0.0.1.evil.com',
      'x127.0.0.1',
      '127.0.0',
      '127.0.0.1234',
      '127.a.b.c',
      '128.0.0.1',
      '::2',
      '[::1]x',
      '',
    ]) {
      assert.equal(isLoopbackHost(h), false, h);
    }
  });

  it('gives the origin of absolute http(s) URLs only', () => {
    assert.equal(originOf('https://Host:443/a?b'), 'https://host');
    assert.equal(originOf('http://host:8080/x'), 'http://host:8080');
    assert.equal(originOf('ftp://host/x'), undefined);
    assert.equal(originOf('/relative'), undefined);
    assert.equal(originOf('not a url'), undefined);
  });
});

describe('service URL', () => {
  it('validates base URLs', () => {
    assert.equal(validateBaseUrl('https://models.example.com/api'), undefined);
    assert.equal(validateBaseUrl('http://127.0.0.1:8123'), undefined);
    assert.equal(validateBaseUrl('http://localhost:8123'), undefined);
    assert.ok(validateBaseUrl('http://models.example.com'));
    assert.equal(validateBaseUrl('http://models.example.com', true), undefined);
    assert.ok(validateBaseUrl('ftp://models.example.com'));
    assert.ok(validateBaseUrl('models.example.com'));
    assert.ok(validateBaseUrl('https://u:p@models.example.com'));
    assert.ok(validateBaseUrl('https://models.example.com/?x=1'));
    assert.ok(validateBaseUrl(''));
  });

  it('reads a blank or missing URL as not set, and says how to enter one', () => {
    assert.match(refusal('   ')?.message ?? '', /^No service URL is set/);
    // A setting read at run time can be missing whatever its declared type.
    assert.match(refusal(undefined as unknown as string)?.message ?? '', /^No service URL is set/);
    assert.equal(validateBaseUrl('   '), 'Enter the service URL, e.g. https://models.example.com');
    assert.equal(validateBaseUrl(''), 'Enter the service URL, e.g. https://models.example.com');
  });

  it('names the setting that allows plain http, and only when plain http is the problem', () => {
    assert.match(
      validateBaseUrl('http://models.example.com') ?? '',
      /^Refusing to send the API key .* The setting is modelAccess\.allowInsecureHttp\.$/,
    );
    assert.equal(validateBaseUrl('ftp://models.example.com'), 'The service URL must start with https:// (got ftp:).');
  });

  it('stores a URL trimmed and without trailing slashes, the rest as typed', () => {
    assert.equal(normalizeBaseUrl('  https://host/api//  '), 'https://host/api');
    assert.equal(normalizeBaseUrl('https://host/'), 'https://host');
    assert.equal(normalizeBaseUrl('https://host/a/v1'), 'https://host/a/v1');
  });

  it('keys by origin: scheme, host and port', () => {
    assert.equal(originOf('https://Models.Example.com/api/v1'), 'https://models.example.com');
    assert.equal(originOf('http://127.0.0.1:8123/x'), 'http://127.0.0.1:8123');
    assert.notEqual(originOf('http://127.0.0.1:8123'), originOf('http://127.0.0.1:8124'));
    assert.equal(originOf('command:x'), undefined);
    assert.ok(isLoopbackHost('[::1]'));
    assert.ok(!isLoopbackHost('127.example.com'));
  });
});
