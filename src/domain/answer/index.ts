/**
 * The one answer reader: every shape of answer the client reads (Chat Completions, Responses, embeddings,
 * top-level messages, plain text, error bodies and events), whole or streamed. No other module inspects an
 * answer's `choices`, `output`, `output_text` or `delta` (test/unit/project/answerShapes.test.ts checks it).
 */
export type { Answer, AnswerError, AnswerPiece, AnswerShape, TokenUsage, ToolCall } from './types';
export { readAnswer } from './body';
export { AnswerStream, type AnswerEvent } from './stream';
export { laterUsage, readUsage, totalTokens, usageOf } from './usage';
export { decodeBase64Vector } from './vectors';
export { describeShapes } from './shapes';
export { toolResultText } from './toolResult';
