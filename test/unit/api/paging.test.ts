import * as assert from 'node:assert/strict';
import { findNextPage, parseLinkNext, withParam } from '../../../src/api/paging';

const BASE = 'https://h/api/v1/models?limit=10';

describe('api/paging', () => {
  it('parses Link headers: quoted or bare rel, several rels, relative targets, commas inside URLs', () => {
    assert.equal(parseLinkNext('<https://h/p?c=1>; rel="next"', BASE), 'https://h/p?c=1');
    assert.equal(parseLinkNext('</api/v1/models?page=2>; rel=next', BASE), 'https://h/api/v1/models?page=2');
    assert.equal(
      parseLinkNext('<?page=1>; rel="first", <?page=3>; rel="prev next", <?page=9>; rel="last"', BASE),
      'https://h/api/v1/models?page=3',
    );
    assert.equal(parseLinkNext('<https://h/a,b?x=1>; rel="next"', BASE), 'https://h/a,b?x=1');
    assert.equal(parseLinkNext(['<a>; rel="prev"', '<b>; REL="Next"'], BASE), 'https://h/api/v1/b');
    assert.equal(parseLinkNext('<x>; rel="nextish"', BASE), undefined);
    assert.equal(parseLinkNext('garbage', BASE), undefined);
    assert.equal(parseLinkNext(undefined, BASE), undefined);
  });

  it('reads every cursor style of docs/service-shapes.md', () => {
    assert.deepEqual(findNextPage({ data: [], has_more: true, last_id: 'm9' }, undefined, BASE), {
      kind: 'param',
      name: 'after',
      value: 'm9',
      source: 'has_more',
    });
    assert.deepEqual(
      findNextPage({ data: [{ type: 'model', id: 'c' }], has_more: true, last_id: 'c' }, undefined, BASE, [
        { type: 'model', id: 'c' },
      ]),
      {
        kind: 'param',
        name: 'after_id',
        value: 'c',
        source: 'has_more',
      },
    );
    assert.deepEqual(findNextPage({ models: [], next_page_token: 't' }, undefined, BASE), {
      kind: 'param',
      name: 'page_token',
      value: 't',
      source: 'next_page_token',
    });
    assert.deepEqual(findNextPage({ nextPageToken: 't' }, undefined, BASE), {
      kind: 'param',
      name: 'pageToken',
      value: 't',
      source: 'nextPageToken',
    });
    assert.deepEqual(findNextPage({ next_cursor: 'c' }, undefined, BASE), {
      kind: 'param',
      name: 'cursor',
      value: 'c',
      source: 'next_cursor',
    });
    assert.deepEqual(findNextPage({ cursor: 'c' }, undefined, BASE), {
      kind: 'param',
      name: 'cursor',
      value: 'c',
      source: 'cursor',
    });
    assert.deepEqual(findNextPage({ next: 'https://h/n?x=1' }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/n?x=1',
      source: 'next',
    });
    assert.deepEqual(findNextPage({ next: 'tok' }, undefined, BASE), {
      kind: 'param',
      name: 'cursor',
      value: 'tok',
      source: 'next',
    });
    assert.deepEqual(findNextPage({ value: [], nextLink: 'https://h/x?$skip=2' }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/x?$skip=2',
      source: 'nextLink',
    });
    assert.deepEqual(findNextPage({ next_page: 3 }, undefined, BASE), {
      kind: 'param',
      name: 'page',
      value: '3',
      source: 'next_page',
    });
    assert.deepEqual(findNextPage({ _links: { next: { href: '/v1/models?p=2' } } }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/v1/models?p=2',
      source: '_links.next',
    });
    assert.deepEqual(findNextPage({ pagination: { next: 'https://h/p2' } }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/p2',
      source: 'pagination.next',
    });
    assert.equal(findNextPage({ data: [{ id: 'a' }], has_more: true }, undefined, BASE, [{ id: 'a' }]).kind, 'param');
  });

  it('stops on absent, null or empty tokens and on has_more: false; an empty page alone is not the end', () => {
    assert.equal(findNextPage({ data: [], has_more: false, next_page_token: 't' }, undefined, BASE).kind, 'end');
    assert.equal(findNextPage({ next_page_token: null }, undefined, BASE).kind, 'end');
    assert.equal(findNextPage({ next_page_token: '' }, undefined, BASE).kind, 'end');
    assert.equal(findNextPage([], undefined, BASE).kind, 'end');
    assert.equal(findNextPage({ models: [], next_page_token: 'more' }, undefined, BASE).kind, 'param');
  });

  it('prefers the Link header and replaces a parameter in place', () => {
    assert.equal(findNextPage({ next_page_token: 't' }, '<https://h/l>; rel="next"', BASE).kind, 'url');
    assert.equal(
      withParam('https://h/v1/models?after=a&limit=5', 'after', 'b c'),
      'https://h/v1/models?after=b+c&limit=5',
    );
  });
});

