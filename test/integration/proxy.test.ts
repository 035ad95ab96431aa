// Corporate networks in a real VS Code, through a real CONNECT proxy with Basic auth (the `proxy` package) to a
// service over TLS with a private CA: `http.proxy` and modelAccess.tls.caCertificates fill the Models view, a
// chat model streams its answer and a Model Card is previewed, all through the proxy, whose own log shows the
// CONNECTs and never the key; wrong proxy credentials put the 407 message in the view.
//
// The service and card host names (*.corp.test) resolve nowhere but in the proxy, as internal names do behind
// a corporate proxy: a request that did not go through it fails (the http.noProxy check). VS Code's own proxy
// support patches Node's http/https modules and the global fetch, not the extension's undici dispatcher, and
// does not know modelAccess.tls.caCertificates: a request that reaches the proxy and trusts the test CA is the
// extension's own.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../src/ids';
import type { ModelAccessApi } from '../../src/testApi';
import { CARD_MARKER } from '../server/cards';
import { loadRegistry, startServer, type RunningServer } from '../server';
import { startProxy, type TestProxy } from '../unit/helpers/proxy';
import { createPki, startTlsFront, type TestPki, type TlsFront } from '../unit/helpers/tls';
import { activateExtension, eventually, setSetting, sleep, stubUi } from './helpers';

const SERVICE = 'models.corp.test';
const CARDS = 'cards.corp.test';

async function setHttp(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(name, value, vscode.ConfigurationTarget.Global);
}

