import * as assert from 'node:assert/strict';
import { displayProxy, matchesNoProxy, resolveProxy } from '../../../src/api/proxy';

describe('api/proxy: which proxy, and why', () => {
  describe('no-proxy patterns', () => {
    const cases: [entry: string, host: string, port: string, matches: boolean][] = [
      ['*', 'models.example.com', '443', true],
      ['example.com', 'example.com', '443', true],
      ['example.com', 'models.example.com', '443', true],
      ['example.com', 'badexample.com', '443', false],
      ['.example.com', 'models.example.com', '443', true],
      ['.example.com', 'example.com', '443', true],
      ['*.example.com', 'models.example.com', '443', true],
      ['*.example.com', 'example.org', '443', false],
      ['Models.Example.COM', 'models.example.com', '443', true],
      ['models.example.com:8443', 'models.example.com', '8443', true],
      ['models.example.com:8443', 'models.example.com', '443', false],
      ['10.0.0.0/8', '10.1.2.3', '443', true],
      ['10.0.0.0/8', '11.1.2.3', '443', false],
      ['192.168.1.0/24', '192.168.1.77', '443', true],
      ['192.168.1.0/24', '192.168.2.1', '443', false],
      ['10.0.0.0/8', 'ten.example', '443', false],
      ['[::1]', '[::1]', '443', true],
      ['', 'example.com', '443', false],
      ['  ', 'example.com', '443', false],
      ['', 'example.com.', '443', false],
      ['x10.0.0.0/8', '10.1.2.3', '443', false],
      ['10.0.0.0/8x', '10.1.2.3', '443', false],
      ['10.0.0.0/33', '10.0.0.0', '443', false],
      ['10.1.2.3/32', '10.1.2.3', '443', true],
      ['10.1.2.3/32', '10.1.2.4', '443', false],
      ['example.com:8443x', 'example.com', '8443', false],
      ['x:example.com:443', 'example.com', '443', false],
      ['[::1]:443', '[::1]', '443', true],
      ['[::1]:443', '[::1]', '80', false],
    ];
    for (const [entry, host, port, matches] of cases) {
      it(`"${entry}" ${matches ? 'matches' : 'does not match'} ${host}:${port}`, () => {
        assert.equal(matchesNoProxy(entry, host, port), matches);
      });
    }
  });

  it('takes http.proxy over any environment variable', () => {
    const p = resolveProxy('https://models.example.com', {
      setting: 'http://setting:1',
      env: { HTTPS_PROXY: 'http://env:2', https_proxy: 'http://env:3' },
    });
    assert.equal(p?.url, 'http://setting:1');
    assert.equal(p?.source, 'http.proxy');
    assert.equal(p?.bypass, undefined);
  });

  it('reads the environment by the service scheme, the lower-case name first, https falling back to the http proxy', () => {
    const env = { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://plain:3' };
    assert.deepEqual(
      [resolveProxy('https://m.example', { env })?.url, resolveProxy('https://m.example', { env })?.source],
      ['http://lower:2', 'https_proxy'],
    );
    assert.equal(resolveProxy('https://m.example', { env: { HTTPS_PROXY: 'http://upper:1' } })?.source, 'HTTPS_PROXY');
    assert.equal(resolveProxy('https://m.example', { env: { HTTP_PROXY: 'http://plain:3' } })?.url, 'http://plain:3');
    assert.equal(resolveProxy('http://m.example', { env: { HTTPS_PROXY: 'http://upper:1' } }), undefined);
    assert.equal(resolveProxy('https://m.example', { env: { ALL_PROXY: 'http://all:4' } })?.source, 'ALL_PROXY');
    assert.equal(resolveProxy('https://m.example', { env: {} }), undefined);
    assert.equal(resolveProxy('https://m.example', { setting: '  ', env: { https_proxy: ' ' } }), undefined);
  });

  it('reads a proxy written without a scheme as http, as curl does; a scheme given is kept', () => {
    const https = (v: string): string | undefined =>
      resolveProxy('https://m.example', { env: { HTTPS_PROXY: v } })?.url;
    assert.equal(https('proxy.corp:3128'), 'http://proxy.corp:3128');
    assert.equal(https('alice:pw@proxy.corp:3128'), 'http://alice:pw@proxy.corp:3128');
    assert.equal(https('https://proxy.corp'), 'https://proxy.corp');
    assert.equal(https('socks5://proxy.corp:1080'), 'socks5://proxy.corp:1080');
    assert.equal(
      resolveProxy('https://m.example', { setting: ' 10.0.0.1:8080 ', env: {} })?.url,
      'http://10.0.0.1:8080',
    );
  });

  it('verifies the proxy by default, reads "off" however written, compares default ports, skips odd entries', () => {
    assert.equal(resolveProxy('not a url', { setting: 'http://p:1', env: {} }), undefined);
    assert.equal(resolveProxy('https://m.example', { setting: 'http://p:1', env: {} })?.strictSSL, true);
    assert.equal(
      resolveProxy('https://m.example', { setting: 'http://p:1', env: {}, strictSSL: false })?.strictSSL,
      false,
    );
    assert.equal(
      resolveProxy('https://m.example', { setting: 'http://p:1', env: {}, support: ' OFF ' })?.bypass,
      'http.proxySupport is off',
    );
    const port = (url: string, entry: string): string | undefined =>
      resolveProxy(url, { setting: 'http://p:1', noProxySetting: [entry], env: {} })?.bypass;
    assert.equal(port('https://m.example', 'm.example:443'), 'http.noProxy entry "m.example:443"');
    assert.equal(port('http://m.example', 'm.example:80'), 'http.noProxy entry "m.example:80"');
    assert.equal(port('https://m.example', 'm.example:80'), undefined);
    assert.equal(port('https://m.example:8443', 'm.example:443'), undefined);
    const odd = resolveProxy('https://m.example', {
      setting: 'http://p:1',
      noProxySetting: [42 as unknown as string, null as unknown as string, 'm.example'],
      env: {},
    });
    assert.equal(odd?.bypass, 'http.noProxy entry "m.example"');
  });

  it('bypasses the proxy for http.noProxy and NO_PROXY entries, naming the entry', () => {
    const fromSetting = resolveProxy('https://models.corp.example', {
      setting: 'http://p:1',
      noProxySetting: ['other.example', '.corp.example'],
      env: {},
    });
    assert.equal(fromSetting?.bypass, 'http.noProxy entry ".corp.example"');
    const fromEnv = resolveProxy('https://models.corp.example', {
      env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'localhost, corp.example' },
    });
    assert.equal(fromEnv?.bypass, 'NO_PROXY entry "corp.example"');
    const lower = resolveProxy('https://models.corp.example', {
      env: { https_proxy: 'http://p:1', no_proxy: '*', NO_PROXY: 'nothing' },
    });
    assert.equal(lower?.bypass, 'no_proxy entry "*"');
    const miss = resolveProxy('https://models.example', {
      setting: 'http://p:1',
      noProxySetting: ['corp.example'],
      env: { NO_PROXY: 'models.example:8443' },
    });
    assert.equal(miss?.bypass, undefined);
    assert.equal(miss?.url, 'http://p:1');
  });

  it('never proxies a loopback service, and honours http.proxySupport "off"', () => {
    for (const url of ['http://127.0.0.1:8080', 'https://localhost', 'http://[::1]:1']) {
      const p = resolveProxy(url, { setting: 'http://p:1', env: {} });
      assert.match(p?.bypass ?? '', /loopback/, url);
    }
    assert.equal(
      resolveProxy('https://m.example', { setting: 'http://p:1', support: 'off', env: {} })?.bypass,
      'http.proxySupport is off',
    );
  });

  it('carries http.proxyStrictSSL and http.proxyAuthorization', () => {
    const p = resolveProxy('https://m.example', {
      setting: 'http://p:1',
      strictSSL: false,
      authorization: ' Negotiate abc ',
      env: {},
    });
    assert.equal(p?.strictSSL, false);
    assert.equal(p?.authorization, 'Negotiate abc');
  });

  it('shows a proxy without its credentials', () => {
    assert.equal(displayProxy('http://alice:s3cret@proxy.corp:3128/'), 'http://proxy.corp:3128');
    assert.equal(displayProxy('not a url'), '(not a valid URL)');
  });
});
