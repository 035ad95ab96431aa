import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cardKind, fetchCard } from '../../../src/explorer/core/cardFetch';

/** A card host: answers each path as told, and records what it received. */
async function cardHost(
  routes: Record<string, { type?: string; body?: string; status?: number; location?: string; hang?: boolean }>,
): Promise<{ url: string; received: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const received: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    received.push(req.headers);
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    if (route.hang) {
      return;
    }
    res.writeHead(route.status ?? 200, {
      ...(route.type ? { 'content-type': route.type } : {}),
      ...(route.location ? { location: route.location } : {}),
    });
    res.end(route.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('Model Card preview: fetching a card', () => {
  it('reads Markdown by content type or .md path, and sends no Authorization or cookie', async () => {
    const host = await cardHost({
      '/card': { type: 'text/markdown; charset=utf-8', body: '# Aurora' },
      '/card.md': { type: 'application/octet-stream', body: '# Sable' },
      '/notes': { type: 'text/plain', body: 'plain' },
    });
    try {
      assert.deepEqual(await fetchCard(`${host.url}/card`), {
        kind: 'markdown',
        url: `${host.url}/card`,
        text: '# Aurora',
        truncated: false,
      });
      assert.equal((await fetchCard(`${host.url}/card.md`)).kind, 'markdown');
      assert.equal((await fetchCard(`${host.url}/notes`)).kind, 'text');
      assert.equal(host.received.length, 3);
      for (const headers of host.received) {
        assert.equal(headers.authorization, undefined);
        assert.equal(headers.cookie, undefined);
      }
    } finally {
      await host.close();
    }
  });

  it('hands an HTML card to the browser without reading it', async () => {
    const host = await cardHost({ '/card': { type: 'text/html', body: '<h1>card</h1>' } });
    try {
      const result = await fetchCard(`${host.url}/card`);
      assert.deepEqual(result, { kind: 'browser', url: `${host.url}/card`, contentType: 'text/html' });
    } finally {
      await host.close();
    }
  });

  it('stops at the size cap and at the timeout', async () => {
    const host = await cardHost({
      '/big.md': { type: 'text/markdown', body: 'x'.repeat(10_000) },
      '/slow.md': { hang: true },
    });
    try {
      const big = await fetchCard(`${host.url}/big.md`, { maxBytes: 1000 });
      assert.equal(big.kind, 'markdown');
      assert.ok(big.kind === 'markdown' && big.text.length === 1000 && big.truncated);
      const slow = await fetchCard(`${host.url}/slow.md`, { timeoutMs: 300 });
      assert.equal(slow.kind, 'failed');
      assert.match(slow.kind === 'failed' ? slow.message : '', /did not arrive within/);
    } finally {
      await host.close();
    }
  });

  it('says what the server answered when it is not a card, and refuses links the card checks refuse', async () => {
    const host = await cardHost({});
    try {
      const missing = await fetchCard(`${host.url}/none.md`);
      assert.equal(missing.kind, 'failed');
      assert.match(missing.kind === 'failed' ? missing.message : '', /404/);
    } finally {
      await host.close();
    }
    const refused = await fetchCard('file:///etc/passwd');
    assert.equal(refused.kind, 'failed');
  });

  it('decides how to preview from the content type and the path', () => {
    assert.equal(cardKind('text/x-markdown', 'https://a.example/card'), 'markdown');
    assert.equal(cardKind('', 'https://a.example/README.md'), 'markdown');
    assert.equal(cardKind('text/plain', 'https://a.example/card.txt'), 'text');
    assert.equal(cardKind('text/html; charset=utf-8', 'https://a.example/card.md'), 'browser');
    assert.equal(cardKind('application/pdf', 'https://a.example/card.pdf'), 'browser');
  });
});
