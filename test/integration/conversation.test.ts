// Conversations inside a real VS Code against the local Model Access Service: Reply appends the answer and
// a new user turn (one undo step, the cursor in it, the rest of the file as written), the next Send carries
// the whole conversation; Regenerate, Fork, Send from an earlier turn, tool calls, Responses (whole
// conversation, or previous_response_id with the setting), attachments, a cancelled answer, Show
// Conversation live while an answer streams, and Use Uploaded File in a New Request.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import type { ConversationOutcome } from '../../src/requests/conversation/conversation';
import { Commands } from '../../src/ids';
import { PANEL_REDRAW_MS } from '../../src/requests/conversation/conversationPanel';
import { literalText } from '../../src/domain/payload/variables';
import { startServer, type RunningServer } from '../server';
import { generateText, questionText } from '../server/generation';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';

type Message = { role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string };

/** The payload's JSON (the `// POST` line and comments allowed). */
function payloadOf(editor: vscode.TextEditor): Record<string, unknown> {
  return parse(editor.document.getText()) as Record<string, unknown>;
}

/** The text around the cursor, `|` at the cursor. */
function aroundCursor(editor: vscode.TextEditor, chars = 12): string {
  const doc = editor.document;
  const at = doc.offsetAt(editor.selection.active);
  const text = doc.getText();
  return `${text.slice(Math.max(0, at - chars), at)}|${text.slice(at, at + 4)}`;
}

async function type(editor: vscode.TextEditor, text: string): Promise<void> {
  await editor.edit((b) => b.insert(editor.selection.active, text));
}

async function send(): Promise<Extract<SendOutcome, { kind: 'sent' }>> {
  const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
  assert.equal(outcome.kind, 'sent', outcome.kind === 'sent' ? '' : outcome.message);
  assert.ok(outcome.kind === 'sent');
  assert.equal(outcome.record.status, 200, outcome.record.error);
  return outcome;
}

