// Corporate networks in a real VS Code: a service over TLS with a private CA made at test time. Without the CA
// the Models view says the certificate is not trusted and offers Diagnose Connection; with
// modelAccess.tls.caCertificates the tree fills; a client certificate's passphrase set through the command
// opens an mTLS service; the diagnosis report names the trusting root and never a secret.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, Settings } from '../../src/ids';
import type { ModelAccessApi } from '../../src/testApi';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { loadRegistry, startServer, type RunningServer } from '../server';
import { CARD_MARKER } from '../server/cards';
import { createPki, startTlsFront, type TestPki, type TlsFront } from '../unit/helpers/tls';
import { activateExtension, eventually, setSetting, sleep, stubUi } from './helpers';

describe('Corporate networks: CA setting, client certificate and Diagnose Connection', function () {
  this.timeout(90_000);
  let api: ModelAccessApi;
  let pki: TestPki;
  let service: RunningServer;
  let front: TlsFront;
  let mtls: TlsFront;

  async function reload(): Promise<void> {
    await sleep(200);
    await api.catalog.refresh();
  }

  /** Runs the command and waits until the report's tab shows a report matching `expect` (it is refreshed in place). */
  async function diagnosis(expect: RegExp): Promise<string> {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>(Commands.diagnoseConnection);
    return eventually(
      async () => {
        // The report opens as a rendered Markdown preview of this document (refreshed in place).
        const text = doc?.getText();
        return text !== undefined && expect.test(text) ? text : undefined;
      },
      10_000,
      `a diagnosis report matching ${expect}`,
    );
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    pki = createPki(['localhost']);
    service = await startServer();
    const port = Number(new URL(service.url).port);
    front = await startTlsFront(port, pki.server);
    mtls = await startTlsFront(port, pki.server, pki.caPem);
  });

  after(async () => {
    await setSetting('tls.caCertificates', undefined);
    await setSetting('tls.clientCertificate', undefined);
    await setSetting('baseUrl', undefined);
    await front.close();
    await mtls.close();
    await service.close();
    pki.dispose();
  });

  it('untrusted certificate: the view says so and offers Diagnose Connection; the CA setting fills the tree', async () => {
    const url = `https://localhost:${front.port}`;
    await setSetting('baseUrl', url);
    await api.keys.store(url, service.keys.acme);
    await setSetting('tls.caCertificates', []);
    await reload();
    const status = api.catalog.status;
    assert.equal(status.kind, 'error');
    assert.ok(status.kind === 'error');
    assert.match(status.failure.message, /certificate of https:\/\/localhost:\d+ is not trusted/);
    assert.equal(status.failure.action, 'diagnose');

    const untrusted = await diagnosis(/Not trusted/);
    assert.match(untrusted, /\*\*Not trusted:\*\*/);
    assert.match(untrusted, /Model Access Test Root CA/);
    assert.ok(!untrusted.includes(service.keys.acme));

    await setSetting('tls.caCertificates', [pki.caFile]);
    await reload();
    assert.equal(api.catalog.status.kind, 'ready');
    assert.ok(api.catalog.models.length > 0);

    const trusted = await diagnosis(/Trusted by/);
    assert.match(trusted, /\*\*Trusted by:\*\* .*Model Access Test Root CA.*modelAccess\.tls\.caCertificates/);
    assert.match(trusted, /\*\*Status:\*\* 200 in \d+ ms/);
    assert.match(trusted, /\*\*Version:\*\* TLSv1\.[23]/);
    assert.ok(!trusted.includes(service.keys.acme));
  });

  it('client certificate: the passphrase set by the command opens an mTLS service and appears nowhere', async () => {
    const url = `https://localhost:${mtls.port}`;
    await setSetting('baseUrl', url);
    await api.keys.store(url, service.keys.acme);
    await setSetting('tls.caCertificates', [pki.caFile]);
    await setSetting('tls.clientCertificate', { pfxFile: pki.client.pfxFile });
    const ui = stubUi(api.ui, { input: async () => pki.client.passphrase });
    try {
      await vscode.commands.executeCommand(Commands.setClientCertificatePassphrase);
      await reload();
      await eventually(async () => api.catalog.status.kind === 'ready', 10_000, 'the list over mTLS');
      assert.ok(api.catalog.models.length > 0);
      assert.ok(mtls.clients.includes('alice'));
      const report = await diagnosis(/passphrase stored/);
      assert.match(report, /passphrase stored for this origin/);
      for (const text of [report, ...ui.messages]) {
        assert.ok(!text.includes(pki.client.passphrase), 'the passphrase was shown');
      }
    } finally {
      ui.restore();
    }
  });

  it('modelAccess.tls.* in workspace settings is not read: roots and the client certificate come from user settings', async () => {
    const workspace = vscode.workspace.getConfiguration('modelAccess');
    try {
      await setSetting('tls.caCertificates', undefined);
      await setSetting('tls.clientCertificate', undefined);
      await workspace.update('tls.caCertificates', [pki.caFile], vscode.ConfigurationTarget.Workspace);
      await workspace.update(
        'tls.clientCertificate',
        { pfxFile: pki.client.pfxFile },
        vscode.ConfigurationTarget.Workspace,
      );
      await eventually(
        () => vscode.workspace.getConfiguration('modelAccess').get<string[]>('tls.caCertificates')?.length === 1,
        5000,
        'the workspace value in effect',
      );
      const network = await api.connection.keylessNetwork();
      assert.deepEqual(network.trust?.caFiles, [], "the workspace's roots are not trusted");
      assert.equal(network.clientCertificate, undefined, "the workspace's certificate files are not used");
    } finally {
      await workspace.update('tls.caCertificates', undefined, vscode.ConfigurationTarget.Workspace);
      await workspace.update('tls.clientCertificate', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("a workspace's service URL: what a card is fetched with holds the client certificate only once the stored key is allowed there", async () => {
    const url = `https://localhost:${mtls.port}`;
    const ui = stubUi(api.ui, { ask: async () => undefined, input: async () => pki.client.passphrase });
    try {
      // The URL only in the workspace's settings (the same URL in user settings is the person's own choice).
      await setSetting('baseUrl', undefined);
      await setSetting('tls.caCertificates', [pki.caFile]);
      await setSetting('tls.clientCertificate', { pfxFile: pki.client.pfxFile });
      await vscode.workspace
        .getConfiguration('modelAccess')
        .update('baseUrl', url, vscode.ConfigurationTarget.Workspace);
      await api.keys.store(url, service.keys.acme);
      await api.connection.consent.forget(url);
      await eventually(
        async () => (await api.connection.state()).needsConsent === true,
        10_000,
        'the workspace URL waiting for an allowance',
      );
      const before = await api.connection.keylessNetwork();
      assert.equal(before.clientCertificate, undefined, 'no client certificate before the allowance');
      assert.ok(before.trust?.caFiles?.includes(pki.caFile), 'the roots apply all the same');
      // Diagnose Connection presents it no more than a request would.
      const presented = mtls.clients.length;
      const report = await diagnosis(/Client certificate:\*\* not presented[^]*GET \/v1\/models\n\n- \*\*/);
      assert.match(report, /Client certificate:\*\* not presented: this workspace's service URL is not allowed yet/);
      assert.equal(mtls.clients.length, presented, 'the diagnosis presented no client certificate');

      await api.connection.consent.allow(url);
      await vscode.commands.executeCommand(Commands.setClientCertificatePassphrase);
      const after = await api.connection.keylessNetwork();
      assert.equal(after.clientCertificate?.origin, url);
      assert.equal(after.clientCertificate?.certificate.pfxFile, pki.client.pfxFile);
      assert.ok(after.clientCertificate?.certificate.passphrase === pki.client.passphrase, 'the stored passphrase');
    } finally {
      ui.restore();
      await vscode.workspace
        .getConfiguration('modelAccess')
        .update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
      await api.connection.consent.forget(url);
    }
  });

  it("a Model Card on the mTLS service's own origin is previewed with the client certificate, without the key", async () => {
    // The card's URL names the TLS front's port, so the front starts first, in front of a port the service
    // then takes.
    const free = createNetServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const front = await startTlsFront(port, pki.server, pki.caPem);
    const registry = loadRegistry();
    registry.models = registry.models.map((m) =>
      m.id === 'aurora-2' ? { ...m, model_card_url: `https://localhost:${front.port}/cards/aurora-2.md` } : m,
    );
    const carded = await startServer({ registry, port });
    const url = `https://localhost:${front.port}`;
    try {
      await setSetting('baseUrl', url);
      await api.keys.store(url, carded.keys.acme);
      await setSetting('tls.caCertificates', [pki.caFile]);
      await setSetting('tls.clientCertificate', { pfxFile: pki.client.pfxFile });
      const ui = stubUi(api.ui, { input: async () => pki.client.passphrase });
      try {
        await vscode.commands.executeCommand(Commands.setClientCertificatePassphrase);
      } finally {
        ui.restore();
      }
      await reload();
      await eventually(async () => api.catalog.status.kind === 'ready', 10_000, 'the list over mTLS');
      const before = front.clients.length;
      const outcome = await vscode.commands.executeCommand<{ kind: string; text: string }>(
        Commands.previewModelCard,
        'aurora-2',
      );
      assert.equal(outcome?.kind, 'preview', JSON.stringify(outcome));
      assert.ok(outcome.text.includes(CARD_MARKER));
      assert.ok(front.clients.length > before, 'the card request presented the client certificate');
      const card = carded.lastReceived('/cards/aurora-2.md', 'GET');
      assert.equal(card.authorization, false, "the card on the service's origin got no key");
    } finally {
      const ui = stubUi(api.ui, { input: async () => '' });
      await vscode.commands.executeCommand(Commands.setClientCertificatePassphrase).then(ui.restore, ui.restore);
      await api.keys.delete(url).catch(() => undefined);
      await front.close();
      await carded.close();
    }
  });

  it("a Model Card from a row under another environment's root is previewed with that environment's client certificate", async () => {
    const free = createNetServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const front = await startTlsFront(port, pki.server, pki.caPem);
    const registry = loadRegistry();
    registry.models = registry.models.map((m) =>
      m.id === 'aurora-2' ? { ...m, model_card_url: `https://localhost:${front.port}/cards/aurora-2.md` } : m,
    );
    const carded = await startServer({ registry, port });
    const secure = `https://localhost:${front.port}`;
    const label = (n: vscode.TreeItem) => (typeof n.label === 'string' ? n.label : (n.label?.label ?? ''));
    try {
      // The active environment is a plain service; the mTLS one is only a root of the view.
      await setSetting('baseUrl', undefined);
      await setSetting('tls.caCertificates', [pki.caFile]);
      await setSetting('tls.clientCertificate', { pfxFile: pki.client.pfxFile });
      await api.keys.store(service.url, service.keys.acme);
      await api.keys.store(secure, carded.keys.acme);
      await api.connection.passphrases?.set(secure, pki.client.passphrase);
      await setSetting(Settings.environments, [
        { name: 'Plain', baseUrl: service.url },
        { name: 'Secure', baseUrl: secure },
      ]);
      await eventually(() => api.environments.list.length === 2, 5000, 'two environments');
      assert.equal(await vscode.commands.executeCommand(Commands.switchEnvironment, 'Plain'), 'Plain');
      await setSetting(Settings.groupByFamily, false);
      await setSetting(Settings.showAllEnvironments, true);
      const secureRoot = () =>
        (api.view.roots.getChildren() as vscode.TreeItem[]).find((r) => label(r) === 'Secure') as vscode.TreeItem;
      const row = () =>
        (api.view.roots.getChildren(secureRoot() as never) as vscode.TreeItem[]).find((n) => label(n) === 'aurora-2');
      await eventually(() => secureRoot() !== undefined, 10_000, 'the Secure root');
      void api.catalogs.ensureLoaded();
      await eventually(() => row() !== undefined, 30_000, 'Secure’s rows, over mTLS');
      const before = front.clients.length;
      const outcome = await vscode.commands.executeCommand<{ kind: string; text: string }>(
        Commands.previewModelCard,
        row(),
      );
      assert.equal(outcome?.kind, 'preview', JSON.stringify(outcome));
      assert.ok(outcome.text.includes(CARD_MARKER));
      assert.ok(front.clients.length > before, 'the card request presented the client certificate');
      assert.equal(carded.lastReceived('/cards/aurora-2.md', 'GET').authorization, false, 'the card got no key');
    } finally {
      await setSetting(Settings.showAllEnvironments, undefined);
      await setSetting(Settings.groupByFamily, undefined);
      await setSetting(Settings.environments, undefined);
      await api.connection.passphrases?.set(secure, '');
      await api.keys.delete(secure).catch(() => undefined);
      await api.keys.delete(service.url).catch(() => undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await front.close();
      await carded.close();
    }
  });
});
