/**
 * Reading a whole answer body, whatever its shape (see types.ts for the shapes). Pure; no `vscode` import.
 * The order of the checks matters: a Responses body also has `error: null`, a chat body may carry `usage`.
 */
import { argumentsText, contentText, filled, idLike, isRecord, str } from './fields';
import { blockedStop, isBlockedReason, readError } from './error';
import { usageOf } from './usage';
import { readVectors } from './vectors';
import type { Answer, AnswerShape, ToolCall } from './types';

type Obj = Record<string, unknown>;

function base(shape: AnswerShape, body: Obj | undefined): Answer {
  const answer: Answer = { shape, text: undefined, role: 'assistant', toolCalls: [] };
  if (body) {
    const id = idLike(body.id);
    const model = filled(body.model) ?? filled(body.modelVersion);
    const usage = usageOf(body);
    if (id !== undefined) {
      answer.id = id;
    }
    if (model !== undefined) {
      answer.model = model;
    }
    if (usage) {
      answer.usage = usage;
    }
  }
  return answer;
}

/** Chat Completions `tool_calls` (`{id, function: {name, arguments}}`) as ToolCalls. */
export function chatToolCalls(calls: unknown): ToolCall[] {
  if (!Array.isArray(calls)) {
    return [];
  }
  const out: ToolCall[] = [];
  calls.forEach((call, position) => {
    if (!isRecord(call)) {
      return;
    }
    const fn = isRecord(call.function) ? call.function : {};
    out.push({
      id: filled(call.id) ?? `call_${position}`,
      name: str(fn.name) ?? '',
      arguments: argumentsText(fn.arguments),
    });
  });
  return out;
}

/** The first choice (index 0, or the first listed): the assistant turn a conversation continues. */
function firstChoice(choices: unknown[]): Obj | undefined {
  const records = choices.filter(isRecord);
  return records.find((c) => c.index === 0) ?? records[0];
}

function readChat(body: Obj, choices: unknown[]): Answer {
  const answer = base('chat', body);
  const choice = firstChoice(choices);
  if (!choice) {
    return answer;
  }
  const message = isRecord(choice.message) ? choice.message : isRecord(choice.delta) ? choice.delta : undefined;
  if (message) {
    answer.role = filled(message.role) ?? 'assistant';
    const content = contentText(message.content);
    const refusal = filled(message.refusal);
    answer.text = content !== undefined || refusal !== undefined ? (content ?? '') + (refusal ?? '') : undefined;
    answer.toolCalls = chatToolCalls(message.tool_calls);
  } else if (typeof choice.text === 'string') {
    // Legacy completions: `choices[].text`.
    answer.text = choice.text;
  }
  const reason = filled(choice.finish_reason);
  if (reason !== undefined) {
    answer.finishReason = reason;
    if (isBlockedReason(reason)) {
      answer.error = blockedStop(reason);
    }
  }
  return answer;
}

/** Responses `output[]`: message items' text parts, function_call items as tool calls. */
function readResponses(body: Obj): Answer {
  const answer = base('responses', body);
  const status = filled(body.status);
  if (status !== undefined) {
    answer.finishReason = status;
  }
  let text: string | undefined;
  if (Array.isArray(body.output)) {
    for (const item of body.output) {
      if (!isRecord(item)) {
        continue;
      }
      if (item.type === 'function_call') {
        answer.toolCalls.push({
          id: filled(item.call_id) ?? filled(item.id) ?? `call_${answer.toolCalls.length}`,
          name: str(item.name) ?? '',
          arguments: argumentsText(item.arguments),
        });
        continue;
      }
      if (item.type !== undefined && item.type !== 'message') {
        continue; // reasoning, web search calls…: no text of the answer's own
      }
      const piece = contentText(item.content);
      if (piece !== undefined) {
        text = (text ?? '') + piece;
      }
    }
  }
  // `output_text` is an SDK helper some services also send; it is the whole text when present.
  answer.text = str(body.output_text) ?? text;
  if (body.error !== undefined && body.error !== null) {
    answer.error = readError(body.error);
  } else if (status === 'failed') {
    answer.error = readError(undefined);
  }
  return answer;
}

/** Anthropic messages (`content[]` blocks with `text` and `tool_use`). */
function readContentBlocks(body: Obj, blocks: unknown[]): Answer {
  const answer = base('message', body);
  answer.role = filled(body.role) ?? 'assistant';
  answer.text = contentText(blocks);
  for (const block of blocks) {
    if (isRecord(block) && block.type === 'tool_use') {
      answer.toolCalls.push({
        id: filled(block.id) ?? `call_${answer.toolCalls.length}`,
        name: str(block.name) ?? '',
        arguments: argumentsText(block.input),
      });
    }
  }
  const reason = filled(body.stop_reason);
  if (reason !== undefined) {
    answer.finishReason = reason;
  }
  return answer;
}

/** Gemini `candidates[0].content.parts[]`. */
function readCandidates(body: Obj, candidates: unknown[]): Answer {
  const answer = base('message', body);
  const first = candidates.find(isRecord);
  const content = isRecord(first?.content) ? first.content : undefined;
  if (content) {
    answer.role = filled(content.role) === 'model' ? 'assistant' : (filled(content.role) ?? 'assistant');
    answer.text = contentText(content.parts);
  }
  const reason = filled(first?.finishReason);
  if (reason !== undefined) {
    answer.finishReason = reason;
    if (isBlockedReason(reason)) {
      answer.error = blockedStop(reason);
    }
  }
  return answer;
}

/** A top-level message: `message` (string or `{role, content}` — Ollama), or an `output`/`text`/`response`/`content` string. */
function readTopLevel(body: Obj): Answer | undefined {
  if (isRecord(body.message)) {
    const answer = base('message', body);
    answer.role = filled(body.message.role) ?? 'assistant';
    answer.text = contentText(body.message.content);
    answer.toolCalls = chatToolCalls(body.message.tool_calls);
    return answer;
  }
  for (const key of ['message', 'output', 'text', 'response', 'content', 'answer', 'completion']) {
    if (typeof body[key] === 'string') {
      const answer = base('message', body);
      answer.text = body[key] as string;
      return answer;
    }
  }
  return undefined;
}

/**
 * An answer as a whole: a parsed JSON body, a `response.*` event wrapping a Responses body, or a string (a
 * plain-text body). Never throws.
 */
export function readAnswer(body: unknown): Answer {
  if (typeof body === 'string') {
    return { ...base('text', undefined), text: body };
  }
  if (!isRecord(body)) {
    return base('unknown', undefined);
  }
  if (isRecord(body.response) && typeof body.type === 'string' && body.type.startsWith('response.')) {
    return readResponses(body.response);
  }
  if (Array.isArray(body.choices)) {
    return readChat(body, body.choices);
  }
  if (body.object === 'response' || Array.isArray(body.output) || typeof body.output_text === 'string') {
    return readResponses(body);
  }
  const vectors = readVectors(body);
  if (vectors) {
    return { ...base('embeddings', body), vectors };
  }
  if (Array.isArray(body.content) && body.content.some(isRecord)) {
    return readContentBlocks(body, body.content);
  }
  if (Array.isArray(body.candidates)) {
    return readCandidates(body, body.candidates);
  }
  const top = readTopLevel(body);
  if (top) {
    return top;
  }
  const answer = base('unknown', body);
  if (body.error !== undefined && body.error !== null) {
    answer.error = readError(body.error);
  }
  return answer;
}
