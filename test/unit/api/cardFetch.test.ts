import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cardKind, fetchCard } from '../../../src/api/cardFetch';
import type { NetworkSettings } from '../../../src/api/dispatcher';
import { startProxy, type TestProxy } from '../helpers/proxy';
import { createPki, startTlsFront, type TestPki, type TlsFront } from '../helpers/tls';

/** A card host: answers each path as told, and records what it received. */
async function cardHost(
  routes: Record<string, { type?: string; body?: string | Buffer; status?: number; location?: string; hang?: boolean }>,
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

/**
 * A card on the test's local host, read as a card on the service's own origin: the one place on this machine a
 * card may be read from (the address rules have tests of their own below).
 */
const fetchFromService = (link: string, options: Parameters<typeof fetchCard>[1] = {}) =>
  fetchCard(link, { ...options, network: { serviceOrigin: new URL(link).origin, ...options.network } });

describe('Model Card preview: fetching a card', () => {
  it('reads Markdown by content type or .md path, and sends no Authorization or cookie', async () => {
    const host = await cardHost({
      '/card': { type: 'text/markdown; charset=utf-8', body: '# Aurora' },
      '/card.md': { type: 'application/octet-stream', body: '# Sable' },
      '/notes': { type: 'text/plain', body: 'plain' },
    });
    try {
      assert.deepEqual(await fetchFromService(`${host.url}/card`), {
        kind: 'markdown',
        url: `${host.url}/card`,
        text: '# Aurora',
        truncated: false,
      });
      assert.equal((await fetchFromService(`${host.url}/card.md`)).kind, 'markdown');
      assert.equal((await fetchFromService(`${host.url}/notes`)).kind, 'text');
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
      const result = await fetchFromService(`${host.url}/card`);
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
      const big = await fetchFromService(`${host.url}/big.md`, { maxBytes: 1000 });
      assert.equal(big.kind, 'markdown');
      assert.ok(big.kind === 'markdown' && big.text.length === 1000 && big.truncated);
      const slow = await fetchFromService(`${host.url}/slow.md`, { timeoutMs: 300 });
      assert.equal(slow.kind, 'failed');
      assert.match(slow.kind === 'failed' ? slow.message : '', /did not arrive within/);
    } finally {
      await host.close();
    }
  });

  it('says what the server answered when it is not a card, and refuses links the card checks refuse', async () => {
    const host = await cardHost({});
    try {
      const missing = await fetchFromService(`${host.url}/none.md`);
      assert.equal(missing.kind, 'failed');
      assert.match(missing.kind === 'failed' ? missing.message : '', /404/);
      assert.equal(
        missing.kind === 'failed' && missing.setup === true,
        false,
        'a missing card is not a network matter',
      );
    } finally {
      await host.close();
    }
    const refused = await fetchFromService('file:///etc/passwd');
    assert.equal(refused.kind, 'failed');
  });

  it('decides how to preview from the content type and the path', () => {
    assert.equal(cardKind('text/x-markdown', 'https://a.example/card'), 'markdown');
    assert.equal(cardKind('', 'https://a.example/README.md'), 'markdown');
    assert.equal(cardKind('text/plain', 'https://a.example/card.txt'), 'text');
    assert.equal(cardKind('text/html; charset=utf-8', 'https://a.example/card.md'), 'browser');
    assert.equal(cardKind('application/pdf', 'https://a.example/card.pdf'), 'browser');
  });

  it('asks for Markdown first, reads multi-chunk bodies whole, and cuts at exactly the cap', async () => {
    const host = await cardHost({
      '/card.md': { type: 'text/markdown', body: 'é'.repeat(50_000) },
      '/exact.md': { type: 'text/markdown', body: 'x'.repeat(1000) },
      '/plain': { type: ' Text/Plain ; charset=utf-8', body: 'plain' },
      '/empty': { body: '' },
    });
    try {
      const whole = await fetchFromService(`${host.url}/card.md`);
      assert.ok(whole.kind === 'markdown' && whole.text === 'é'.repeat(50_000) && !whole.truncated);
      const exact = await fetchFromService(`${host.url}/exact.md`, { maxBytes: 1000 });
      assert.ok(exact.kind === 'markdown' && exact.text.length === 1000 && !exact.truncated);
      assert.equal((await fetchFromService(`${host.url}/plain`)).kind, 'text');
      assert.deepEqual(await fetchFromService(`${host.url}/empty`), {
        kind: 'browser',
        url: `${host.url}/empty`,
        contentType: '',
      });
      assert.match(String(host.received[0].accept), /^text\/markdown, text\/plain;q=0\.9/);
    } finally {
      await host.close();
    }
  });

  it('follows a redirect to another card, refuses one to a link the checks refuse, and names the status', async () => {
    const host = await cardHost({
      '/old.md': { status: 302, location: '/new.md' },
      '/new.md': { type: 'text/markdown', body: '# New' },
      '/sneaky.md': { status: 302, location: `/x.md?${'a'.repeat(3000)}` },
      '/gone.md': { status: 410 },
    });
    try {
      assert.deepEqual(await fetchFromService(`${host.url}/old.md`), {
        kind: 'markdown',
        url: `${host.url}/new.md`,
        text: '# New',
        truncated: false,
      });
      const sneaky = await fetchFromService(`${host.url}/sneaky.md`);
      assert.equal(sneaky.kind, 'failed');
      assert.match(
        sneaky.kind === 'failed' ? sneaky.message : '',
        /^The card redirected to a link that is not opened: /,
      );
      const gone = await fetchFromService(`${host.url}/gone.md`);
      assert.deepEqual(gone, {
        kind: 'failed',
        url: `${host.url}/gone.md`,
        message: "The card's server answered 410 Gone.",
      });
    } finally {
      await host.close();
    }
  });

  it('follows 5 redirects and no more; a redirect without a place to go, or to a broken link, is said as such', async () => {
    const routes: Parameters<typeof cardHost>[0] = {
      '/card.md': { type: 'text/markdown', body: '# Card' },
      '/loop.md': { status: 302, location: '/loop.md' },
      '/nowhere.md': { status: 302 },
      '/broken.md': { status: 301, location: 'http://[not a host' },
      '/choices.md': { status: 300, type: 'text/markdown', body: '# Pick one' },
      '/odd.md': { status: 599 },
      '/latin.md': { type: 'text/markdown', body: Buffer.from([0x23, 0x20, 0xe9, 0x74, 0xe9]) },
    };
    for (let i = 0; i < 6; i++) {
      routes[`/r${i}.md`] = { status: 307, location: i === 5 ? '/card.md' : `/r${i + 1}.md` };
    }
    const host = await cardHost(routes);
    const message = async (path: string) => {
      const r = await fetchFromService(`${host.url}${path}`);
      return r.kind === 'failed' ? r.message : `${r.kind} ${r.url.slice(host.url.length)}`;
    };
    try {
      assert.equal(await message('/r1.md'), 'markdown /card.md', 'five redirects are followed');
      assert.equal(await message('/r0.md'), 'The card redirected more than 5 times; stopped following.');
      assert.equal(await message('/loop.md'), 'The card redirected more than 5 times; stopped following.');
      assert.equal(await message('/nowhere.md'), "The card's server answered 302 Found.");
      assert.equal(await message('/broken.md'), 'The card redirected to a link that is not valid.');
      assert.equal(await message('/choices.md'), "The card's server answered 300 Multiple Choices.");
      assert.equal(await message('/odd.md'), "The card's server answered 599.");
      // Bytes that are not UTF-8 are shown as replacement characters, not refused.
      const latin = await fetchFromService(`${host.url}/latin.md`);
      assert.equal(latin.kind === 'markdown' && latin.text, '# \ufffdt\ufffd');
    } finally {
      await host.close();
    }
  });

  it('says Cancelled when the person cancels, the timeout in seconds, and why a card could not be read', async () => {
    const host = await cardHost({ '/slow.md': { hang: true } });
    try {
      const cancel = new AbortController();
      const pending = fetchFromService(`${host.url}/slow.md`, { signal: cancel.signal, timeoutMs: 10_000 });
      const cancelledAt = Date.now() + 100;
      setTimeout(() => cancel.abort(), 100);
      assert.deepEqual(await pending, { kind: 'failed', url: `${host.url}/slow.md`, message: 'Cancelled.' });
      assert.ok(Date.now() - cancelledAt < 2000, 'it stops when the person cancels, not at the timeout');
      const slow = await fetchFromService(`${host.url}/slow.md`, { timeoutMs: 1500 });
      assert.equal(slow.kind === 'failed' && slow.message, 'The card did not arrive within 2 s.');
    } finally {
      await host.close();
    }
    const closed = await cardHost({});
    await closed.close();
    const refused = await fetchFromService(`${closed.url}/card.md`);
    assert.match(refused.kind === 'failed' ? refused.message : '', /^The card could not be read: .*connection refused/);
  });
});

describe('Model Card preview: addresses a card may not reach (issue 27)', () => {
  const refusedMessage =
    /^The card could not be read: .* is on this machine, a private network or a link-local address/;

  it('refuses loopback, link-local and private addresses, by IP literal and by a name resolving there', async () => {
    const host = await cardHost({ '/card.md': { type: 'text/markdown', body: '# internal' } });
    const port = new URL(host.url).port;
    try {
      for (const link of [
        `${host.url}/card.md`,
        `http://localhost:${port}/card.md`,
        `http://[::ffff:127.0.0.1]:${port}/card.md`,
        `http://[::1]:${port}/card.md`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/card.md',
        'http://192.168.1.1/card.md',
        'http://[fd00::1]/card.md',
      ]) {
        const result = await fetchCard(link);
        assert.equal(result.kind, 'failed', link);
        assert.match(result.kind === 'failed' ? result.message : '', refusedMessage, link);
      }
      assert.equal(host.received.length, 0, 'no request reached the internal host');
      // The message names the host and, for a name, what it resolved to.
      const byName = await fetchCard(`http://localhost:${port}/card.md`);
      assert.match(
        byName.kind === 'failed' ? byName.message : '',
        /^The card could not be read: localhost \((::1|127\.0\.0\.1)(, (::1|127\.0\.0\.1))?\) is on this machine/,
      );
      const literal = await fetchCard('http://169.254.169.254/latest/meta-data/');
      assert.equal(
        literal.kind === 'failed' ? literal.message : '',
        'The card could not be read: 169.254.169.254 is on this machine, a private network or a link-local address; a Model Card is read only from public addresses or from the service itself.',
      );
      // The service's own origin is the exception: its cards are read.
      const own = await fetchCard(`${host.url}/card.md`, { network: { serviceOrigin: host.url } });
      assert.equal(own.kind, 'markdown');
      // Also when the service is named (its name resolves to this machine when connecting).
      const named = `http://localhost:${port}`;
      const ownByName = await fetchCard(`${named}/card.md`, { network: { serviceOrigin: named } });
      assert.equal(ownByName.kind, 'markdown', ownByName.kind === 'failed' ? ownByName.message : '');
    } finally {
      await host.close();
    }
  });

  it('refuses a redirect from a card to an internal address, checked like the link', async () => {
    const internal = await cardHost({ '/secret.md': { type: 'text/markdown', body: 'secret' } });
    const service = await cardHost({
      '/card.md': { status: 302, location: `http://localhost:${new URL(internal.url).port}/secret.md` },
    });
    try {
      const result = await fetchCard(`${service.url}/card.md`, { network: { serviceOrigin: service.url } });
      assert.match(result.kind === 'failed' ? result.message : '', refusedMessage);
      assert.equal(internal.received.length, 0);
    } finally {
      await internal.close();
      await service.close();
    }
  });
});

describe('Model Card preview: through the network settings of the service', function () {
  this.timeout(60_000);
  const CARDS = 'cards.corp.test';
  const SERVICE = 'models.corp.test';
  let pki: TestPki;
  let host: Awaited<ReturnType<typeof cardHost>>;
  let front: TlsFront;
  let mtls: TlsFront;
  let proxy: TestProxy;
  const routes = {
    '/card.md': { type: 'text/markdown', body: '# Behind the proxy' },
    '/moved': { status: 302, location: '' },
    '/to-http': { status: 302, location: '' },
  };

  before(async () => {
    pki = createPki([CARDS, SERVICE]);
    host = await cardHost(routes);
    const port = Number(new URL(host.url).port);
    front = await startTlsFront(port, pki.server);
    mtls = await startTlsFront(port, pki.server, pki.caPem);
    routes['/moved'].location = `https://${SERVICE}:${front.port}/card.md`;
    routes['/to-http'].location = `http://${CARDS}:${port}/card.md`;
    proxy = await startProxy({ user: 'carol', password: 'card-proxy-canary', hosts: [CARDS, SERVICE] });
  });
  after(async () => {
    await proxy.close();
    await front.close();
    await mtls.close();
    await host.close();
    pki.dispose();
  });
  beforeEach(() => {
    proxy.log.length = 0;
    host.received.length = 0;
  });

  const network = (over: Partial<NetworkSettings> = {}): NetworkSettings => ({
    proxy: { setting: proxy.urlWithCredentials, env: {} },
    trust: { caFiles: [pki.caFile] },
    ...over,
  });

  it('reads an HTTPS card with the CA setting through a CONNECT proxy with Basic auth, without any Authorization', async () => {
    const url = `https://${CARDS}:${front.port}/card.md`;
    const result = await fetchCard(url, { network: network() });
    assert.deepEqual(result, { kind: 'markdown', url, text: '# Behind the proxy', truncated: false });
    assert.equal(proxy.log.length, 1, proxy.log.join('\n\n'));
    assert.match(proxy.log[0], new RegExp(`^CONNECT ${CARDS}:${front.port}\n`));
    assert.match(proxy.log[0], /\nProxy-Authorization: Basic /i);
    assert.ok(!/\nauthorization:/i.test(proxy.log[0]), 'the proxy saw no Authorization header');
    assert.equal(host.received.length, 1);
    assert.equal(host.received[0].authorization, undefined);
    assert.equal(host.received[0]['proxy-authorization'], undefined, 'the proxy credentials stay with the proxy');
    assert.equal(host.received[0].cookie, undefined);
  });

  it('an http:// card goes to the proxy as a plain proxy request, still without any Authorization', async () => {
    const url = `http://${CARDS}:${new URL(host.url).port}/card.md`;
    const result = await fetchCard(url, { network: network() });
    assert.equal(result.kind, 'markdown', JSON.stringify(result));
    assert.equal(proxy.log.length, 1);
    assert.match(proxy.log[0], new RegExp(`^GET ${url.replace(/[.]/g, '\\.')}\n`));
    assert.ok(!/\nauthorization:/i.test(proxy.log[0]), 'the proxy saw no Authorization header');
    assert.equal(host.received[0].authorization, undefined);
  });

  it('refuses a redirect from https to plain http, and says so', async () => {
    const result = await fetchCard(`https://${CARDS}:${front.port}/to-http`, { network: network() });
    assert.deepEqual(
      result.kind === 'failed' ? result.message : result,
      `The card redirected from https to plain http (http://${CARDS}:${new URL(host.url).port}); not followed.`,
    );
    assert.equal(host.received.length, 1, 'only the https request was made');
  });

  it('without the CA the card is not trusted, and the message says so', async () => {
    const result = await fetchCard(`https://${CARDS}:${front.port}/card.md`, { network: network({ trust: {} }) });
    assert.equal(result.kind, 'failed');
    assert.match(
      result.kind === 'failed' ? result.message : '',
      /certificate of https:\/\/cards\.corp\.test:\d+ is not trusted/,
    );
    assert.equal(result.kind === 'failed' && result.setup, true, 'Diagnose Connection is offered');
    assert.equal(host.received.length, 0);
  });

  it('wrong proxy credentials give the 407 message, without them', async () => {
    const result = await fetchCard(`https://${CARDS}:${front.port}/card.md`, {
      network: network({ proxy: { setting: proxy.url.replace('//', '//carol:wrong-canary@'), env: {} } }),
    });
    assert.equal(result.kind, 'failed');
    const message = result.kind === 'failed' ? result.message : '';
    assert.match(message, new RegExp(`The proxy ${proxy.url} requires credentials \\(407`));
    assert.match(message, /http\.proxyAuthorization/);
    assert.ok(!message.includes('wrong-canary'));
    assert.equal(result.kind === 'failed' && result.setup, true, 'Diagnose Connection is offered');
    assert.equal(host.received.length, 0);
  });

  it('follows a redirect to another host through the proxy chosen for it; http.noProxy entries go direct', async () => {
    const moved = await fetchCard(`https://${CARDS}:${front.port}/moved`, { network: network() });
    assert.equal(moved.kind, 'markdown');
    assert.deepEqual(
      proxy.log.map((l) => l.split('\n')[0]),
      [`CONNECT ${CARDS}:${front.port}`, `CONNECT ${SERVICE}:${front.port}`],
    );
    proxy.log.length = 0;
    // Direct means DNS of a name only the proxy knows: it fails, and says it is the host's name.
    const direct = await fetchCard(`https://${CARDS}:${front.port}/card.md`, {
      network: network({ proxy: { setting: proxy.urlWithCredentials, noProxySetting: ['.corp.test'], env: {} } }),
    });
    assert.equal(proxy.log.length, 0);
    assert.equal(direct.kind, 'failed');
    assert.match(direct.kind === 'failed' ? direct.message : '', /cards\.corp\.test.*host name was not found/);
  });

  it("presents the client certificate to the service's own origin only", async () => {
    const c = pki.client;
    const certificate = { pfxFile: c.pfxFile, passphrase: c.passphrase };
    const onService = `https://${SERVICE}:${mtls.port}/card.md`;
    const own = await fetchCard(onService, {
      network: network({ clientCertificate: { origin: new URL(onService).origin, certificate } }),
    });
    assert.equal(own.kind, 'markdown', JSON.stringify(own));
    assert.deepEqual(mtls.clients, ['alice']);
    const elsewhere = await fetchCard(`https://${CARDS}:${mtls.port}/card.md`, {
      network: network({ clientCertificate: { origin: new URL(onService).origin, certificate } }),
    });
    assert.equal(elsewhere.kind, 'failed', 'another origin gets no client certificate, so the mTLS server refuses');
    assert.deepEqual(mtls.clients, ['alice']);
    assert.equal(host.received.length, 1);
    assert.equal(host.received[0].authorization, undefined);
  });
});