describe('api/paging: the less common shapes', () => {
  it('does not split a Link header on commas inside quoted parameters, escaped quotes included', () => {
    assert.equal(
      parseLinkNext('<https://h/a>; title="one, two"; rel="prev", <https://h/n>; rel="next"', BASE),
      'https://h/n',
    );
    assert.equal(
      parseLinkNext('<https://h/a>; title="say \\"hi, <there\\""; rel=prev, <https://h/n>; rel=next', BASE),
      'https://h/n',
    );
    // A stray `>` outside any target must not make the next comma part of a target.
    assert.equal(parseLinkNext('junk>, <https://h/n>; rel="next"', BASE), 'https://h/n');
  });

  it('reads rel with spaces around `=`, after other parameters, and skips entries without rel', () => {
    assert.equal(parseLinkNext('<https://h/n> ; rel = "next"', BASE), 'https://h/n');
    assert.equal(parseLinkNext('<https://h/n>; type="json"; rel=next; title=x', BASE), 'https://h/n');
    assert.equal(parseLinkNext('<https://h/a>; title="t", <https://h/n>; rel=next', BASE), 'https://h/n');
    assert.equal(parseLinkNext('<https://h/n>; rev=next', BASE), undefined);
    assert.equal(parseLinkNext('<https://h/n>;rel=next', BASE), 'https://h/n');
  });

  it('gives up on a next target that is not a URL, and on a Link header over 64 KiB', () => {
    assert.equal(parseLinkNext('<http://[bad>; rel="next", <https://h/n>; rel="next"', BASE), undefined);
    const entry = '<https://h/n>; rel="next"';
    const pad = (total: number): string => `${' '.repeat(total - entry.length)}${entry}`;
    assert.equal(parseLinkNext(pad(65536), BASE), 'https://h/n');
    assert.equal(parseLinkNext(pad(65537), BASE), undefined);
    assert.equal(findNextPage({ next_page_token: 't' }, pad(65537), BASE).kind, 'param');
  });

  it('reads the camelCase and nested cursor styles', () => {
    assert.deepEqual(findNextPage({ nextCursor: 'c2' }, undefined, BASE), {
      kind: 'param',
      name: 'cursor',
      value: 'c2',
      source: 'nextCursor',
    });
    assert.deepEqual(findNextPage({ next_link: '/v1/models?p=3' }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/v1/models?p=3',
      source: 'nextLink',
    });
    assert.deepEqual(findNextPage({ links: { next: 'https://h/l2' } }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/l2',
      source: 'links.next',
    });
    assert.deepEqual(findNextPage({ links: { next: { url: '/p/3' } } }, undefined, BASE), {
      kind: 'url',
      url: 'https://h/p/3',
      source: 'links.next',
    });
    assert.deepEqual(findNextPage({ pagination: { next_cursor: 'pc' } }, undefined, BASE), {
      kind: 'param',
      name: 'cursor',
      value: 'pc',
      source: 'pagination.next',
    });
    assert.deepEqual(findNextPage({ pagination: { nextCursor: 'pc2' } }, undefined, BASE), {
      kind: 'param',
      name: 'cursor',
      value: 'pc2',
      source: 'pagination.next',
    });
    assert.equal(findNextPage({ links: 'https://h/x', _links: ['x'], pagination: 'p' }, undefined, BASE).kind, 'end');
  });

  it('tells URLs from tokens: query-only, protocol-relative, absolute in any case', () => {
    const next = (v: string) => findNextPage({ next: v }, undefined, BASE);
    assert.deepEqual(next('?page=2'), { kind: 'url', url: 'https://h/api/v1/models?page=2', source: 'next' });
    assert.deepEqual(next('//other/p2'), { kind: 'url', url: 'https://other/p2', source: 'next' });
    assert.deepEqual(next('HTTP://h/p2'), { kind: 'url', url: 'http://h/p2', source: 'next' });
    assert.deepEqual(next('/v1/models?p=2'), { kind: 'url', url: 'https://h/v1/models?p=2', source: 'next' });
    assert.deepEqual(next('https-token'), { kind: 'param', name: 'cursor', value: 'https-token', source: 'next' });
    assert.deepEqual(next('page/2'), { kind: 'param', name: 'cursor', value: 'page/2', source: 'next' });
    // Base64 cursors can hold `//`: still a token, not a relative URL.
    assert.deepEqual(next('eyJ//abc=='), { kind: 'param', name: 'cursor', value: 'eyJ//abc==', source: 'next' });
  });

  it('sends a token found where a link is expected back as ?cursor=', () => {
    for (const [body, source] of [
      [{ nextLink: 'tok' }, 'nextLink'],
      [{ links: { next: 'tok' } }, 'links.next'],
      [{ _links: { next: { href: 'tok' } } }, '_links.next'],
    ] as const) {
      assert.deepEqual(findNextPage(body, undefined, BASE), { kind: 'param', name: 'cursor', value: 'tok', source });
    }
  });

  it('skips blank, infinite and unresolvable values and goes on to the next style', () => {
    assert.equal(findNextPage({ next_page_token: '   ' }, undefined, BASE).kind, 'end');
    assert.equal(findNextPage({ next_page: JSON.parse('1e999') as number }, undefined, BASE).kind, 'end');
    assert.equal(findNextPage({ next_page: true }, undefined, BASE).kind, 'end');
    assert.deepEqual(findNextPage({ next: 'http://[bad', next_page: 2 }, undefined, BASE), {
      kind: 'param',
      name: 'page',
      value: '2',
      source: 'next_page',
    });
    assert.deepEqual(findNextPage({ next: '  ', next_page: 0 }, undefined, BASE), {
      kind: 'param',
      name: 'page',
      value: '0',
      source: 'next_page',
    });
  });

  it('pages by has_more with lastId, the last entry id, or stops when there is no id', () => {
    assert.deepEqual(findNextPage({ hasMore: true, lastId: 'z' }, undefined, BASE), {
      kind: 'param',
      name: 'after',
      value: 'z',
      source: 'has_more',
    });
    assert.equal(findNextPage({ hasMore: false, next_page_token: 't' }, undefined, BASE).kind, 'end');
    const entries = [{ id: 'a' }, { id: 'b' }];
    assert.deepEqual(findNextPage({ has_more: true }, undefined, BASE, entries), {
      kind: 'param',
      name: 'after',
      value: 'b',
      source: 'has_more',
    });
    assert.equal(findNextPage({ has_more: true }, undefined, BASE).kind, 'end');
    assert.equal(findNextPage({ has_more: true }, undefined, BASE, []).kind, 'end');
    assert.equal(findNextPage({ has_more: true }, undefined, BASE, [{ id: 'a' }, 'b']).kind, 'end');
    assert.equal(findNextPage({ has_more: 'yes', last_id: 'x' }, undefined, BASE).kind, 'end');
  });

  it('uses after_id only for Anthropic entries (type "model" and no object field)', () => {
    const name = (entries: unknown[]) => {
      const next = findNextPage({ has_more: true, last_id: 'x' }, undefined, BASE, entries);
      return next.kind === 'param' ? next.name : next.kind;
    };
    assert.equal(name([{ type: 'model', id: 'a' }]), 'after_id');
    assert.equal(name([{ type: 'model', object: 'model', id: 'a' }]), 'after');
    assert.equal(name([{ type: 'chat', id: 'a' }]), 'after');
    assert.equal(name(['a']), 'after');
    assert.equal(name([]), 'after');
  });
});
