import * as assert from 'node:assert/strict';
import { joinUrl, parseBaseUrl, isLoopbackHost, originOf, validateBaseUrl } from '../../../src/api/baseUrl';
import { ServiceError } from '../../../src/api/errors';

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

  it('gives config errors for unusable URLs, insecure for plain http off loopback', () => {
    const kind = (text: string, allow = false): string | undefined => {
      try {
        parseBaseUrl(text, allow);
        return undefined;
      } catch (e) {
        assert.ok(e instanceof ServiceError);
        return e.kind;
      }
    };
    for (const bad of [
      '',
      '   ',
      'host',
      'ftp://host',
      'https://u:p@host',
      'https://host?x=1',
      'https://host#f',
      'https://',
    ]) {
      assert.equal(kind(bad), 'config', bad);
    }
    assert.equal(kind('http://models.example'), 'insecure');
    assert.equal(kind('http://models.example', true), undefined);
    for (const ok of ['http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:3000', 'http://app.localhost']) {
      assert.equal(kind(ok), undefined, ok);
    }
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

  it('keys by origin: scheme, host and port', () => {
    assert.equal(originOf('https://Models.Example.com/api/v1'), 'https://models.example.com');
    assert.equal(originOf('http://127.0.0.1:8123/x'), 'http://127.0.0.1:8123');
    assert.notEqual(originOf('http://127.0.0.1:8123'), originOf('http://127.0.0.1:8124'));
    assert.equal(originOf('command:x'), undefined);
    assert.ok(isLoopbackHost('[::1]'));
    assert.ok(!isLoopbackHost('127.example.com'));
  });
});
