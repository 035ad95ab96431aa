// Which addresses a connection may reach, decided on the address a name resolves to when the connection is made
// (src/api/addressGuard.ts): a service named *.localhost only if it resolves to this machine; a Model Card
// never on this machine or a private network (test/unit/api/cardFetch.test.ts reads cards through it).
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  ADDRESS_REFUSED,
  addressAllowed,
  addressRefusal,
  guardedLookup,
  refusalMessage,
} from '../../../src/api/addressGuard';
import { clientFor } from '../helpers/api';

// The module object itself (an import's namespace is read-only): its lookup is what net.connect calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dns = require('node:dns') as { lookup: unknown };

describe('api/addressGuard', () => {
  it('tells loopback, private, link-local and public addresses apart, IPv4 written as IPv6 included', () => {
    const loopback = ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::1]'];
    const internal = [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      'fd12::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
    ];
    const publicOnes = ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'];
    for (const a of loopback) {
      assert.ok(addressAllowed(a, 'loopbackOnly'), a);
      assert.ok(!addressAllowed(a, 'publicOnly'), a);
    }
    for (const a of internal) {
      assert.ok(!addressAllowed(a, 'loopbackOnly'), a);
      assert.ok(!addressAllowed(a, 'publicOnly'), a);
    }
    for (const a of publicOnes) {
      assert.ok(!addressAllowed(a, 'loopbackOnly'), a);
      assert.ok(addressAllowed(a, 'publicOnly'), a);
    }
    assert.ok(!addressAllowed('not-an-address', 'publicOnly'));
  });

  it('a lookup keeps only the allowed addresses, and says why when none is left', async () => {
    const lookup = guardedLookup('loopbackOnly');
    const all = await new Promise<unknown>((resolve, reject) =>
      lookup('localhost', { all: true }, (e, addresses) => (e ? reject(e) : resolve(addresses))),
    );
    assert.ok(Array.isArray(all) && all.length > 0 && all.every((a) => addressAllowed(a.address, 'loopbackOnly')));
    // Asked for one address (as net.connect does without autoSelectFamily), it answers one, with its family.
    const one = await new Promise<unknown[]>((resolve, reject) =>
      lookup('localhost', {}, (e, address, family) => (e ? reject(e) : resolve([address, family]))),
    );
    assert.ok(typeof one[0] === 'string' && addressAllowed(one[0], 'loopbackOnly'), String(one[0]));
    assert.equal(one[1], one[0].includes(':') ? 6 : 4);
  });

  it('names every address a refused name resolved to', () => {
    assert.match(
      refusalMessage('intranet.example', ['10.0.0.1', 'fd00::1'], 'publicOnly'),
      /^intranet\.example \(10\.0\.0\.1, fd00::1\) is on this machine, a private network/,
    );
  });

  it('finds a refusal among the causes of an error, and ends on causes that loop', () => {
    const refused = Object.assign(new Error('refused'), { code: ADDRESS_REFUSED });
    assert.equal(
      addressRefusal(new Error('fetch failed', { cause: new Error('connect', { cause: refused }) })),
      refused,
    );
    const looping: Error & { cause?: unknown } = new Error('a');
    looping.cause = new Error('b', { cause: looping });
    assert.equal(addressRefusal(looping), undefined);
  });

  describe('a service named *.localhost that resolves elsewhere', () => {
    // This machine's own address on its network: reachable, and not loopback.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
    let server: Server;
    let port = 0;
    const authorizations: (string | undefined)[] = [];
    const original = dns.lookup;

    before(async function () {
      if (!external) {
        this.skip();
      }
      server = createServer((req, res) => {
        authorizations.push(req.headers.authorization);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
      });
      await new Promise<void>((r) => server.listen(0, external, r));
      port = (server.address() as AddressInfo).port;
      // What a DNS answer for the name could be: Node asks DNS for *.localhost names.
      dns.lookup = (host: string, options: object, callback: (...a: unknown[]) => void) =>
        host === 'evil.localhost'
          ? callback(null, [{ address: external, family: 4 }])
          : (original as (...a: unknown[]) => void)(host, options, callback);
    });
    after(async () => {
      dns.lookup = original;
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    });

    it('gets no key and no request: plain http to it is refused at connect time, with the reason', async () => {
      const { client } = clientFor(`http://evil.localhost:${port}`, 'sk-canary-localhost');
      try {
        await assert.rejects(client.listModels(), /evil\.localhost \([\d.]+\) is not on this machine/);
        assert.deepEqual(authorizations, [], 'nothing reached the non-loopback address');
      } finally {
        await client.dispose();
      }
    });
  });
});
