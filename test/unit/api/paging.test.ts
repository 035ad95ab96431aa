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
