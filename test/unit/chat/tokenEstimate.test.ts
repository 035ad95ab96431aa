import * as assert from 'node:assert/strict';
import type { RequestMessageLike } from '../../../src/chat/core/chatRequest';
import { estimateTextTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '../../../src/chat/core/tokenEstimate';
const textPart = (value: string) => ({ value });
const callPart = (callId: string, name: string, input: object) => ({ callId, name, input });
const resultPart = (callId: string, content: unknown[]) => ({ callId, content });
const dataPart = (mimeType: string, data: Uint8Array) => ({ mimeType, data });
/**
 * vscode.LanguageModelChatMessageRole's values (System from the proposed API, as Copilot sends it), written out
 * here: expectations taken from messages.ts's own table would agree with a swap made there.
 */
const Role = { User: 1, Assistant: 2, System: 3 } as const;
const msg = (role: number, content: unknown[], name?: string): RequestMessageLike => ({ role, content, name });

describe('chat: token estimate', () => {
  it('is about four characters per token, rounded up, counting code points', () => {
    assert.equal(estimateTextTokens(''), 0);
    assert.equal(estimateTextTokens('abcd'), 1);
    assert.equal(estimateTextTokens('abcde'), 2);
    assert.equal(estimateTextTokens('😀😀😀😀'), 1);
    assert.equal(estimateTokens('x'.repeat(400)), 100);
  });

  it('counts a message: text, tool calls and results, plus a fixed overhead', () => {
    assert.equal(estimateTokens(msg(Role.User, [textPart('abcdefgh')])), MESSAGE_OVERHEAD_TOKENS + 2);
    const withTools = msg(Role.Assistant, [callPart('c', 'f', { a: 1 }), resultPart('c', [textPart('1234')])]);
    assert.equal(estimateTokens(withTools), MESSAGE_OVERHEAD_TOKENS + 1 + 2 + 1);
    assert.ok(
      estimateTokens(msg(Role.User, [dataPart('image/png', new Uint8Array(10))])) > 100,
      'an image is not priced by its bytes',
    );
  });

  it('counts the name of a message, and data that is not an image by its bytes', () => {
    assert.equal(estimateTokens(msg(Role.User, [textPart('abcd')], 'ana-maria')), MESSAGE_OVERHEAD_TOKENS + 1 + 3);
    assert.equal(
      estimateTokens(msg(Role.User, [dataPart('x-image/png', new Uint8Array(10))])),
      MESSAGE_OVERHEAD_TOKENS + 3,
    );
    assert.equal(
      estimateTokens(msg(Role.User, [dataPart('IMAGE/PNG', new Uint8Array(10))])),
      MESSAGE_OVERHEAD_TOKENS + 765,
    );
  });
});
