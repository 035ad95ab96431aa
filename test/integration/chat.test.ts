// The organization's models in VS Code's chat API (vendor `model-access`), inside a real VS Code (code-server)
// against the local Model Access Service: the models offered follow the organization's key, answers stream
// from POST /v1/chat fragment by fragment, cancelling aborts the HTTP request at the server, and a rejected
// key surfaces as a LanguageModelError with a message a person can act on; token limits and capabilities in
// registry entries are what VS Code reports, and a model that calls a tool gives a tool-call part.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { HOSTILE_IDS, loadRegistry, startServer, type RecordedRequest, type RunningServer } from '../server';
import { generateText, questionText } from '../server/generation';
import { tokenLimits } from '../../src/chat/core/modelInfo';
import { activateExtension, eventually, sleep, setSetting } from './helpers';

const VENDOR = 'model-access';
/** Delay between streamed events: a 20-word answer takes about a second, long enough to watch it arrive. */
const STREAM_DELAY_MS = 60;
/** Which registry models are not chat models: the provider leaves out embeddings, rerankers and speech. */
const NOT_CHAT = /(^|[^a-z])(embed|rerank|tts|asr)([^a-z]|$)/;

function chatModelsOf(server: RunningServer, org: string) {
  return server.registry.models.filter((m) => m.organization === org && !NOT_CHAT.test(m.id));
}

async function offered(): Promise<vscode.LanguageModelChat[]> {
  return vscode.lm.selectChatModels({ vendor: VENDOR });
}

const idsOf = (models: readonly { id: string }[]) => models.map((m) => m.id).sort();

/** Waits until the models offered have exactly these ids. */
async function waitForOffered(expected: string[], what: string): Promise<vscode.LanguageModelChat[]> {
  const want = [...expected].sort();
  return eventually(
    async () => {
      const models = await offered();
      return JSON.stringify(idsOf(models)) === JSON.stringify(want) ? models : undefined;
    },
    15_000,
    what,
  );
}

function lastChatRequest(server: RunningServer): RecordedRequest {
  const chats = server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/v1/chat'));
  const last = chats[chats.length - 1];
  assert.ok(last, 'the service received a POST /v1/chat');
  return last;
}