describe('Conversations', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;
  let tmp: string;
  let model: string;
  const asked: string[] = [];
  let answerAsk: string | undefined;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ streamDelayMs: 20 });
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-conversation-'));
    ui = stubUi(api.ui, {
      ask: async (message, _detail, ...actions) => {
        asked.push(message);
        return actions.find((a) => a === answerAsk);
      },
    });
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await sleep(150);
    await api.catalog.refresh();
    model = api.catalog.models[0].id;
  });

  after(async () => {
    ui?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('conversation.previousResponseId', undefined);
    await setSetting('conversation.maxAttachmentMegabytes', undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(() => {
    ui.messages.length = 0;
    asked.length = 0;
    answerAsk = undefined;
  });

  it('Payload Actions… (the keyboard, anywhere in the payload) offers Reply, Regenerate and Show Conversation once there is an answer', async () => {
    const editor = await newPayload('/v1/chat', model);
    const offered: string[][] = [];
    const pick = api.ui.pick;
    try {
      api.ui.pick = (async (items: readonly { label: string }[]) => {
        offered.push(items.map((i) => i.label));
        return items.find((i) => /Reply/.test(i.label));
      }) as typeof api.ui.pick;
      await vscode.commands.executeCommand(Commands.payloadActions);
      assert.ok(!offered[0].some((l) => /Reply/.test(l)), 'no Reply before an answer: ' + offered[0].join(' | '));
      await send();
      editor.selection = new vscode.Selection(editor.document.lineCount - 1, 0, editor.document.lineCount - 1, 0);
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand(Commands.payloadActions);
      assert.deepEqual(offered[1].slice(1, 4), [
        '$(reply) Reply',
        '$(refresh) Regenerate',
        '$(comment-discussion) Show Conversation',
      ]);
      const messages = await eventually(
        () => {
          const m = payloadOf(editor).messages as Message[];
          return m.length === 4 ? m : undefined;
        },
        5000,
        'Reply from Payload Actions',
      );
      assert.deepEqual(
        messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'user'],
      );
    } finally {
      api.ui.pick = pick;
    }
  });

  it('Chat, streamed: Reply appends the whole answer and an empty user turn; the next Send carries all four turns', async () => {
    const editor = await newPayload('/v1/chat', model, (p) => {
      p.stream = true;
      (p.messages as Message[])[1].content = 'Hi team';
    });
    // A comment and a variable the edits must leave alone.
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), '// @env \n// keep me {{x}}\n'));
    const before = editor.document.getText();
    const first = await send();
    const expected = generateText(model, questionText(server.lastReceived('/v1/chat').json?.messages as Message[]));
    assert.equal(first.record.finalText, expected);
    // The panel showed the answer: it is written into the payload (its own undo step).
    const answered = editor.document.getText();
    assert.equal((payloadOf(editor).messages as Message[]).at(-1)?.content, expected);

    const reply = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
    assert.equal(reply.kind, 'done', reply.kind === 'unchanged' ? reply.message : '');
    const after = editor.document.getText();
    assert.ok(
      after.startsWith(before.slice(0, before.lastIndexOf('}', before.lastIndexOf(']')) + 1)),
      'the start unchanged',
    );
    assert.ok(after.includes('// keep me {{x}}'));
    const messages = payloadOf(editor).messages as Message[];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.equal(messages[2].content, expected, 'the whole streamed text');
    assert.equal(messages[3].content, '');
    assert.equal(aroundCursor(editor), '"content": "|"\n  ', 'the cursor is in the new user content');
    assert.equal(vscode.window.activeTextEditor?.document, editor.document);

    // One undo step removes it (the empty turn; the answer written before it is the step before).
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), answered);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), before);
    await vscode.commands.executeCommand('redo');
    await vscode.commands.executeCommand('redo');
    assert.equal(editor.document.getText(), after);

    editor.selection = new vscode.Selection(
      editor.document.positionAt(after.lastIndexOf('""') + 1),
      editor.document.positionAt(after.lastIndexOf('""') + 1),
    );
    await type(editor, 'Tell me more');
    await send();
    const sent = server.lastReceived('/v1/chat').json?.messages as Message[];
    assert.deepEqual(
      sent.map((m) => [m.role, m.content]),
      [
        ['system', 'You are a helpful assistant.'],
        ['user', 'Hi team'],
        ['assistant', expected],
        ['user', 'Tell me more'],
      ],
    );
    // Everything else follows the conversation: the history keeps each turn's request, Copy as Code sends all of it.
    assert.ok(api.requests.history.entries[0].payload.includes('Tell me more'));
    assert.ok(!api.requests.history.entries[1].payload.includes('Tell me more'));
    const code = (await vscode.commands.executeCommand(
      Commands.copyAsCode,
      editor.document.uri,
      'curl-bash',
    )) as string;
    assert.ok(
      code.includes('Tell me more') &&
        code.includes('"assistant"') &&
        // As JSON writes it (the demo's answer quotes a question).
        code.includes(JSON.stringify(expected.split(' ').slice(-3).join(' ')).slice(1, -1)),
      `the snippet sends the whole conversation:\n${code}`,
    );
  });

  it('Reply from the answer document, and a second Reply only puts the cursor back', async () => {
    const editor = await newPayload('/v1/chat', model);
    const outcome = await send();
    await vscode.window.showTextDocument(outcome.responseUri, { preview: false });
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), outcome.responseUri.toString());
    const reply = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
    assert.equal(reply.kind, 'done');
    assert.equal(vscode.window.activeTextEditor?.document, editor.document, 'the payload is brought to the front');
    const once = editor.document.getText();
    const again = (await vscode.commands.executeCommand(Commands.reply, outcome.responseUri)) as ConversationOutcome;
    assert.equal(again.kind, 'done');
    assert.match(again.message ?? '', /already in the conversation/);
    assert.equal(editor.document.getText(), once);
  });

  it('Regenerate sends the conversation without the last answer and puts the new one in its place', async () => {
    const editor = await newPayload('/v1/chat', model);
    await send();
    await vscode.commands.executeCommand(Commands.reply);
    await type(editor, 'And then?');
    await send();
    await vscode.commands.executeCommand(Commands.reply);
    const count = server.received('/v1/chat').length;
    const outcome = (await vscode.commands.executeCommand(Commands.regenerate)) as ConversationOutcome;
    assert.equal(outcome.kind, 'done', outcome.kind === 'unchanged' ? outcome.message : '');
    assert.equal(server.received('/v1/chat').length, count + 1);
    const sent = server.lastReceived('/v1/chat').json?.messages as Message[];
    assert.deepEqual(
      sent.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
      'sent without the last answer',
    );
    const messages = payloadOf(editor).messages as Message[];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'user', 'assistant', 'user'],
      'the new answer replaced the old one',
    );
    assert.equal(messages[4].content, generateText(model, questionText(sent)));
    // A question typed after the answer: it is sent as it is, and the new answer follows it.
    await type(editor, 'A third question');
    const again = (await vscode.commands.executeCommand(Commands.regenerate)) as ConversationOutcome;
    assert.equal(again.kind, 'done');
    assert.equal((server.lastReceived('/v1/chat').json?.messages as Message[]).at(-1)?.content, 'A third question');
    assert.deepEqual(
      (payloadOf(editor).messages as Message[]).slice(5).map((m) => [m.role, m.content === '']),
      [
        ['user', false],
        ['assistant', false],
        ['user', true],
      ],
    );
  });

  it('Fork Conversation opens a new payload with the turns up to the cursor', async () => {
    const editor = await newPayload('/v1/chat', model);
    await send();
    await vscode.commands.executeCommand(Commands.reply);
    const original = editor.document.getText();
    const at = original.indexOf('"role": "assistant"');
    editor.selection = new vscode.Selection(editor.document.positionAt(at), editor.document.positionAt(at));
    const outcome = (await vscode.commands.executeCommand(Commands.forkConversation)) as ConversationOutcome;
    assert.equal(outcome.kind, 'done');
    assert.ok(outcome.kind === 'done' && outcome.editor);
    const forked = outcome.editor;
    assert.notEqual(forked.document.uri.toString(), editor.document.uri.toString());
    assert.ok(api.requests.scratch.contains(forked.document.uri));
    assert.equal(forked.document.lineAt(0).text, '// POST /v1/chat');
    assert.deepEqual(
      (payloadOf(forked).messages as Message[]).map((m) => m.role),
      ['system', 'user', 'assistant'],
    );
    assert.equal(editor.document.getText(), original, 'the conversation itself is unchanged');
  });

  it('Send from inside an earlier user turn offers to drop the turns after it', async () => {
    const editor = await newPayload('/v1/chat', model);
    await send();
    await vscode.commands.executeCommand(Commands.reply);
    await type(editor, 'second question');
    const full = editor.document.getText();
    const at = full.indexOf(INPUT_TEXT);
    const inFirst = editor.document.positionAt(at + 2);
    const count = server.received('/v1/chat').length;

    editor.selection = new vscode.Selection(inFirst, inFirst);
    const dismissed = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(dismissed.kind, 'notSent');
    assert.match(asked[0], /The cursor is in turn 2; 2 turns follow it/);
    assert.equal(server.received('/v1/chat').length, count, 'nothing was sent');
    assert.equal(editor.document.getText(), full);

    answerAsk = 'Send Everything';
    editor.selection = new vscode.Selection(inFirst, inFirst);
    await send();
    assert.equal((server.lastReceived('/v1/chat').json?.messages as Message[]).length, 4);

    answerAsk = 'Drop Later Turns and Send';
    editor.selection = new vscode.Selection(inFirst, inFirst);
    await send();
    assert.deepEqual(
      (server.lastReceived('/v1/chat').json?.messages as Message[]).map((m) => m.role),
      ['system', 'user'],
    );
    // The later turns went; the answer to what was sent follows it.
    assert.deepEqual(
      (payloadOf(editor).messages as Message[]).map((m) => m.role),
      ['system', 'user', 'assistant'],
    );
  });

  it('tools: Reply appends the call and a tool turn per call; the filled result reaches the service with its call id', async () => {
    const editor = await newPayload('/v1/chat', model, (p) => {
      p.stream = true;
      p.tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
    });
    const first = await send();
    assert.ok(first.record.stream);
    const reply = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
    assert.equal(reply.kind, 'done', reply.kind === 'unchanged' ? reply.message : '');
    const messages = payloadOf(editor).messages as Message[];
    const calls = messages[2].tool_calls as { id: string; function: { name: string; arguments: string } }[];
    assert.equal(calls.length, 1);
    assert.equal(calls[0].function.name, 'lookup');
    assert.deepEqual(JSON.parse(calls[0].function.arguments), { input: INPUT_TEXT });
    assert.deepEqual(messages[3], { role: 'tool', tool_call_id: calls[0].id, content: '' });
    assert.match(aroundCursor(editor), /"content": "\|"/);
    await type(editor, '42 results');
    const second = await send();
    const sent = server.lastReceived('/v1/chat').json?.messages as Message[];
    assert.deepEqual(sent.at(-1), { role: 'tool', tool_call_id: calls[0].id, content: '42 results' });
    assert.ok(second.record.finalText && second.record.finalText.length > 0, 'answered with text');
  });

  it('Responses: the input string becomes the whole conversation, sent each time', async () => {
    const editor = await newPayload('/v1/responses', model, (p) => (p.input = 'First question'));
    const first = await send();
    const expected = generateText(model, 'First question');
    assert.ok(JSON.stringify(first.record.bodyJson).includes(JSON.stringify(expected)));
    await vscode.commands.executeCommand(Commands.reply);
    await type(editor, 'Follow-up');
    await send();
    const sent = server.lastReceived('/v1/responses').json;
    assert.deepEqual(sent?.input, [
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: expected },
      { role: 'user', content: 'Follow-up' },
    ]);
    assert.equal(sent?.previous_response_id, undefined);
  });

  it('Responses with modelAccess.conversation.previousResponseId: the new turn and the response id', async () => {
    await setSetting('conversation.previousResponseId', true);
    try {
      const editor = await newPayload('/v1/responses', model, (p) => {
        p.input = 'First question';
        p.stream = true;
      });
      await send();
      const record = api.requests.responses.latestFor(editor.document.uri);
      const id = record?.rawEvents?.join('\n').match(/"id":"(resp_[0-9a-f]+)"/)?.[1];
      assert.ok(id, 'the stream carried a response id');
      await vscode.commands.executeCommand(Commands.reply);
      await type(editor, 'Follow-up');
      await send();
      const sent = server.lastReceived('/v1/responses').json;
      assert.equal(sent?.previous_response_id, id);
      assert.equal(sent?.input, 'Follow-up');
    } finally {
      await setSetting('conversation.previousResponseId', undefined);
    }
  });

  it('an attached image reaches the service as a data URL of the file’s bytes; bad files change nothing', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const file = path.join(tmp, 'pixel.png');
    writeFileSync(file, png);
    const editor = await newPayload('/v1/chat', model);
    const attached = (await vscode.commands.executeCommand(
      Commands.attachFileToConversation,
      vscode.Uri.file(file),
    )) as ConversationOutcome;
    assert.equal(attached.kind, 'done', attached.kind === 'unchanged' ? attached.message : '');
    await send();
    const user = (server.lastReceived('/v1/chat').json?.messages as Message[])[1];
    const parts = user.content as { type: string; text?: string; image_url?: { url: string } }[];
    assert.equal(parts[0].text, INPUT_TEXT);
    const url = parts[1].image_url?.url ?? '';
    assert.match(url, /^data:image\/png;base64,/);
    assert.deepEqual(Buffer.from(url.split(',')[1], 'base64'), png);

    const before = editor.document.getText();
    const fake = path.join(tmp, 'fake.png');
    writeFileSync(fake, 'not an image');
    const notImage = (await vscode.commands.executeCommand(
      Commands.attachFileToConversation,
      vscode.Uri.file(fake),
    )) as ConversationOutcome;
    assert.equal(notImage.kind, 'unchanged');
    assert.match(ui.messages.at(-1) ?? '', /fake\.png is named as an image but is not/);
    const gone = (await vscode.commands.executeCommand(
      Commands.attachFileToConversation,
      vscode.Uri.file(path.join(tmp, 'gone.png')),
    )) as ConversationOutcome;
    assert.equal(gone.kind, 'unchanged');
    assert.match(ui.messages.at(-1) ?? '', /gone\.png cannot be read/);
    await setSetting('conversation.maxAttachmentMegabytes', 0.00001);
    try {
      const big = (await vscode.commands.executeCommand(
        Commands.attachFileToConversation,
        vscode.Uri.file(file),
      )) as ConversationOutcome;
      assert.equal(big.kind, 'unchanged');
      assert.match(ui.messages.at(-1) ?? '', /over the limit .*modelAccess\.conversation\.maxAttachmentMegabytes/);
    } finally {
      await setSetting('conversation.maxAttachmentMegabytes', undefined);
    }
    assert.equal(editor.document.getText(), before, 'the payload is exactly as it was');
  });

  it('a stopped answer: kept in the payload, marked as cut, when the panel shows it; else Reply asks first', async () => {
    const slow = await startServer({ streamDelayMs: 400 });
    await setSetting('baseUrl', slow.url);
    await api.keys.store(slow.url, slow.keys.acme);
    /** Sends a streamed payload and stops it once some text arrived. */
    const stopped = async () => {
      const editor = await newPayload('/v1/chat', model, (p) => (p.stream = true));
      const pending = vscode.commands.executeCommand(Commands.sendRequest) as Thenable<SendOutcome>;
      const uri = api.requests.responses.uriFor(editor.document.uri, 'text', false);
      await eventually(() => (api.requests.responses.get(uri)?.stream?.text.length ?? 0) > 0, 10_000, 'some text');
      api.requests.sender.cancel(editor.document.uri);
      const outcome = await pending;
      assert.ok(outcome.kind === 'sent' && outcome.record.cancelled);
      return { editor, arrived: outcome.record.stream?.text };
    };
    try {
      await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === slow.url), 5000, 'the slow service');
      // The panel showed it: what arrived is kept in the payload, marked as cut inside its turn.
      const kept = await stopped();
      assert.match(kept.editor.document.getText(), /\/\/ cut \(cancelled\): stopped before the answer was complete/);
      assert.equal((payloadOf(kept.editor).messages as Message[])[2].content, kept.arrived);
      await eventually(
        () =>
          /Assistant <span class="muted">\(cut\)<\/span>[\s\S]*Cut: the answer was stopped before it was complete\.[\s\S]*Regenerate the answer/.test(
            api.requests.panels.shown(kept.editor.document.uri)?.pieces.join('') ?? '',
          ),
        5000,
        'the panel says the kept answer was cut',
      );
      // Reply does not ask about what is already there: it adds the empty turn after it.
      const replied = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
      assert.equal(replied.kind, 'done');
      assert.deepEqual(asked, []);
      assert.deepEqual(
        (payloadOf(kept.editor).messages as Message[]).map((m) => m.role),
        ['system', 'user', 'assistant', 'user'],
      );

      // Answers as text (no panel): Reply says it was cut and appends what arrived only when the person agrees.
      await setSetting('answers.openAs', 'text');
      const { editor, arrived } = await stopped();
      const before = editor.document.getText();
      assert.equal((payloadOf(editor).messages as Message[]).length, 2, 'nothing written without the panel');
      const declined = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
      assert.equal(declined.kind, 'unchanged');
      assert.match(asked[0], /cancelled before it was complete/);
      assert.equal(editor.document.getText(), before);
      answerAsk = 'Append What Arrived';
      const accepted = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
      assert.equal(accepted.kind, 'done');
      const messages = payloadOf(editor).messages as Message[];
      assert.equal(messages[2].content, arrived);
    } finally {
      await setSetting('answers.openAs', undefined);
      await setSetting('baseUrl', server.url);
      await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'back');
      await api.keys.delete(slow.url).catch(() => undefined);
      await slow.close();
    }
  });

  it('bad input: an answer of another endpoint, a payload whose messages is not a list, no answer yet', async () => {
    const none = await newPayload('/v1/chat', model);
    const noAnswer = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
    assert.equal(noAnswer.kind, 'unchanged');
    assert.match(ui.messages.at(-1) ?? '', /no answer yet/);

    await send();
    const text = none.document.getText().replace(/"messages": \[[^]*?\n {2}\]/, '"messages": "oops"');
    await none.edit((b) => b.replace(new vscode.Range(0, 0, none.document.lineCount, 0), text));
    const bad = none.document.getText();
    const notList = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
    assert.equal(notList.kind, 'unchanged');
    assert.match(ui.messages.at(-1) ?? '', /"messages" is not a list of turns/);
    assert.equal(none.document.getText(), bad);

    const embeddings = await newPayload('/v1/embeddings', model);
    await send();
    const other = (await vscode.commands.executeCommand(Commands.reply)) as ConversationOutcome;
    assert.equal(other.kind, 'unchanged');
    assert.match(ui.messages.at(-1) ?? '', /came from \/v1\/embeddings/);
    assert.ok(embeddings.document.getText().includes('"input"'));
  });

  it('Show Conversation opens the panel, which follows a streaming answer at most every 100 ms', async () => {
    const editor = await newPayload('/v1/chat', model, (p) => (p.stream = true));
    await send();
    await vscode.commands.executeCommand(Commands.reply);
    await type(editor, 'Stream the next one');
    const panel = (await vscode.commands.executeCommand(Commands.showConversation)) as vscode.WebviewPanel;
    assert.ok(panel, 'a panel opened');
    assert.match(panel.title, /^Conversation · chat-/);
    const shown = () => api.requests.panels.shown(editor.document.uri);
    const html = () => shown()?.pieces.join('\n') ?? '';
    await eventually(() => html().includes('Turn 3: Assistant'), 10_000, 'the turns in the panel');
    assert.ok(html().includes('Stream the next one'));

    const drawsBefore = shown()?.draws ?? 0;
    const started = Date.now();
    const pending = vscode.commands.executeCommand(Commands.sendRequest) as Thenable<SendOutcome>;
    await eventually(() => html().includes('aria-busy="true"'), 10_000, 'the answer arriving in the panel');
    const outcome = await pending;
    assert.ok(outcome.kind === 'sent');
    const elapsed = Date.now() - started;
    await sleep(PANEL_REDRAW_MS * 2);
    const draws = (shown()?.draws ?? 0) - drawsBefore;
    assert.ok(draws <= elapsed / PANEL_REDRAW_MS + 3, `${draws} redraws in ${elapsed} ms`);
    assert.ok((outcome.record.stream?.events ?? 0) > draws, 'fewer redraws than events');
    await eventually(() => !html().includes('aria-busy="true"'), 5000, 'the answer complete');
    panel.dispose();
  });

  it('the file is the truth: Send from the editor writes the answer the panel shows; the panel carries it on in one column, comes back after a reload and copies the request as sent', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await newPayload('/v1/chat', model);
    const uri = editor.document.uri;
    const roles = () => (payloadOf(editor).messages as Message[]).map((m) => m.role);
    // Send from the editor (as the palette, the CodeLens and the keybinding do): the answer opens in the panel
    // beside the payload and, once complete, is the payload's last turn, saved.
    await send();
    const firstSent = server.lastReceived('/v1/chat').json?.messages as Message[];
    const firstAnswer = generateText(model, questionText(firstSent));
    assert.deepEqual(roles(), ['system', 'user', 'assistant']);
    assert.equal((payloadOf(editor).messages as Message[])[2].content, firstAnswer);
    assert.equal(editor.document.isDirty, false, 'saved');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), editor.document.getText());
    const shown = () => api.requests.panels.shown(uri)?.pieces.join('\n') ?? '';
    // A turn of the file with its actions (not an answer waiting below the turns).
    await eventually(
      () => /Turn \d+: Assistant[\s\S]*Regenerate the answer/.test(shown()),
      10_000,
      'the answer as a turn',
    );
    assert.ok(!shown().includes('Keep What Arrived'));
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'model-access-response'));
    assert.equal(vscode.window.tabGroups.all.length, 2, 'the panel beside the payload');

    // The message box carries it on: the message, then its answer, each its own edit. The message is the
    // person's words: `{{French}}` in it is sent as typed, not read as a variable Send cannot resolve.
    const typed = 'And in {{French}}?';
    assert.ok(await api.requests.panels.sendMessage(uri, typed));
    const received = server.lastReceived('/v1/chat').json?.messages as Message[];
    assert.deepEqual(
      received.map((m) => [m.role, m.role === 'assistant' ? m.content : '']),
      [
        ['system', ''],
        ['user', ''],
        ['assistant', firstAnswer],
        ['user', ''],
      ],
    );
    assert.equal(received[3].content, typed);
    await eventually(() => shown().includes(typed), 10_000, 'the message shown as typed');
    assert.deepEqual(roles(), ['system', 'user', 'assistant', 'user', 'assistant']);
    assert.equal(editor.document.isDirty, false, 'saved');
    // Undo takes out the last answer only (its own step).
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await vscode.commands.executeCommand('undo');
    assert.deepEqual(roles(), ['system', 'user', 'assistant', 'user']);
    await vscode.commands.executeCommand('redo');
    assert.deepEqual(roles(), ['system', 'user', 'assistant', 'user', 'assistant']);

    // Raw exchange → Copy as Code: the request as it was sent, though the file changed since; nothing opens.
    const secondSent = JSON.stringify(server.lastReceived('/v1/chat').json);
    const edit = new vscode.WorkspaceEdit();
    const written = JSON.stringify(literalText(typed)).slice(1, -1);
    const at = editor.document.getText().indexOf(written);
    assert.ok(at >= 0, 'the message written literally');
    edit.replace(
      uri,
      new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + written.length)),
      'Changed later',
    );
    await vscode.workspace.applyEdit(edit);
    const panelGroup = vscode.window.tabGroups.all.find((g) => g.activeTab?.label.startsWith('Conversation ·'));
    assert.ok(panelGroup, 'the panel has a group');
    const pick = api.ui.pick;
    try {
      api.ui.pick = (async (items: readonly { target?: { id: string } }[]) =>
        items.find((i) => i.target?.id === 'curl-bash')) as typeof api.ui.pick;
      await api.requests.panels.press(uri, { type: 'copyAsCode', turn: 4 });
    } finally {
      api.ui.pick = pick;
    }
    const code = ui.copied.at(-1) ?? '';
    assert.match(code, /\/v1\/chat/);
    assert.ok(code.includes('French') && !code.includes('Changed later'), code);
    assert.ok(!code.includes(generateText(model, questionText(JSON.parse(secondSent).messages))), 'not its own answer');
    assert.ok(code.includes(server.url), 'the service it was sent to');
    assert.ok(!code.includes(server.keys.acme), 'never the key');
    assert.ok(panelGroup.activeTab?.label.startsWith('Conversation ·'), 'the conversation stays in front');
    assert.equal(vscode.window.tabGroups.all.length, 2);

    // Fork from the panel, and New Request with the panel in front: still two columns, payloads in theirs.
    await api.requests.panels.press(uri, { type: 'fork', turn: 2 });
    await eventually(
      () =>
        vscode.window.tabGroups.all.filter((g) => g.activeTab?.label.startsWith('Conversation ·')).length === 1 &&
        vscode.window.tabGroups.all.some(
          (g) => g.tabs.filter((t) => t.label.startsWith('Conversation ·')).length === 2,
        ),
      5000,
      'the fork’s panel beside its payload, in the panels’ group',
    );
    assert.equal(vscode.window.tabGroups.all.length, 2, 'Fork leaves two columns');
    const payloadGroup = editor.viewColumn;
    assert.equal(
      vscode.window.activeTextEditor?.viewColumn ?? payloadGroup,
      payloadGroup,
      'the fork opens with the payloads',
    );
    await vscode.commands.executeCommand('workbench.action.focusSecondEditorGroup');
    const next = await newPayload('/v1/chat', model);
    assert.equal(next.viewColumn, vscode.ViewColumn.One, 'New Request opens with the payloads, not over the panel');
    await send();
    assert.equal(vscode.window.tabGroups.all.length, 2, 'New Request and its answer leave two columns');

    // Reload Window: VS Code hands the panel back to its serializer with the state its page kept.
    const tab = panelGroup.tabs.find((t) => t.label === `Conversation · ${path.basename(uri.fsPath)}`);
    assert.ok(tab);
    await vscode.window.tabGroups.close(tab);
    await eventually(() => api.requests.panels.shown(uri) === undefined, 5000, 'the panel closed');
    const revived = vscode.window.createWebviewPanel('modelAccess.conversation', 'restored', vscode.ViewColumn.Two, {});
    await api.requests.panels.restore(revived, { payload: uri.toString() });
    assert.equal(revived.title, `Conversation · ${path.basename(uri.fsPath)}`);
    await eventually(
      () => /Turn \d+: Assistant[\s\S]*Turn \d+: User[\s\S]*Changed later[\s\S]*Turn \d+: Assistant/.test(shown()),
      10_000,
      'the turns back in the restored panel',
    );
    // A panel whose payload is gone does not come back empty: it closes.
    const orphan = vscode.window.createWebviewPanel('modelAccess.conversation', 'gone', vscode.ViewColumn.Two, {});
    let closed = false;
    orphan.onDidDispose(() => (closed = true));
    await api.requests.panels.restore(orphan, { payload: vscode.Uri.file(path.join(tmp, 'gone.jsonc')).toString() });
    assert.ok(closed, 'closed');
    revived.dispose();
  });

  it('Use Uploaded File in a New Request writes the file id into a Responses payload', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const file = path.join(tmp, 'notes.txt');
    writeFileSync(file, 'some notes');
    await vscode.commands.executeCommand(Commands.uploadFile, vscode.Uri.file(file), 'user_data');
    const uploaded = server.uploads.at(-1);
    assert.ok(uploaded);
    const outcome = (await vscode.commands.executeCommand(Commands.useFileInNewRequest)) as ConversationOutcome;
    assert.ok(outcome.kind === 'done' && outcome.editor);
    const editor = outcome.editor;
    assert.equal(editor.document.lineAt(0).text, '// POST /v1/responses');
    const input = payloadOf(editor).input as { content: { type: string; file_id?: string }[] }[];
    assert.deepEqual(input[0].content[1], { type: 'input_file', file_id: uploaded.id });
    await send();
    assert.deepEqual((server.lastReceived('/v1/responses').json?.input as typeof input)[0].content[1], {
      type: 'input_file',
      file_id: uploaded.id,
    });
  });
});

const INPUT_TEXT = 'Write your prompt here.';
