import * as assert from 'node:assert/strict';
import { HOSTILE_ECHO_HEADER, HOSTILE_IDS, splitKey, startServer, type RunningServer } from '../../server';
import { ServiceError } from '../../../src/api/errors';
import { clientFor, expectError, json, useRecorder, type Recorder } from '../helpers/api';

const KEY = 'sk-canary-4f1d2c3b5a69e8d7';

describe('client: where the key goes', function () {
  this.timeout(20000);
  const recorder = useRecorder();
  let other: Recorder;
  beforeEach(async () => {
    // Another origin that must never receive the key.
    other = await recorder((_req, res) => json(res, 200, { data: [{ id: 'stolen' }] }));
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} redirect to another origin is not followed`, async () => {
      const service = await recorder((_req, res) => {
        res.writeHead(status, { location: `${other.url}/v1/models` });
        res.end();
      });
      const { client, log } = clientFor(service.url, KEY);
      const e = await expectError(client.listModels(), 'config');
      await expectError(client.getModel('a/b'), 'config');
      await client.dispose();
      assert.equal(e.status, status);
      assert.equal(
        e.message,
        `The server redirected the request to ${other.url}; it was not followed, so your API key is not sent there. If the service has moved, set the service URL to ${other.url}.`,
      );
      assert.equal(other.seen.length, 0);
      assert.ok(service.seen.every((r) => r.authorization === `Bearer ${KEY}`));
      assert.ok(!JSON.stringify(log).includes(KEY));
    });
  }

  it('same-origin redirects are followed with the key, up to a cap', async () => {
    const service = await recorder((req, res) => {
      if (req.url === '/v1/models') {
        res.writeHead(308, { location: '/v2/models' });
        res.end();
      } else if (req.url === '/v2/models') {
        json(res, 200, { data: [{ id: 'm1', family: 'f' }] });
      } else {
        res.writeHead(302, { location: `/loop${Number(req.url?.slice(21) || 0) + 1}` });
        res.end();
      }
    });
    const { client } = clientFor(service.url, KEY);
    const r = await client.listModels();
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['m1'],
    );
    assert.deepEqual(
      service.seen.map((s) => [s.url, s.authorization]),
      [
        ['/v1/models', `Bearer ${KEY}`],
        ['/v2/models', `Bearer ${KEY}`],
      ],
    );
    const e = await expectError(client.getModel('x'), 'http');
    assert.match(e.message, /redirected more than 5 times/);
    await client.dispose();
  });

  it('a cross-origin Link next page is refused with a warning, keeping the first page', async () => {
    const service = await startServer({ dialect: 'array', pageSize: 5, linkOrigin: other.url });
    const { client } = clientFor(service.url, service.keys.acme);
    const r = await client.listModels();
    await client.dispose();
    await service.close();
    assert.equal(r.models.length, 5);
    assert.equal(r.pages, 1);
    assert.match(
      r.warnings[0],
      new RegExp(`^Stopped after page 1: the next page is on another origin \\(${other.url.replace(/\./g, '\\.')}\\)`),
    );
    assert.equal(other.seen.length, 0);
  });

  it('a cross-origin `next` URL in the body is refused the same way', async () => {
    const service = await recorder((_req, res) =>
      json(res, 200, { data: [{ id: 'a' }], next: `${other.url}/v1/models?cursor=2` }),
    );
    const { client } = clientFor(service.url, KEY);
    const r = await client.listModels();
    await client.dispose();
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['a'],
    );
    assert.equal(r.warnings.length, 1);
    assert.equal(other.seen.length, 0);
  });

  it('a repeated cursor stops the list with a warning', async () => {
    const service = await recorder((req, res) =>
      json(res, 200, { models: [{ id: req.url }], next_page_token: 'same' }),
    );
    const { client } = clientFor(service.url, KEY);
    const r = await client.listModels();
    await client.dispose();
    assert.equal(r.pages, 2);
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['/v1/models', '/v1/models?page_token=same'],
    );
    assert.match(
      r.warnings[0],
      /^Stopped after page 2: the server sent a next page \(next_page_token\) that was already read/,
    );
  });

  it('plain http to a host that is not loopback is refused before anything is sent', async () => {
    let asked = false;
    const { client } = clientFor('http://models.example.invalid', KEY, { apiKey: async () => ((asked = true), KEY) });
    const e = await expectError(client.listModels(), 'insecure');
    await client.dispose();
    assert.equal(asked, false);
    assert.match(e.message, /^Refusing to send the API key to http:\/\/models\.example\.invalid over plain http/);
  });
});

describe('client: the key never appears in errors, logs or results', function () {
  this.timeout(20000);

  it('even when the service echoes it back', async () => {
    const server = await startServer({ keys: { acme: KEY }, faults: { echoKey: true } });
    const wrong = `${KEY}-wrong`;
    const texts: string[] = [];
    for (const key of [KEY, wrong]) {
      const { client, log } = clientFor(server.url, key);
      // Each call below must fail with an answer that repeats the key: one that unexpectedly succeeded would
      // leave nothing to search, and the check would pass without having looked.
      const rejected = key === wrong;
      const errors: Error[] = [await expectError(client.getModel('nope'), rejected ? 'unauthorized' : 'notFound')];
      if (rejected) {
        errors.push(await expectError(client.listModels(), 'unauthorized'));
      } else {
        texts.push(JSON.stringify(await client.listModels()));
      }
      const post = await client.post('/v1/chat', { model: 'nope', messages: [{ role: 'user', content: 'x' }] });
      const stream = await client.post('/v1/chat', { model: 'nope', messages: [] }, { stream: true });
      await client.dispose();
      for (const [what, result] of [
        ['the POST', post],
        ['the streamed POST', stream],
      ] as const) {
        assert.ok(result.error, `${what} was refused (${result.status})`);
        errors.push(result.error);
      }
      for (const e of errors) {
        assert.match(e.message, /API key: \[redacted\]/, `the echo reached the error, redacted: ${e.message}`);
        texts.push(String(e), e.message, e.stack ?? '', JSON.stringify(e), Object.values(e).map(String).join(' '));
      }
      texts.push(JSON.stringify(log), JSON.stringify(post), post.body?.text ?? '', JSON.stringify(stream));
    }
    await server.close();
    const all = texts.join('\n');
    assert.ok(all.includes('API key: [redacted]'), 'the echo was there and was redacted');
    assert.ok(!all.includes(KEY), 'the key leaked');
  });
});

describe('client: the key the service echoes in successful answers is redacted (hostile mode)', function () {
  this.timeout(20000);
  const recorder = useRecorder();
  let server: RunningServer;
  before(async () => {
    server = await startServer({ hostile: { answers: true } });
  });
  after(() => server.close());

  const body = (endpoint: string) =>
    endpoint === '/v1/chat'
      ? { model: HOSTILE_IDS.normal[0], messages: [{ role: 'user', content: 'hi' }] }
      : { model: HOSTILE_IDS.normal[0], input: 'hi' };

  for (const endpoint of ['/v1/chat', '/v1/responses']) {
    it(`${endpoint}, streamed: no event and no header holds the key`, async () => {
      const key = server.keys.hostile;
      const { client } = clientFor(server.url, key);
      const result = await client.post(endpoint, body(endpoint), { stream: true });
      assert.equal(result.status, 200);
      assert.ok(result.events, 'an event stream');
      const data: string[] = [];
      for await (const ev of result.events) {
        data.push(ev.data);
      }
      await client.dispose();
      assert.equal(result.headers[HOSTILE_ECHO_HEADER], 'API key: [redacted]', 'the echo header, redacted');
      assert.ok(data.length > 5, `${data.length} events`);
      const [first, second] = splitKey(key);
      if (endpoint === '/v1/responses') {
        // The closing events repeat the whole text: the reader must redact each event it hands out.
        const done = data.find((d) => d.includes('"response.output_text.done"')) ?? '';
        assert.match(done, /API key: \[redacted\]\./);
      } else {
        // Chat sends the key in two halves, one per event: no single event holds it.
        assert.ok(data.some((d) => d.includes(JSON.stringify(first).slice(1, -1))));
        assert.ok(data.some((d) => d.includes(JSON.stringify(second).slice(1, -1))));
      }
      const everything = JSON.stringify({ data, headers: result.headers });
      assert.ok(!everything.includes(key), 'the key leaked');
    });

    it(`${endpoint}, not streamed: neither the body nor a header holds the key`, async () => {
      const key = server.keys.hostile;
      const { client } = clientFor(server.url, key);
      const result = await client.post(endpoint, body(endpoint));
      await client.dispose();
      assert.equal(result.status, 200);
      assert.equal(result.headers[HOSTILE_ECHO_HEADER], 'API key: [redacted]');
      assert.match(JSON.stringify(result.body?.json), /API key: \[redacted\]\./);
      assert.ok(!JSON.stringify(result).includes(key), 'the key leaked');
    });
  }

  it('extra headers go with every request of the client, and cannot replace the key or the user agent', async () => {
    const service = await startServer({ keys: { acme: KEY } });
    try {
      const { client } = clientFor(service.url, KEY, {
        headers: { 'X-Project': 'alpha', authorization: 'Bearer other', 'User-Agent': 'forged' },
      });
      await client.listModels();
      await client.post('/v1/chat', JSON.stringify({ model: 'aurora-2', messages: [] }));
      await client.dispose();
      assert.ok(service.requests.length >= 2);
      for (const r of service.requests) {
        assert.equal(r.headers['x-project'], 'alpha');
        assert.equal(r.organization, 'acme', 'the key authenticated, not the header');
        assert.match(r.headers['user-agent'], /^model-access-vscode\//);
      }
    } finally {
      await service.close();
    }
  });

  it('secret headers are read before each request, sent only with the key, and scrubbed from answers', async () => {
    const token = 'org-token-canary-7c1e9a';
    const service = await recorder((req, res) => {
      const got = String(req.headers['x-org-token']);
      if (req.url === '/v1/models') {
        // A service that echoes what it received, in a header and in an error's body.
        json(res, 500, { error: { message: `bad token ${got}` } }, { 'x-echo': got });
      } else {
        json(res, 200, { echoed: got }, { 'x-echo': got });
      }
    });
    const seen: string[] = [];
    let reads = 0;
    try {
      const { client, log } = clientFor(service.url, KEY, {
        retries: { max: 0 },
        headers: { 'X-Org': 'acme' },
        secretHeaders: async () => {
          reads++;
          return { 'X-Org-Token': token, authorization: 'Bearer forged' };
        },
        onRequest: (e) => seen.push(JSON.stringify(e)),
      });
      const e = await expectError(client.listModels(), 'http');
      const posted = await client.post('/v1/chat', JSON.stringify({ model: 'm', messages: [] }));
      await client.dispose();
      assert.equal(reads, 2, 'read once per call');
      assert.ok(
        service.seen.every((r) => r.authorization === `Bearer ${KEY}`),
        'a secret header never replaces the key',
      );
      const shown = JSON.stringify([e.message, e.serverMessage, posted.headers, posted.body, seen, log]);
      assert.ok(!shown.includes(token), shown);
      assert.ok(shown.includes('bad token'), 'the rest of the message is kept');
    } finally {
    }
  });

  it('a secret header that is not set fails the call before anything is sent', async () => {
    const service = await recorder();
    try {
      const { client } = clientFor(service.url, KEY, {
        secretHeaders: async () => {
          throw new ServiceError({
            kind: 'config',
            message: 'X-Org-Token has no value yet',
            code: 'headerSecretMissing',
          });
        },
      });
      const e = await expectError(client.listModels(), 'config');
      assert.equal(e.code, 'headerSecretMissing');
      const broken = clientFor(service.url, KEY, {
        secretHeaders: async () => {
          throw new Error('keychain locked');
        },
      }).client;
      const b = await expectError(broken.post('/v1/chat', '{}'), 'config');
      assert.match(b.message, /secret header could not be read/);
      await client.dispose();
      await broken.dispose();
      assert.equal(service.seen.length, 0, 'nothing reached the service');
    } finally {
    }
  });
});

describe('client: many calls of one client (a checks run over a dataset)', function () {
  this.timeout(20000);
  const recorder = useRecorder();

  it('a key or secret header changed between calls is the one removed from the next answer', async () => {
    // A service that echoes the key and the token it received, in a header and in the body.
    const service = await recorder((req, res) => {
      const got = `${String(req.headers.authorization)} ${String(req.headers['x-org-token'])}`;
      json(res, 200, { echoed: got }, { 'x-echo': got });
    });
    // A token set where there was none, the key changed, the token changed, both changed at once.
    const keys = ['sk-first-canary-1a2b3c', 'sk-first-canary-1a2b3c', 'sk-second-canary-4d5e6f'];
    keys.push(keys[2], 'sk-third-canary-0f9e8d');
    const tokens = [undefined, 'tok-one-canary-77', 'tok-one-canary-77', 'tok-two-canary-88', 'tok-three-canary-99'];
    let call = 0;
    const { client } = clientFor(service.url, undefined, {
      apiKey: async () => keys[call],
      secretHeaders: async (): Promise<Record<string, string>> => {
        const token = tokens[call];
        return token ? { 'X-Org-Token': token } : {};
      },
    });
    try {
      for (; call < keys.length; call++) {
        const r = await client.post('/v1/chat', '{}');
        const shown = JSON.stringify([r.headers, r.body]);
        assert.equal(service.seen[call].authorization, `Bearer ${keys[call]}`, 'the current key was sent');
        assert.ok(!shown.includes(keys[call]), `call ${call + 1}: the key in use is removed: ${shown}`);
        const token = tokens[call];
        assert.ok(!token || !shown.includes(token), `call ${call + 1}: the token in use is removed: ${shown}`);
        assert.match(
          r.body?.text ?? '',
          token ? /"echoed":"Bearer \[redacted\] \[redacted\]"/ : /"echoed":"Bearer \[redacted\] undefined"/,
        );
      }
    } finally {
      await client.dispose();
    }
  });

  it('one cancel signal for many calls stops the call in flight, and closing the client cuts every call', async () => {
    let answered = 0;
    const service = await recorder((req, res) => {
      if (req.url === '/v1/slow') {
        return; // Never answers: the call is cut on the client's side.
      }
      answered++;
      json(res, 200, { ok: true });
    });
    const { client } = clientFor(service.url, KEY, { retries: { max: 0 } });
    const run = new AbortController();
    for (let i = 0; i < 3; i++) {
      assert.equal((await client.post('/v1/chat', '{}', { signal: run.signal })).status, 200);
    }
    const slow = client.post('/v1/slow', '{}', { signal: run.signal });
    setTimeout(() => run.abort(), 50);
    await expectError(slow, 'aborted');
    await expectError(client.post('/v1/chat', '{}', { signal: run.signal }), 'aborted');
    assert.equal(answered, 3, 'nothing was sent once the run was cancelled');
    // Another run's signal on the same client: closing the client cuts its call in flight too.
    const next = new AbortController();
    assert.equal((await client.post('/v1/chat', '{}', { signal: next.signal })).status, 200);
    // Closing the client cuts its calls in flight, whether they carry a signal of their own or none.
    const cut = [client.post('/v1/slow', '{}', { signal: next.signal }), client.post('/v1/slow', '{}')];
    await new Promise((r) => setTimeout(r, 50));
    await client.dispose();
    const hung = new Promise<string>((r) => setTimeout(() => r('still waiting after 5 s'), 5000).unref());
    const ended = await Promise.all(
      cut.map((p) =>
        Promise.race([
          p.then(
            () => 'answered',
            (e: unknown) => e instanceof ServiceError,
          ),
          hung,
        ]),
      ),
    );
    assert.deepEqual(ended, [true, true], 'both calls ended with an error when the client closed');
  });
});