describe('Chat models (Language Model Chat Provider)', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;

  /** Points the extension at `server` with `key` stored for it, and waits for the catalog under that key. */
  async function connect(key: string): Promise<void> {
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, key);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.url === server.url && s.setup === 'ready'),
      5000,
      'the service and key',
    );
    await sleep(150);
    await api.catalog.refresh();
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    assert.ok(api, 'activate() returned the test API');
    server = await startServer({ streamDelayMs: STREAM_DELAY_MS });
    await setSetting('chat.models', undefined);
    await setSetting('chat.enabled', undefined);
    await connect(server.keys.acme);
  });

  after(async () => {
    if (server) {
      await api.keys.delete(server.url).catch(() => undefined);
      await server.close();
    }
    await setSetting('baseUrl', undefined);
    await setSetting('chat.models', undefined);
  });

  it("selectChatModels({vendor: 'model-access'}) returns exactly the organization's chat models, with family and version", async () => {
    const expected = chatModelsOf(server, 'acme');
    assert.ok(
      expected.length >= 10 && expected.length < server.registry.models.filter((m) => m.organization === 'acme').length,
    );
    const models = await waitForOffered(
      expected.map((m) => m.id),
      "acme's chat models",
    );
    for (const model of models) {
      const entry = expected.find((m) => m.id === model.id);
      assert.ok(entry, model.id);
      assert.equal(model.vendor, VENDOR);
      assert.equal(model.family, entry.family, `${model.id} family`);
      assert.equal(model.version, entry.version, `${model.id} version`);
      assert.equal(model.name, entry.id);
      // The registry's context window, less the answer's budget.
      assert.equal(model.maxInputTokens, tokenLimits(entry.extra).maxInputTokens, `${model.id} input limit`);
    }
    // Selecting by the registry's family and version works like any vendor's.
    const aurora2 = await vscode.lm.selectChatModels({ vendor: VENDOR, family: 'aurora', version: '2' });
    assert.deepEqual(idsOf(aurora2), ['aurora-2', 'aurora-2-mini']);
  });

  it('modelAccess.chat.models narrows the models offered, and modelAccess.chat.enabled turns them off', async () => {
    try {
      await setSetting('chat.models', ['basalt', 'acme/sable-7b*']);
      await waitForOffered(
        [
          'basalt-code-1',
          'basalt-code-2',
          'basalt-code-2.1',
          'basalt-code-12',
          'acme/sable-7b:q4_k_m',
          'acme/sable-7b:fp16',
        ],
        'the narrowed list',
      );
      await setSetting('chat.enabled', false);
      await waitForOffered([], 'no models when chat is off');
    } finally {
      await setSetting('chat.models', undefined);
      await setSetting('chat.enabled', undefined);
    }
    await waitForOffered(
      chatModelsOf(server, 'acme').map((m) => m.id),
      'all chat models again',
    );
  });

  it("sendRequest streams the service's answer in several fragments, in order, before the end", async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'aurora-2' });
    assert.ok(model, 'aurora-2 is offered');
    const prompt = 'Which models does my organization have?';
    const expected = generateText('aurora-2', prompt);
    const started = Date.now();
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    const fragments: string[] = [];
    const arrivals: number[] = [];
    let midway: { text: string; finished: boolean } | undefined;
    for await (const fragment of response.text) {
      fragments.push(fragment);
      arrivals.push(Date.now() - started);
      if (fragments.length === 3) {
        // An intermediate state: part of the answer is here while the service is still sending the rest.
        const request = lastChatRequest(server);
        midway = { text: fragments.join(''), finished: request.finishedAt !== undefined };
      }
    }
    assert.ok(midway, 'at least three fragments');
    assert.equal(midway.finished, false, 'the first fragments arrived while the service was still streaming');
    assert.ok(
      expected.startsWith(midway.text) && midway.text.length < expected.length,
      'the partial text is a prefix of the answer',
    );
    assert.ok(fragments.length >= 5, `${fragments.length} fragments`);
    assert.equal(fragments.join(''), expected, "the fragments add up to the service's text, in order");
    const spread = arrivals[arrivals.length - 1] - arrivals[0];
    assert.ok(spread >= STREAM_DELAY_MS * 3, `fragments arrived over ${spread} ms, not all at once`);
    const request = lastChatRequest(server);
    assert.equal(request.status, 200);
    assert.equal(request.aborted, false);
    assert.equal(request.organization, 'acme');
  });

  it('the request carries the conversation as /v1/chat messages, and countTokens gives an estimate', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'basalt-code-2' });
    assert.ok(model);
    const messages = [
      vscode.LanguageModelChatMessage.User('First question'),
      vscode.LanguageModelChatMessage.Assistant('First answer'),
      vscode.LanguageModelChatMessage.User('Second question'),
    ];
    const response = await model.sendRequest(messages, {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const fragment of response.text) {
      text += fragment;
    }
    // The local service answers the last user message (earlier turns are context).
    assert.equal(text, generateText('basalt-code-2', 'Second question'));
    // What went over the wire: each VS Code message with its role, in order (roles written out, not taken from src).
    assert.deepEqual(lastChatRequest(server).json?.messages, [
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second question' },
    ]);
    assert.equal(lastChatRequest(server).json?.stream, true);
    assert.equal(await model.countTokens('abcdefgh'), 2, 'about four characters per token');
    assert.ok((await model.countTokens(messages[0])) >= 4);
  });

  it('cancelling mid-stream aborts the request at the service', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'kestrel-reasoner-1' });
    assert.ok(model);
    const prompt = 'Tell me a long story about model registries.';
    const expected = generateText('kestrel-reasoner-1', prompt);
    const source = new vscode.CancellationTokenSource();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, source.token);
    const fragments: string[] = [];
    let ended: 'end' | 'error' = 'end';
    try {
      for await (const fragment of response.text) {
        fragments.push(fragment);
        if (fragments.length === 2) {
          source.cancel();
        }
      }
    } catch (e) {
      // VS Code may end a cancelled stream with a CancellationError; either way it must stop.
      ended = 'error';
      assert.ok(e instanceof vscode.CancellationError || /cancel/i.test(String(e)), `unexpected error: ${String(e)}`);
    }
    const request = lastChatRequest(server);
    const finished = await server.waitForRequest(
      (r) => r.requestId === request.requestId && r.finishedAt !== undefined,
      10_000,
    );
    assert.equal(finished.aborted, true, 'the service saw the client go away');
    assert.notEqual(finished.stream, 'completed');
    assert.ok(
      fragments.join('').length < expected.length,
      `only part of the answer arrived (${fragments.length} fragments, stream ${ended})`,
    );
  });

  it("switching to another organization's key changes the models offered", async () => {
    await connect(server.keys.globex);
    const globex = chatModelsOf(server, 'globex');
    const models = await waitForOffered(
      globex.map((m) => m.id),
      "globex's chat models",
    );
    assert.ok(models.some((m) => m.family === 'meridian'));
    assert.ok(!models.some((m) => m.id.startsWith('aurora')), 'no acme model is left');
    await connect(server.keys.acme);
    await waitForOffered(
      chatModelsOf(server, 'acme').map((m) => m.id),
      "acme's chat models again",
    );
  });

  it('a rejected key (401) surfaces as a permission error with a clear message and without the key', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'aurora-1' });
    assert.ok(model);
    // Same origin and key, but the service no longer accepts it (revoked): the list is still the last good one.
    const port = server.port;
    const storedKey = server.keys.acme;
    await server.close();
    server = await startServer({ port, streamDelayMs: STREAM_DELAY_MS, keys: { acme: 'ma-rotated-key-0001' } });
    let error: unknown;
    const fragments: string[] = [];
    try {
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User('Hello?')],
        {},
        new vscode.CancellationTokenSource().token,
      );
      for await (const fragment of response.text) {
        fragments.push(fragment);
      }
    } catch (e) {
      error = e;
    }
    assert.deepEqual(fragments, [], 'no text arrives');
    assert.ok(error instanceof Error, `an error (${String(error)})`);
    const message = error.message;
    assert.equal(lastChatRequest(server).status, 401, 'the service answered 401');
    assert.ok(
      error instanceof vscode.LanguageModelError,
      `a LanguageModelError, not ${error.constructor.name}: ${message}`,
    );
    assert.equal(error.code, vscode.LanguageModelError.NoPermissions.name);
    assert.match(message, /401/);
    assert.match(message, /Model Access: Set API Key/);
    assert.ok(!message.includes(storedKey), 'the key is not in the message');
    // Back to a working service for whatever runs next.
    await server.close();
    server = await startServer({ port, streamDelayMs: STREAM_DELAY_MS });
  });
});

