import * as assert from 'node:assert/strict';
import { joinUrl, parseBaseUrl } from '../../../src/api/baseUrl';
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
