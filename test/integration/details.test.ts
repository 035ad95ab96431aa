// Model details, Model Card previews and Compare Models inside a real VS Code (code-server) against the local
// Model Access Service: what a person sees in the details tab, that hostile registry text stays text there,
// that a card is fetched without the key, and that a comparison shows every model's answer and timings.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { FamilyNode, ModelNode, ModelsTreeNode } from '../../src/explorer/nodes';
import { Commands } from '../../src/ids';
import { CARD_MARKER, HOSTILE, HOSTILE_IDS, startServer, type RunningServer } from '../server';
import { freePort } from '../harness/processes';
import { elements } from '../unit/helpers/html';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi } from './helpers';

const isFamily = (n: ModelsTreeNode): n is FamilyNode => n.contextValue === 'family';
const isModel = (n: ModelsTreeNode): n is ModelNode => /^model/.test(n.contextValue ?? '');

describe('Model details, card previews and comparisons', function () {
  this.timeout(90_000);
  let api: ModelAccessApi;
  const servers: RunningServer[] = [];
  const opened: string[] = [];
  let restoreOpener: () => void;

  async function connect(server: RunningServer, key: string): Promise<void> {
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, key);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the URL');
    await sleep(150);
    await api.catalog.refresh();
    await eventually(() => api.catalog.status.kind === 'ready', 15_000, 'the model list');
  }

  function modelRow(id: string): ModelNode {
    const provider = api.view.provider;
    const rows = provider
      .getChildren()
      .flatMap((n) => (isFamily(n) ? provider.getChildren(n) : [n]))
      .filter(isModel);
    const row = rows.find((r) => r.model.id === id);
    assert.ok(row, `the Models view has a row for ${id}`);
    return row;
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    restoreOpener = api.setOpener(async (url) => {
      opened.push(url);
      return true;
    });
  });

  after(async () => {
    restoreOpener?.();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('modelClickAction', undefined);
    await setSetting('baseUrl', undefined);
    for (const s of servers) {
      await api.keys.delete(s.url).catch(() => undefined);
      await s.close();
    }
  });

  beforeEach(() => {
    opened.length = 0;
  });

  describe('on the demo registry', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ streamDelayMs: 5 });
      servers.push(server);
      await connect(server, server.keys.acme);
    });

    it('Show Model Details from a model row shows its family, version and card link, read from the service', async () => {
      const tab = await vscode.commands.executeCommand<{
        panel: vscode.WebviewPanel;
        refreshed: Promise<void>;
      }>(Commands.showModelDetails, modelRow('aurora-2'));
      assert.ok(tab, 'the command returned the tab');
      await tab.refreshed;
      assert.equal(server.lastReceived('/v1/models/aurora-2', 'GET').status, 200);
      assert.equal(tab.panel.title, 'aurora-2');
      assert.ok(tab.panel.visible, 'the tab is shown');
      const els = elements(tab.panel.webview.html);
      const byId = (id: string) => els.find((e) => e.attrs.id === id)?.text;
      assert.equal(byId('model-id'), 'aurora-2');
      assert.equal(byId('model-family'), 'aurora');
      assert.equal(byId('model-version'), '2');
      assert.equal(byId('card-link'), 'https://cards.example/acme/aurora-2');
      assert.match(byId('status') ?? '', /From the service at/);
      // Every field of the entry is on the page, the creation date as a date.
      assert.ok(tab.panel.webview.html.includes('2023-11-01T00:00:00Z'));
      // A second Show Model Details reuses the tab.
      const again = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel }>(
        Commands.showModelDetails,
        'aurora-2',
      );
      assert.equal(again?.panel, tab.panel);
    });

    it('the modelClickAction "showDetails" opens the details tab on a click', async () => {
      await setSetting('modelClickAction', 'showDetails');
      const tab = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel }>(
        Commands.modelClicked,
        modelRow('aurora-1'),
      );
      assert.equal(tab?.panel.title, 'aurora-1');
      assert.deepEqual(opened, [], 'no browser was opened');
      await setSetting('modelClickAction', undefined);
    });

    it('a retiring model opens with its banner; its buttons start a request with the successor and compare the two', async () => {
      // The page posts `{ action }` when a button is pressed; the test delivers the same message.
      type Press = { handle(key: string, id: string, message: { action: string }): Promise<void> };
      const stub = stubUi(api.ui, { pick: (async (items: readonly unknown[]) => items[0]) as typeof api.ui.pick });
      try {
        const tab = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel; refreshed: Promise<void> }>(
          Commands.showModelDetails,
          modelRow('aurora-1'),
        );
        await tab?.refreshed;
        const els = elements(tab?.panel.webview.html ?? '');
        const banner = els.find((e) => e.attrs.id === 'lifecycle');
        assert.equal(els.find((e) => e.tag === 'h2')?.text, 'Retiring on 2027-01-31', 'the banner is first');
        assert.match(banner?.text ?? '', /Deprecated on 2026-06-30\..*Replaced by aurora-2/);
        const press = (action: string) => (api.details as unknown as Press).handle('aurora-1', 'aurora-1', { action });

        await press('newRequestSuccessor');
        await eventually(
          () => /"model": "aurora-2"/.test(vscode.window.activeTextEditor?.document.getText() ?? ''),
          10_000,
          'a payload for aurora-2',
        );
        server.clearRecords();
        await press('compareSuccessor');
        await eventually(
          () => {
            const models = server.received(undefined, 'POST').map((r) => r.json?.model);
            return models.includes('aurora-1') && models.includes('aurora-2');
          },
          20_000,
          'the payload sent to aurora-1 and aurora-2',
        );
      } finally {
        stub.restore();
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
    });

    it('shows an error in place when the service no longer knows the model', async () => {
      const tab = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel; refreshed: Promise<void> }>(
        Commands.showModelDetails,
        { id: 'gone-model', raw: { id: 'gone-model', family: 'gone' } },
      );
      await tab?.refreshed;
      const error = elements(tab?.panel.webview.html ?? '').find((e) => e.attrs.id === 'error');
      assert.match(error?.text ?? '', /does not know this model \(404\)/);
      assert.match(tab?.panel.webview.html ?? '', /gone/, 'what the catalog had stays on the page');
    });

    it('Compare Models with two models shows both answers and timings side by side, and adds both to history', async () => {
      await newPayload('/v1/responses', 'aurora-2', (p) => {
        p.stream = true;
        p.input = 'Say hello';
      });
      const before = api.requests.history.entries.length;
      server.clearRecords();
      const outcome = await vscode.commands.executeCommand<{
        kind: string;
        view: { columns: { model: string; state: string; text: string; time: string; firstToken: string }[] };
      }>(Commands.compareModels, { models: ['aurora-2', 'aurora-1'] });
      assert.equal(outcome?.kind, 'compared');
      const columns = outcome.view.columns;
      assert.deepEqual(
        columns.map((c) => [c.model, c.state]),
        [
          ['aurora-2', 'done'],
          ['aurora-1', 'done'],
        ],
      );
      for (const c of columns) {
        assert.ok(c.text.length > 0, `${c.model} has an answer`);
        assert.match(c.time, /^\d+(\.\d+)? (ms|s)$/, `${c.model} has a total time`);
        assert.match(c.firstToken, /^\d+(\.\d+)? (ms|s)$/, `${c.model} has a time to first token`);
      }
      const sent = server.received('/v1/responses', 'POST').map((r) => r.json?.model);
      assert.deepEqual([...sent].sort(), ['aurora-1', 'aurora-2']);
      assert.equal(api.requests.history.entries.length, before + 2);
      assert.deepEqual(
        api.requests.history.entries
          .slice(0, 2)
          .map((e) => e.model)
          .sort(),
        ['aurora-1', 'aurora-2'],
      );
      // The page draws the same view: both models are there.
      const view = api.requests.comparisons.view;
      assert.deepEqual(
        view?.columns.map((c) => c.model),
        ['aurora-2', 'aurora-1'],
      );
    });

    it('Compare Models refuses fewer than two models and sends nothing', async () => {
      server.clearRecords();
      const outcome = await vscode.commands.executeCommand<{ kind: string }>(Commands.compareModels, {
        models: ['aurora-2'],
      });
      assert.equal(outcome?.kind, 'notRun');
      assert.equal(server.received('/v1/responses', 'POST').length, 0);
    });
  });

  describe('Model Card preview', () => {
    // The cards are on the service's own origin: the one place on this machine a card may be read from.
    let service: RunningServer;
    let cardsUrl = '';
    before(async () => {
      const port = await freePort();
      cardsUrl = `http://127.0.0.1:${port}`;
      service = await startServer({
        port,
        // Cards made of a command link, raw HTML and a bidi override: what the preview must neutralize.
        hostile: { cards: true },
        registry: {
          organizations: ['acme'],
          models: [
            {
              id: 'carded',
              family: 'f',
              version: '1',
              organization: 'acme',
              model_card_url: `${cardsUrl}/cards/carded.md`,
              created: 1698796800,
            },
            {
              id: 'html-card',
              family: 'f',
              version: '2',
              organization: 'acme',
              model_card_url: `${cardsUrl}/cards/html-card.html`,
              created: 1698796800,
            },
          ],
        },
      });
      servers.push(service);
      await connect(service, service.keys.acme);
    });

    it('Preview Model Card fetches a Markdown card without the key and shows it in the Markdown preview', async () => {
      const outcome = await vscode.commands.executeCommand<{ kind: string; uri: vscode.Uri; text: string }>(
        Commands.previewModelCard,
        'carded',
      );
      assert.equal(outcome?.kind, 'preview');
      const received = service.lastReceived('/cards/carded.md', 'GET');
      assert.equal(received.authorization, false, 'the card host never got an Authorization header');
      assert.ok(!JSON.stringify(received.headers).includes(service.keys.acme), 'nor the key in any header');
      assert.ok(
        service
          .received()
          .filter((r) => !r.path.startsWith('/cards/'))
          .every((r) => r.authorization),
        'the service itself got the key',
      );
      assert.ok(outcome.text.includes(CARD_MARKER), 'the card text is shown');
      assert.ok(!outcome.text.includes('command:'), 'the command link points nowhere');
      assert.ok(!outcome.text.includes('<img'), 'raw HTML is text');
      assert.ok(outcome.text.includes('invoice⟨U+202E⟩txt.exe'), 'the bidi override is visible');
      const doc = await vscode.workspace.openTextDocument(outcome.uri);
      assert.equal(doc.getText(), outcome.text);
      await eventually(
        () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => /Preview/.test(t.label)),
        10_000,
        'the Markdown preview tab',
      );
    });

    it('an HTML card opens in the browser as before', async () => {
      const outcome = await vscode.commands.executeCommand<{ kind: string }>(Commands.previewModelCard, 'html-card');
      assert.equal(outcome?.kind, 'browser');
      assert.deepEqual(opened, [`${cardsUrl}/cards/html-card.html`]);
      assert.equal(service.lastReceived('/cards/html-card.html', 'GET').authorization, false);
    });
  });

  describe('on a hostile registry', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ hostile: { models: true, errors: true } });
      servers.push(server);
      await connect(server, server.keys.hostile);
    });

    it('renders hostile entries inert: registry text is text, links are no registry URLs, only the page script runs', async () => {
      for (const id of [HOSTILE_IDS.commandLink, HOSTILE_IDS.html, HOSTILE_IDS.bidi, HOSTILE_IDS.cardBreakout]) {
        const tab = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel; refreshed: Promise<void> }>(
          Commands.showModelDetails,
          id,
        );
        await tab?.refreshed;
        const html = tab?.panel.webview.html ?? '';
        const els = elements(html);
        const scripts = els.filter((e) => e.tag === 'script');
        assert.equal(scripts.length, 1, `${id}: only the page's own script`);
        assert.ok(scripts[0].attrs.nonce, 'which carries the nonce');
        assert.deepEqual(
          els.filter((e) => ['img', 'iframe', 'object', 'embed', 'form'].includes(e.tag)).map((e) => e.tag),
          [],
          `${id}: no element made from registry text`,
        );
        for (const e of els) {
          assert.ok(!Object.keys(e.attrs).some((a) => a.startsWith('on')), `${id}: <${e.tag}> has no handler`);
          assert.ok(e.attrs.href === undefined || e.attrs.href === '#', `${id}: no link to registry text`);
        }
        assert.doesNotMatch(html, /[\u202a-\u202e\u2066-\u2069]/, `${id}: no live bidi control`);
        const csp = els.find((e) => e.attrs['http-equiv'] === 'Content-Security-Policy')?.attrs.content ?? '';
        assert.match(csp, /^default-src 'none';/);
        tab?.panel.dispose();
      }
      const html = (
        await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel }>(
          Commands.showModelDetails,
          HOSTILE_IDS.html,
        )
      )?.panel.webview.html;
      assert.ok(
        elements(html ?? '').some((e) => e.attrs.id === 'model-id' && e.text === HOSTILE.html),
        'the id is shown as the text it is',
      );
    });

    it('a card link that is a command is refused in the page and never offered as an action', async () => {
      const tab = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel; refreshed: Promise<void> }>(
        Commands.showModelDetails,
        HOSTILE_IDS.cardCommand,
      );
      await tab?.refreshed;
      const els = elements(tab?.panel.webview.html ?? '');
      assert.ok(!els.some((e) => e.attrs['data-action'] === 'openCard'));
      assert.ok(els.some((e) => /Not opened: .*"command:" scheme/.test(e.text)));
    });
  });
});