describe('Chat models: errors a person can act on', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;

  /** Sends one message to `id`; returns the error it ended with and any text that arrived. */
  async function ask(id: string): Promise<{ error: unknown; fragments: string[] }> {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
    assert.ok(model, `${id} is offered`);
    const fragments: string[] = [];
    try {
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User('Hello?')],
        {},
        new vscode.CancellationTokenSource().token,
      );
      for await (const fragment of response.text) {
        fragments.push(fragment);
      }
    } catch (e) {
      return { error: e, fragments };
    }
    return { error: undefined, fragments };
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    // The hostile organization lists `inspect-404`, which the service then answers 404; the first chat request
    // of all is refused with 429.
    server = await startServer({
      hostile: { errors: true },
      faults: { rateLimit: { first: 1, retryAfterSeconds: 0 }, paths: ['/v1/chat'] },
    });
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.hostile);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.url === server.url && s.setup === 'ready'),
      5000,
      'the service and key',
    );
    await sleep(150);
    await api.catalog.refresh();
    await waitForOffered(
      api.catalog.models.filter((m) => !NOT_CHAT.test(m.id)).map((m) => m.id),
      'the hostile organization’s chat models',
    );
  });

  after(async () => {
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
  });

  it('a refused request (429) is Blocked, with the service’s reason', async () => {
    const { error, fragments } = await ask(HOSTILE_IDS.normal[0]);
    assert.deepEqual(fragments, []);
    assert.equal(lastChatRequest(server).status, 429);
    assert.ok(error instanceof vscode.LanguageModelError, `a LanguageModelError, not ${String(error)}`);
    assert.equal(error.code, vscode.LanguageModelError.Blocked.name);
    assert.match(error.message, /429/);
  });

  it('a model the service no longer knows (404) is NotFound, and says to refresh the models', async () => {
    const { error, fragments } = await ask(HOSTILE_IDS.inspect404);
    assert.deepEqual(fragments, []);
    assert.equal(lastChatRequest(server).status, 404);
    assert.ok(error instanceof vscode.LanguageModelError, `a LanguageModelError, not ${String(error)}`);
    assert.equal(error.code, vscode.LanguageModelError.NotFound.name);
    assert.match(error.message, /Refresh the models \("Model Access: Refresh Models"\)/);
    assert.ok(!error.message.includes(server.keys.hostile), 'the key the error body repeats is not in the message');
  });
});

