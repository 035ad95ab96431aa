// Compare Model Cards and Show Card Changes inside a real VS Code (code-server) against the local Model Access
// Service, whose cards are on its own origin: two versions of a family side by side in the diff editor, a model
// without a card shown as a side that says why, and a card that changed between two previews reported, with its
// changes in the diff editor.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { ModelPickItem } from '../../src/platform/modelPicks';
import { Commands } from '../../src/ids';
import { CARD_MARKER, startServer, type RunningServer } from '../server';
import { freePort } from '../harness/processes';
import { activateExtension, connectTo, eventually, setSetting, stubUi, type UiStub } from './helpers';

type Diff = { kind: 'diff'; left: vscode.Uri; right: vscode.Uri; title: string };

describe('Compare Model Cards', function () {
  this.timeout(90_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let cards = '';
  let stub: UiStub | undefined;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    const port = await freePort();
    cards = `http://127.0.0.1:${port}/cards`;
    const model = (id: string, family: string, version: string, card: boolean | 'md' | 'html' = true) => ({
      id,
      family,
      version,
      organization: 'acme',
      created: 1698796800 + Number(version),
      // An empty link is how a registry says a model has no card.
      model_card_url: card ? `${cards}/${id}.${card === 'html' ? 'html' : 'md'}` : '',
    });
    server = await startServer({
      port,
      registry: {
        organizations: ['acme'],
        models: [
          model('atlas-1', 'atlas', '1'),
          model('zephyr-1', 'zephyr', '1'),
          model('atlas-2', 'atlas', '2'),
          model('nocard-1', 'nocard', '1', false),
          // A card that is a web page (text/html).
          model('web-1', 'web', '1', 'html'),
        ],
      },
    });
    await connectTo(api, server);
  });

  afterEach(async () => {
    stub?.restore();
    stub = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await setSetting('baseUrl', undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await server.close();
  });

  async function sides(outcome: Diff): Promise<[string, string]> {
    const left = await vscode.workspace.openTextDocument(outcome.left);
    const right = await vscode.workspace.openTextDocument(outcome.right);
    return [left.getText(), right.getText()];
  }

  function activeDiff(): vscode.TabInputTextDiff | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputTextDiff ? input : undefined;
  }

  it('opens the diff editor on two versions of a family, the second picked with its family first', async () => {
    let offered: ModelPickItem[] = [];
    stub = stubUi(api.ui, {
      pick: (async (items: readonly ModelPickItem[]) => {
        offered = [...items];
        return items.find((i) => i.model?.id === 'atlas-2');
      }) as typeof api.ui.pick,
    });
    const outcome = await vscode.commands.executeCommand<Diff>(Commands.compareModelCards, 'atlas-1');
    assert.equal(outcome?.kind, 'diff');
    assert.equal(outcome.title, 'Model Card: atlas-1 ↔ atlas-2');
    assert.deepEqual(
      offered.filter((i) => i.model).map((i) => i.model?.id),
      ['atlas-2', 'nocard-1', 'web-1', 'zephyr-1'],
      'the family first, then the others; not the model itself',
    );
    const [left, right] = await sides(outcome);
    // The cards' own Markdown, as their server sent it: no HTML the preview generates from it.
    assert.match(left, /^# atlas-1$/m);
    assert.match(left, /version 1\./);
    assert.match(right, /^# atlas-2$/m);
    assert.match(right, /version 2\./);
    for (const side of [left, right]) {
      assert.doesNotMatch(side, /<h1|<td|<\/?p>|dir="auto"/, 'no generated HTML in a side');
    }
    assert.ok(left.includes(CARD_MARKER) && right.includes(CARD_MARKER), 'both whole cards');
    assert.ok(left.split('\n').length > 3, 'the card’s lines, not the preview’s one line');
    await eventually(() => activeDiff() !== undefined, 10_000, 'a diff editor');
    const diff = activeDiff();
    assert.equal(diff?.original.toString(), outcome.left.toString());
    assert.equal(diff?.modified.toString(), outcome.right.toString());
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, outcome.title);
    const received = server.lastReceived('/cards/atlas-2.md', 'GET');
    assert.equal(received.authorization, false, 'a card is read without the key');
  });

  it('from the palette picks both models; a model without a card is a side that says why', async () => {
    const answers = ['zephyr-1', 'nocard-1'];
    stub = stubUi(api.ui, {
      pick: (async (items: readonly ModelPickItem[]) => {
        const answer = answers.shift();
        return items.find((i) => i.model?.id === answer);
      }) as typeof api.ui.pick,
    });
    const outcome = await vscode.commands.executeCommand<Diff>(Commands.compareModelCards);
    assert.equal(outcome?.kind, 'diff');
    const [left, right] = await sides(outcome);
    assert.match(left, /^# zephyr-1$/m);
    assert.equal(right, '(“nocard-1” has no Model Card link.)\n');
    assert.deepEqual(stub.messages, [], 'no error for a model that simply has no card');
  });

  it('a click on a model opens a Markdown card rendered in VS Code, and a web-page card in the browser', async () => {
    const opened: string[] = [];
    stub = stubUi(api.ui, { openExternal: async (url: string) => (opened.push(url), true) });
    await setSetting('modelClickAction', undefined);
    const atlas = api.catalog.models.find((m) => m.id === 'atlas-1');
    assert.ok(atlas);
    type Preview = { kind: string; uri?: vscode.Uri; text?: string };
    const outcome = await vscode.commands.executeCommand<Preview>(Commands.modelClicked, atlas);
    assert.equal(outcome?.kind, 'preview', 'the Markdown card is previewed, not sent to the browser');
    // Rendered: the card's heading is an HTML heading for the preview, not the `# atlas-1` source.
    assert.match(outcome.text ?? '', /<h1[^>]*>atlas-1<\/h1>/);
    assert.deepEqual(opened, [], 'no browser tab');
    await eventually(
      () =>
        vscode.window.tabGroups.all.some((g) =>
          g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType)),
        ),
      10_000,
      'the Markdown preview',
    );

    const web = api.catalog.models.find((m) => m.id === 'web-1');
    assert.ok(web);
    const page = await vscode.commands.executeCommand<unknown>(Commands.modelClicked, web);
    assert.equal(page, 'opened');
    assert.deepEqual(opened, [`${cards}/web-1.html`], 'the web page opens in the browser');
    assert.deepEqual(stub.messages, [], 'nothing to warn about');
  });

  it('a card that cannot be read says so with the way out, and the other card is still shown', async () => {
    const broken = {
      id: 'broken-1',
      family: 'atlas',
      version: '1',
      cardUrl: `${cards}/missing.md`,
      raw: {},
    };
    const atlas = api.catalog.models.find((m) => m.id === 'atlas-1');
    assert.ok(atlas);
    stub = stubUi(api.ui);
    const outcome = (await api.cardComparisons.compare(broken, atlas)) as Diff;
    assert.equal(outcome.kind, 'diff');
    const [left, right] = await sides(outcome);
    assert.match(left, /The Model Card of “broken-1” could not be read\..*404/);
    assert.match(right, /^# atlas-1$/m);
    assert.equal(stub.messages.length, 1);
    assert.match(stub.messages[0], /The Model Card of broken-1 could not be previewed\..*404/);
  });

  it('reports a card that changed since it was last previewed, and Show Card Changes diffs kept → current', async () => {
    stub = stubUi(api.ui);
    type Preview = { kind: string; text: string; changedSince?: number };
    const first = await vscode.commands.executeCommand<Preview>(Commands.previewModelCard, 'zephyr-1');
    assert.equal(first?.kind, 'preview');
    assert.equal(first.changedSince, undefined, 'the first preview says nothing');
    assert.doesNotMatch(first.text, /changed since you last read it/);
    const again = await vscode.commands.executeCommand<Preview>(Commands.previewModelCard, 'zephyr-1');
    assert.equal(again?.changedSince, undefined, 'an unchanged card says nothing');
    assert.deepEqual(stub.messages, []);

    // The registry publishes a new version of the model, and its card says so.
    server.changeRegistry('acme', { update: { 'zephyr-1': { version: '7' } } });
    const changed = await vscode.commands.executeCommand<Preview>(Commands.previewModelCard, 'zephyr-1');
    assert.equal(changed?.kind, 'preview');
    assert.equal(typeof changed.changedSince, 'number');
    assert.match(changed.text, /^\*This card changed since you last read it on .+\.\*\n/);
    assert.equal(stub.messages.length, 1);
    assert.match(stub.messages[0], /The Model Card of zephyr-1 changed since you last read it on /);

    const outcome = await vscode.commands.executeCommand<Diff>(Commands.showCardChanges);
    assert.equal(outcome?.kind, 'diff');
    assert.match(outcome.title, /^Model Card: zephyr-1 \(.+ ↔ now\)$/);
    const [kept, current] = await sides(outcome);
    assert.match(kept, /version 1\./);
    assert.match(current, /version 7\./);
    assert.match(current, /^# zephyr-1$/m, 'the card’s own Markdown');
    assert.doesNotMatch(current, /<h1|<\/?p>/, 'no generated HTML');
    assert.doesNotMatch(current, /changed since you last read it/, 'the card only, not the preview’s note');
    await eventually(() => activeDiff() !== undefined, 10_000, 'a diff editor');

    // Read once more: it is the card last read now, so nothing is said.
    const read = await vscode.commands.executeCommand<Preview>(Commands.previewModelCard, 'zephyr-1');
    assert.equal(read?.changedSince, undefined);
    const none = await vscode.commands.executeCommand<{ kind: string }>(Commands.showCardChanges, 'zephyr-1');
    assert.equal(none?.kind, 'noCards');
  });
});
