// Which stored key serves a base URL: origin + path prefix, segment by segment, longest stored prefix wins.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  candidateScopes,
  displayUrl,
  isOriginScope,
  keyScopeOf,
  scopeCovers,
  scopeOf,
} from '../../../src/domain/keyScope';

/** The scope a key would be found under for `url`, given the scopes that hold a key (as ApiKeyStore looks it up). */
function served(url: string, stored: readonly string[]): string | undefined {
  return candidateScopes(url).find((s) => stored.includes(s));
}

describe('auth/keyScope', () => {
  it('a key is stored for the origin when the URL has no path, else for origin + path prefix', () => {
    assert.equal(scopeOf('https://gw'), 'https://gw');
    assert.equal(scopeOf('https://gw/'), 'https://gw');
    assert.equal(scopeOf('  https://GW:443/  '), 'https://gw', 'host lower-cased, default port dropped');
    assert.equal(scopeOf('https://gw:8443'), 'https://gw:8443');
    assert.equal(scopeOf('https://gw/team-a'), 'https://gw/team-a');
    assert.equal(scopeOf('https://gw/team-a/'), 'https://gw/team-a');
    assert.equal(
      scopeOf('https://gw/team-a/v1'),
      'https://gw/team-a',
      'a pasted /v1 is the version segment, as for the client',
    );
    assert.equal(scopeOf('https://gw/team-a/V1/'), 'https://gw/team-a');
    assert.equal(scopeOf('https://gw/v1'), 'https://gw');
    assert.equal(scopeOf('https://gw/a/b/c'), 'https://gw/a/b/c');
    assert.equal(
      scopeOf('https://gw/team-b/../team-a'),
      'https://gw/team-a',
      'dot segments are resolved by the URL parser',
    );
    assert.equal(scopeOf('https://gw/team-a/%2e%2e/team-b'), 'https://gw/team-b', 'encoded dot segments too');
    assert.equal(scopeOf('http://127.0.0.1:8123/api'), 'http://127.0.0.1:8123/api');
    for (const bad of ['', 'gw/team-a', 'ftp://gw/team-a', 'file:///etc', 'not a url']) {
      assert.equal(scopeOf(bad), undefined, bad);
    }
    assert.ok(isOriginScope('https://gw') && !isOriginScope('https://gw/team-a'));
  });

  it('looks up the longest prefix first and the origin last', () => {
    assert.deepEqual(candidateScopes('https://gw'), ['https://gw']);
    assert.deepEqual(candidateScopes('https://gw/team-a/x/v1'), [
      'https://gw/team-a/x',
      'https://gw/team-a',
      'https://gw',
    ]);
    assert.deepEqual(candidateScopes('mailto:x@y'), []);
  });

  it('matches whole path segments: /team-a never serves /team-ab, /team-b, /team or /TEAM-A', () => {
    const a = 'https://gw/team-a';
    for (const url of [
      'https://gw/team-a',
      'https://gw/team-a/',
      'https://gw/team-a/v1',
      'https://gw/team-a/x/y',
      'https://gw/team-b/../team-a',
    ]) {
      assert.ok(scopeCovers(a, url), url);
    }
    for (const url of [
      'https://gw/team-ab',
      'https://gw/team-a-b',
      'https://gw/team-b',
      'https://gw/team',
      'https://gw/TEAM-A',
      'https://gw',
      'https://gw/x/team-a',
      'https://gw/team-a/../team-b',
      'http://gw/team-a',
      'https://gw:8443/team-a',
      'https://gw.evil/team-a',
      'https://evil/gw/team-a',
    ]) {
      assert.ok(!scopeCovers(a, url), url);
    }
  });

  it('a key stored for the origin serves every path on it, and only on it', () => {
    for (const url of ['https://gw', 'https://gw/team-a', 'https://gw/team-b/x', 'https://gw/v1']) {
      assert.ok(scopeCovers('https://gw', url), url);
    }
    assert.ok(!scopeCovers('https://gw', 'https://gw:444/team-a'));
    assert.ok(!scopeCovers('https://gw', 'http://gw'));
  });

  it('the longest stored prefix wins; the origin key is the fallback', () => {
    const stored = ['https://gw', 'https://gw/team-a', 'https://gw/team-a/eu'];
    assert.equal(served('https://gw/team-a/eu/v1', stored), 'https://gw/team-a/eu');
    assert.equal(served('https://gw/team-a/us', stored), 'https://gw/team-a');
    assert.equal(served('https://gw/team-ab', stored), 'https://gw');
    assert.equal(served('https://gw/team-b', stored), 'https://gw');
    assert.equal(served('https://gw/team-b', ['https://gw/team-a']), undefined, 'another team’s prefix gets nothing');
    assert.equal(served('https://other/team-a', stored), undefined);
  });

  it('a URL with an encoded / or \\ in its path is served only by a key for exactly it, or for the origin', () => {
    const tricky = 'https://gw/team-a/..%2Fteam-b';
    assert.deepEqual(candidateScopes(tricky), ['https://gw/team-a/..%2Fteam-b', 'https://gw']);
    assert.ok(!scopeCovers('https://gw/team-a', tricky));
    assert.ok(!scopeCovers('https://gw/team-a', 'https://gw/team-a/x%5cy'));
    assert.ok(scopeCovers('https://gw', tricky));
    assert.equal(served(tricky, [scopeOf(tricky) as string]), scopeOf(tricky), 'a key entered for it is found again');
  });

  it('names scopes that are not canonical as covering nothing', () => {
    assert.ok(!scopeCovers('https://gw/team-a/', 'https://gw/team-a'));
    assert.ok(!scopeCovers('https://GW/team-a', 'https://gw/team-a'));
    assert.ok(!scopeCovers('nonsense', 'https://gw'));
  });

  it('shows URLs as the parser reads them, without query, fragment or trailing slash', () => {
    assert.equal(displayUrl('https://GW/team-b/'), 'https://gw/team-b');
    assert.equal(displayUrl('https://gw/te am\u202eb?x=1#y'), 'https://gw/te%20am%E2%80%AEb');
    assert.equal(displayUrl('https://gw/team-b/v1'), 'https://gw/team-b/v1');
  });

  it('property: a stored prefix serves a URL exactly when its segments begin the URL’s', () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,4}$/).filter((s) => s !== 'v1');
    const path = fc.array(segment, { maxLength: 5 });
    const url = (segments: string[]) => (segments.length ? `https://gw/${segments.join('/')}` : 'https://gw');
    fc.assert(
      fc.property(path, path, (prefix, target) => {
        const isPrefix = prefix.length <= target.length && prefix.every((s, i) => s === target[i]);
        assert.equal(scopeCovers(url(prefix), url(target)), isPrefix);
      }),
      { numRuns: 2000, seed: 19 },
    );
  });

  it('property: of several stored prefixes, the longest one covering the URL is used', () => {
    const segment = fc.constantFrom('a', 'b', 'ab', 'team-a', 'team-ab');
    const path = fc.array(segment, { maxLength: 4 });
    const url = (segments: string[]) => (segments.length ? `https://gw/${segments.join('/')}` : 'https://gw');
    fc.assert(
      fc.property(fc.array(path, { maxLength: 6 }), path, (storedPaths, target) => {
        const stored = storedPaths.map(url);
        const covering = stored.filter((s) => scopeCovers(s, url(target)));
        const longest = covering.sort(
          (x, y) => (keyScopeOf(y)?.segments.length ?? 0) - (keyScopeOf(x)?.segments.length ?? 0),
        )[0];
        assert.equal(served(url(target), stored), longest);
      }),
      { numRuns: 2000, seed: 19 },
    );
  });

  it('reads a pasted URL with spaces, trailing slashes or a version segment that only starts with v1', () => {
    assert.equal(scopeOf('  https://gw/team-a//  '), 'https://gw/team-a');
    assert.equal(scopeOf('https://gw/team-a/v1/'), 'https://gw/team-a');
    assert.equal(scopeOf('https://gw/v1beta'), 'https://gw/v1beta');
    assert.equal(scopeOf('https://gw/v1/proxy'), 'https://gw/v1/proxy');
    assert.equal(displayUrl('  https://gw/team-a//  '), 'https://gw/team-a');
    assert.equal(displayUrl(`  not a url ${'x'.repeat(300)}`), `not a url ${'x'.repeat(300)}`.slice(0, 200));
  });

  it('a path of one encoded separator is served by a key for it or for the origin; only a bare origin is an origin scope', () => {
    assert.deepEqual(candidateScopes('https://gw/%2F'), ['https://gw/%2F', 'https://gw']);
    assert.ok(isOriginScope('https://gw/'));
    assert.ok(!isOriginScope('https://gw/team-a'));
    assert.ok(!isOriginScope('not a url'));
  });
});