describe('Chat models: token limits, capabilities and tool calls from the registry', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;

  /** Registry fields as services publish them (OpenRouter-style context length, nested limits, capabilities). */
  const EXTRA: Record<string, Record<string, unknown>> = {
    'aurora-2': {
      context_length: 131_072,
      max_output_tokens: 8192,
      capabilities: { tool_calling: true, vision: true },
    },
    'basalt-code-1': { limits: { context_window: 8000 } },
  };

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    const registry = loadRegistry();
    // Only these entries say anything of limits or capabilities (the demo's own fields are left out).
    registry.models = registry.models.map((m) => ({ ...m, extra: EXTRA[m.id] }));
    server = await startServer({ registry });
    await setSetting('chat.models', undefined);
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.url === server.url && s.setup === 'ready'),
      5000,
      'the service and key',
    );
    await sleep(150);
    await api.catalog.refresh();
    await waitForOffered(
      chatModelsOf(server, 'acme').map((m) => m.id),
      "acme's chat models",
    );
  });

  after(async () => {
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
  });

  /** What VS Code tells a chat consumer a model can do (present at runtime, not in the typed API we build against). */
  function capabilitiesOf(model: vscode.LanguageModelChat): { tools: unknown; images: unknown } {
    const caps = (model as { capabilities?: { supportsToolCalling?: unknown; supportsImageToText?: unknown } })
      .capabilities;
    return { tools: caps?.supportsToolCalling, images: caps?.supportsImageToText };
  }

  it('limits and capabilities in a registry entry are what VS Code reports for the chat model', async () => {
    const [aurora] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'aurora-2' });
    const [basalt] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'basalt-code-1' });
    const [plain] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'aurora-1' });
    assert.ok(aurora && basalt && plain, 'the three models are offered');
    // A context of 131,072 tokens with 8,192 kept for the answer leaves 122,880 for the prompt.
    assert.equal(aurora.maxInputTokens, 131_072 - 8192);
    assert.deepEqual(capabilitiesOf(aurora), { tools: true, images: true });
    // A context window alone: a quarter of it (2,000) is kept for the answer, the rest is the prompt's.
    assert.equal(basalt.maxInputTokens, 8000 - 2000);
    assert.deepEqual(capabilitiesOf(basalt), { tools: false, images: false });
    // Nothing in the entry: the defaults.
    assert.equal(plain.maxInputTokens, 16_384);
  });

  it('a model that calls a tool gives a LanguageModelToolCallPart; the tool result goes back to the service', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'aurora-2' });
    assert.ok(model);
    const tool: vscode.LanguageModelChatTool = {
      name: 'lookup_weather',
      description: 'The weather in a city.',
      inputSchema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    };
    const prompt = 'What is the weather in Oslo?';
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      { tools: [tool] },
      new vscode.CancellationTokenSource().token,
    );
    const parts: unknown[] = [];
    for await (const part of response.stream) {
      parts.push(part);
    }
    // What the service received: the tool, as Chat Completions describes one.
    const sent = server.lastReceived('/v1/chat', 'POST')?.json;
    assert.deepEqual(sent?.tools, [
      { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } },
    ]);
    const calls = parts.filter(
      (p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart,
    );
    assert.equal(calls.length, 1, `one tool call among ${JSON.stringify(parts)}`);
    assert.equal(calls[0].name, 'lookup_weather');
    assert.deepEqual(calls[0].input, { input: prompt }, 'the arguments streamed in fragments, joined');
    assert.match(calls[0].callId, /^call_[0-9a-f]{24}$/);
    assert.ok(!parts.some((p) => p instanceof vscode.LanguageModelTextPart), 'no text beside the call');

    // The consumer ran the tool and sends its result back: the service receives the call and the result.
    const followUp = await model.sendRequest(
      [
        vscode.LanguageModelChatMessage.User(prompt),
        vscode.LanguageModelChatMessage.Assistant([calls[0]]),
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelToolResultPart(calls[0].callId, [new vscode.LanguageModelTextPart('Sunny, 21 °C')]),
        ]),
      ],
      { tools: [tool] },
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const fragment of followUp.text) {
      text += fragment;
    }
    const messages = server.lastReceived('/v1/chat', 'POST')?.json?.messages as Record<string, unknown>[];
    assert.deepEqual(messages.slice(1), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: calls[0].callId,
            type: 'function',
            function: { name: 'lookup_weather', arguments: JSON.stringify({ input: prompt }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: calls[0].callId, content: 'Sunny, 21 °C' },
    ]);
    assert.equal(text, generateText('aurora-2', questionText(messages)), 'the answer after the tool result is text');
  });
});

