/**
 * `POST /v1/responses` and `POST /v1/chat`: request validation and the answer bodies and event sequences,
 * following the OpenAI Responses and Chat Completions shapes (docs/service-shapes.md).
 */
import { createHash, randomBytes } from 'node:crypto';
import { badRequest } from './http';
import { deltas, generateText, promptText, questionText, tokens } from './generation';
import type { SseEvent } from './streaming';

export interface Answer {
  /** The complete JSON answer when not streaming. */
  json: unknown;
  /** The event sequence when streaming. */
  events: SseEvent[];
}

const newId = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;
const now = (): number => Math.floor(Date.now() / 1000);

export function wantsStream(body: Record<string, unknown>): boolean {
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    throw badRequest('"stream" must be a boolean.', 'invalid_type', 'stream');
  }
  return body.stream === true;
}

/** `pieces` (hostile mode) replaces the generated text: the answer is their concatenation, streamed one piece per delta. */
export function responsesAnswer(model: string, body: Record<string, unknown>, pieces?: readonly string[]): Answer {
  const { input, instructions } = body;
  if (input === undefined || input === null || (typeof input !== 'string' && !Array.isArray(input))) {
    throw badRequest(
      'Missing required parameter: "input" (a string or an array of input items).',
      'missing_required_parameter',
      'input',
    );
  }
  const prompt = promptText(input);
  const text = pieces === undefined ? generateText(model, questionText(input)) : pieces.join('');
  const created = now();
  const responseId = newId('resp_');
  const itemId = newId('msg_');
  const base = {
    id: responseId,
    object: 'response',
    created_at: created,
    error: null,
    incomplete_details: null,
    instructions: typeof instructions === 'string' ? instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    model,
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    metadata: {},
  };
  const part = { type: 'output_text', text, annotations: [] };
  const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
  const usage = {
    input_tokens: tokens(prompt),
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: tokens(text),
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens(prompt) + tokens(text),
  };
  const completed = { ...base, status: 'completed', completed_at: created, output: [item], usage };
  const inProgress = { ...base, status: 'in_progress', output: [], usage: null };

  let sequence = 0;
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    events.push({ event: type, data: JSON.stringify({ type, ...fields, sequence_number: sequence++ }) });
  };
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  emit('response.created', { response: inProgress });
  emit('response.in_progress', { response: inProgress });
  emit('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
  emit('response.content_part.added', { ...at, part: { ...part, text: '' } });
  for (const delta of pieces ?? deltas(text)) {
    emit('response.output_text.delta', { ...at, delta, logprobs: [] });
  }
  emit('response.output_text.done', { ...at, text, logprobs: [] });
  emit('response.content_part.done', { ...at, part });
  emit('response.output_item.done', { output_index: 0, item });
  emit('response.completed', { response: completed });
  return { json: completed, events };
}

export function chatAnswer(model: string, body: Record<string, unknown>, pieces?: readonly string[]): Answer {
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw badRequest(
      'Missing required parameter: "messages" (a non-empty array of {role, content}).',
      'missing_required_parameter',
      'messages',
    );
  }
  messages.forEach((m: unknown, i) => {
    const msg = m as { role?: unknown; content?: unknown };
    if (typeof m !== 'object' || m === null || typeof msg.role !== 'string') {
      throw badRequest(`"messages[${i}].role" must be a string.`, 'invalid_type', `messages[${i}].role`);
    }
  });
  const prompt = promptText(messages);
  const id = newId('chatcmpl-');
  const call = pieces === undefined ? toolCallFor(body) : undefined;
  if (call) {
    return toolCallAnswer(id, model, prompt, call);
  }
  const text = pieces === undefined ? generateText(model, questionText(messages)) : pieces.join('');
  const created = now();
  const usage = {
    prompt_tokens: tokens(prompt),
    completion_tokens: tokens(text),
    total_tokens: tokens(prompt) + tokens(text),
  };
  const json = {
    id,
    object: 'chat.completion',
    created,
    model,
    system_fingerprint: null,
    choices: [
      { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    usage,
  };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: null,
      choices,
      ...extra,
    }),
  });
  const events: SseEvent[] = [
    chunk([
      { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
    ]),
  ];
  for (const delta of pieces ?? deltas(text)) {
    events.push(chunk([{ index: 0, delta: { content: delta }, logprobs: null, finish_reason: null }]));
  }
  events.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]));
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  if (options?.include_usage === true) {
    events.push(chunk([], { usage }));
  }
  events.push({ data: '[DONE]' });
  return { json, events };
}

/** The tool call a request asks for, if any (see {@link toolCallFor}). */
export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the JSON text the answer carries. */
  arguments: string;
}

/**
 * Tool calling, as Chat Completions does it: a request carrying `tools` whose last message is not a tool
 * result gets a call of the tool `tool_choice` names (else the first), with the arguments
 * `{"input": <the last user message's text>}`. A request whose last message is a tool result (`role: "tool"`)
 * is answered with text, as without tools. The call id is derived from the tool and the arguments, so a test
 * can predict it.
 */
export function toolCallFor(body: Record<string, unknown>): ToolCall | undefined {
  const { tools, messages } = body;
  if (!Array.isArray(tools) || tools.length === 0 || !Array.isArray(messages)) {
    return undefined;
  }
  const last = messages[messages.length - 1] as { role?: unknown } | undefined;
  if (last?.role === 'tool') {
    return undefined;
  }
  const names = tools.map((t: unknown, i) => {
    const name = (t as { function?: { name?: unknown } } | null)?.function?.name;
    if (typeof name !== 'string' || name === '') {
      throw badRequest(`"tools[${i}].function.name" must be a non-empty string.`, 'invalid_type', `tools[${i}]`);
    }
    return name;
  });
  const chosen = (body.tool_choice as { function?: { name?: unknown } } | null | undefined)?.function?.name;
  const name = typeof chosen === 'string' && names.includes(chosen) ? chosen : names[0];
  const user = [...messages].reverse().find((m) => (m as { role?: unknown }).role === 'user');
  const args = JSON.stringify({ input: promptText(user ?? '') });
  const digest = createHash('sha256').update(`${name}\n${args}`).digest('hex');
  return { id: `call_${digest.slice(0, 24)}`, name, arguments: args };
}

/** A chat answer that calls a tool: the whole call in `message.tool_calls`, or streamed in argument fragments. */
function toolCallAnswer(id: string, model: string, prompt: string, call: ToolCall): Answer {
  const created = now();
  const usage = {
    prompt_tokens: tokens(prompt),
    completion_tokens: tokens(call.arguments),
    total_tokens: tokens(prompt) + tokens(call.arguments),
  };
  const whole = { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
  const json = {
    id,
    object: 'chat.completion',
    created,
    model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null, tool_calls: [whole] },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
    data: JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    }),
  });
  // The first delta names the call; the arguments follow in three fragments, so a client must join them.
  const third = Math.ceil(call.arguments.length / 3);
  const fragments = [0, 1, 2].map((i) => call.arguments.slice(i * third, (i + 1) * third));
  const events: SseEvent[] = [
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    }),
    ...fragments.map((f) => chunk({ tool_calls: [{ index: 0, function: { arguments: f } }] })),
    chunk({}, 'tool_calls'),
    { data: '[DONE]' },
  ];
  return { json, events };
}