describe('Corporate networks: through a CONNECT proxy with Basic auth', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let pki: TestPki;
  let service: RunningServer;
  let cards: RunningServer;
  let serviceFront: TlsFront;
  let cardFront: TlsFront;
  let proxy: TestProxy;
  let url: string;

  async function reload(): Promise<void> {
    await sleep(200);
    await api.catalog.refresh();
  }

  /** Every entry of the proxy's log is a CONNECT (the requests travel in the tunnel) without the key. */
  function assertTunnelsOnly(): void {
    assert.ok(proxy.log.length > 0, 'the proxy saw the requests');
    for (const entry of proxy.log) {
      assert.match(entry, /^CONNECT (models|cards)\.corp\.test:\d+\n/, entry);
      assert.ok(!/authorization: bearer/i.test(entry), `the proxy saw the key: ${entry}`);
      assert.ok(!entry.includes(service.keys.acme), `the proxy saw the key: ${entry}`);
    }
  }

  const connects = (host: string): number => proxy.log.filter((l) => l.startsWith(`CONNECT ${host}:`)).length;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    pki = createPki([SERVICE, CARDS]);
    cards = await startServer();
    cardFront = await startTlsFront(cards.port, pki.server);
    const registry = loadRegistry();
    registry.models = registry.models.map((m) =>
      m.id === 'aurora-2' ? { ...m, model_card_url: `https://${CARDS}:${cardFront.port}/cards/aurora-2.md` } : m,
    );
    service = await startServer({ registry, streamDelayMs: 20 });
    serviceFront = await startTlsFront(service.port, pki.server);
    proxy = await startProxy({ user: 'alice', password: 'pr0xy-canary', hosts: [SERVICE, CARDS] });
    url = `https://${SERVICE}:${serviceFront.port}`;
    await setSetting('tls.caCertificates', [pki.caFile]);
    await setHttp('proxy', proxy.urlWithCredentials);
    await setSetting('baseUrl', url);
    await api.keys.store(url, service.keys.acme);
  });

  after(async () => {
    await setHttp('proxy', undefined);
    await setHttp('proxyAuthorization', undefined);
    await setHttp('noProxy', undefined);
    await setSetting('tls.caCertificates', undefined);
    await api.keys.delete(url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await proxy?.close();
    await serviceFront?.close();
    await cardFront?.close();
    await service?.close();
    await cards?.close();
    pki?.dispose();
  });

  beforeEach(() => {
    proxy.log.length = 0;
  });

  it('http.proxy with credentials and the CA setting: the tree fills through the proxy, which sees only CONNECTs', async () => {
    await reload();
    await eventually(async () => api.catalog.status.kind === 'ready', 15_000, 'the list through the proxy');
    assert.ok(api.catalog.models.some((m) => m.id === 'aurora-2'));
    assert.equal(api.view.treeView.message, undefined);
    assertTunnelsOnly();
    assert.ok(connects(SERVICE) > 0);
    assert.match(proxy.log[0], /\nProxy-Authorization: Basic /i);
    assert.ok(
      service.received('/v1/models', 'GET').every((r) => r.authorization),
      'the service got the key',
    );
  });

  it('a chat model streams its answer through the proxy', async () => {
    const [model] = await eventually(
      async () => {
        const models = await vscode.lm.selectChatModels({ vendor: 'model-access', id: 'aurora-2' });
        return models.length ? models : undefined;
      },
      15_000,
      'aurora-2 offered as a chat model',
    );
    // The client keeps its tunnel open between requests; closed, the chat request must open its own.
    proxy.dropConnections();
    await sleep(300);
    proxy.log.length = 0;
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('Hello through the proxy')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let fragments = 0;
    let text = '';
    for await (const fragment of response.text) {
      fragments++;
      text += fragment;
    }
    assert.ok(fragments > 2 && text.length > 0, `${fragments} fragments`);
    const chat = service.lastReceived('/v1/chat', 'POST');
    assert.equal(chat.status, 200);
    assert.equal(chat.stream, 'completed');
    assert.equal(chat.json?.stream, true);
    assert.equal(connects(SERVICE), 1, proxy.log.join('\n\n'));
    assertTunnelsOnly();
  });

  it('Preview Model Card reads the card through the proxy and the CA setting, without the key', async () => {
    const outcome = await vscode.commands.executeCommand<{ kind: string; text: string }>(
      Commands.previewModelCard,
      'aurora-2',
    );
    assert.equal(outcome?.kind, 'preview', JSON.stringify(outcome));
    assert.ok(outcome.text.includes(CARD_MARKER), 'the card text is shown');
    assert.equal(connects(CARDS), 1, proxy.log.join('\n\n'));
    assertTunnelsOnly();
    const received = cards.lastReceived('/cards/aurora-2.md', 'GET');
    assert.equal(received.authorization, false, 'the card host never got an Authorization header');
    assert.equal(received.headers['proxy-authorization'], undefined);
    assert.ok(!JSON.stringify(received.headers).includes(service.keys.acme));
  });

  it('Diagnose Connection probes TLS through the proxy tunnel and names the proxy without its credentials', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>(Commands.diagnoseConnection);
    const report = await eventually(
      async () => {
        // The report opens as a rendered Markdown preview of this document (refreshed in place).
        const text = doc?.getText();
        return text !== undefined && /\*\*Status:\*\*/.test(text) ? text : undefined;
      },
      15_000,
      'the diagnosis report',
    );
    assert.ok(report.includes(`${proxy.url} (from http.proxy; credentials in the proxy URL; CONNECT tunnel`), report);
    assert.match(report, /\*\*Trusted by:\*\* .*Model Access Test Root CA.*modelAccess\.tls\.caCertificates/);
    assert.match(report, /\*\*Status:\*\* 200 in \d+ ms/);
    for (const secret of ['pr0xy-canary', service.keys.acme]) {
      assert.ok(!report.includes(secret), 'the report holds no secret');
    }
    assert.ok(connects(SERVICE) >= 1, 'the TLS probe went through the proxy');
    assertTunnelsOnly();
  });

  it('http.noProxy naming the service: the request goes direct and fails, so the proxy was what carried it', async () => {
    await setHttp('noProxy', ['.corp.test']);
    try {
      await reload();
      const status = api.catalog.status;
      assert.equal(status.kind, 'error');
      assert.match(
        status.kind === 'error' ? status.failure.message : '',
        /models\.corp\.test.*host name (was not found|could not be looked up)/,
      );
      assert.equal(proxy.log.length, 0);
    } finally {
      await setHttp('noProxy', undefined);
    }
  });

  it('wrong proxy credentials: the view shows the 407 message naming what to set, without the credentials', async () => {
    await setHttp('proxy', proxy.url.replace('//', '//alice:wrong-canary@'));
    try {
      await reload();
      const status = api.catalog.status;
      assert.equal(status.kind, 'error');
      assert.ok(status.kind === 'error');
      assert.equal(status.failure.action, 'diagnose');
      const expected = `The proxy ${proxy.url} requires credentials (407 Proxy Authentication Required). Put them in the http.proxy setting (http://user:password@host:port) or set http.proxyAuthorization; if they are set, the proxy refused them.`;
      assert.equal(status.failure.message, expected);
      assert.ok(String(api.view.treeView.message).startsWith(expected), String(api.view.treeView.message));
      assert.ok(!String(api.view.treeView.message).includes('wrong-canary'));
      assert.ok(proxy.log.length > 0 && proxy.log.every((l) => l.startsWith(`CONNECT ${SERVICE}:`)));

      // The card preview meets the same proxy: its warning names the 407 and offers Diagnose Connection.
      const offered: string[][] = [];
      const ui = stubUi(api.ui, {
        warn: async (message, ...actions) => (offered.push([message, ...actions]), undefined),
      });
      try {
        const outcome = await vscode.commands.executeCommand<{ kind: string; message: string }>(
          Commands.previewModelCard,
          'aurora-2',
        );
        assert.equal(outcome?.kind, 'failed');
        assert.ok(outcome.message.includes(expected), outcome.message);
        assert.deepEqual(offered, [[outcome.message, 'Open in Browser', 'Diagnose Connection']]);
        assert.ok(!outcome.message.includes('wrong-canary'));
      } finally {
        ui.restore();
      }
    } finally {
      await setHttp('proxy', proxy.urlWithCredentials);
    }
  });

  it('http.proxyAuthorization carries the credentials for a proxy URL without them', async () => {
    await setHttp('proxy', proxy.url);
    await setHttp('proxyAuthorization', `Basic ${Buffer.from('alice:pr0xy-canary').toString('base64')}`);
    try {
      await reload();
      await eventually(
        async () => api.catalog.status.kind === 'ready',
        15_000,
        'the list with http.proxyAuthorization',
      );
      assertTunnelsOnly();
      assert.ok(connects(SERVICE) > 0);
    } finally {
      await setHttp('proxyAuthorization', undefined);
      await setHttp('proxy', proxy.urlWithCredentials);
    }
  });
});