describe('Chat models: cancelling before the answer starts', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  /** How long the service takes before answering a chat request: far longer than the test waits for the abort. */
  const LATENCY_MS = 8000;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ faults: { latencyMs: LATENCY_MS, paths: ['/v1/chat'] } });
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.url === server.url && s.setup === 'ready'),
      5000,
      'the service and key',
    );
    await sleep(150);
    await api.catalog.refresh();
    await waitForOffered(
      chatModelsOf(server, 'acme').map((m) => m.id),
      "acme's chat models",
    );
  });

  after(async () => {
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
  });

  it('cancelling while the service has not answered yet aborts the request at once', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'aurora-2' });
    assert.ok(model);
    const source = new vscode.CancellationTokenSource();
    const pending = Promise.resolve(
      model.sendRequest([vscode.LanguageModelChatMessage.User('Take your time.')], {}, source.token),
    ).then(
      async (response) => {
        for await (const fragment of response.text) {
          void fragment;
        }
      },
      () => undefined,
    );
    // The service has the request and is still thinking about it.
    await eventually(() => server.requests.some((r) => r.path === '/v1/chat'), 10_000, 'the request at the service');
    const cancelledAt = Date.now();
    source.cancel();
    await server.waitForAborts(1, LATENCY_MS / 2);
    assert.ok(Date.now() - cancelledAt < LATENCY_MS / 2, 'the service saw the client go away before it answered');
    const [request] = server.requests.filter((r) => r.path === '/v1/chat');
    assert.equal(request.aborted, true);
    assert.equal(request.stream, undefined, 'no answer was streamed');
    await pending.catch(() => undefined);
  });
});
