/**
 * What an answer of the service says, whatever its shape: the one description every feature reads (the
 * response document, Compare, the chat provider, conversations, checks). Pure; no `vscode` import.
 */

/** Which family of shapes the answer came in. */
export type AnswerShape =
  /** OpenAI Chat Completions: `choices[].message` / streamed `choices[].delta`. */
  | 'chat'
  /** OpenAI Responses: `output[]`, `output_text`, streamed `response.*` events. */
  | 'responses'
  /** `data[].embedding` vectors. */
  | 'embeddings'
  /** A top-level message: `message` (string or `{role, content}`), `output`/`text`/`response` strings, Anthropic `content[]`, Gemini `candidates[]`. */
  | 'message'
  /** A plain-text body. */
  | 'text'
  /** JSON in none of the shapes above (the text is then undefined). */
  | 'unknown';

/** A tool call as the answer gave it: `arguments` is the JSON text the model wrote, unparsed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Token counts as the answer reported them; a count it did not report (or reported as nonsense) is absent. */
export interface TokenUsage {
  /** Every input token, cached ones included. */
  input?: number;
  output?: number;
  total?: number;
  /** The part of `input` read from the prompt cache (priced apart by some services). */
  cachedInput?: number;
}

/** An error the answer reports (an error body, an error event, a failed response, a content-filter stop). */
export interface AnswerError {
  message: string;
  code?: string;
  /** A content filter or safety system stopped the answer. */
  blocked: boolean;
}

export interface Answer {
  shape: AnswerShape;
  /** The answer's text; undefined when no text can be found. */
  text: string | undefined;
  /** The role of the turn the answer holds: 'assistant' unless the answer says otherwise. */
  role: string;
  toolCalls: ToolCall[];
  usage?: TokenUsage;
  /** The completion's or response's id (a Responses id is what `previous_response_id` takes). */
  id?: string;
  model?: string;
  /** Chat `finish_reason`, or a response's `status` (`completed`, `incomplete`, `failed`…). */
  finishReason?: string;
  error?: AnswerError;
  /** Embeddings in index order (base64 float32 vectors decoded). */
  vectors?: number[][];
}

/** What a stream event adds: text at once, a tool call once its arguments are whole. */
export type AnswerPiece = { kind: 'text'; text: string } | { kind: 'toolCall'; call: ToolCall };
