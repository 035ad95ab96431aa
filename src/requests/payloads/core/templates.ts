/**
 * Starter payloads for new scratch requests. They follow the OpenAI shapes the service most resembles
 * (docs/service-shapes.md); the service publishes none, so a setting can replace each one. Pure; no `vscode` import.
 */
import type { PostEndpoint } from '../../../api/types';
import { isRecord } from '../../../common/records';
import { literalText } from '../../../domain/payload/variables';

/** The text the cursor is placed on in a new payload. */
export const INPUT_PLACEHOLDER = 'Write your prompt here.';

const DEFAULTS: Record<PostEndpoint, Record<string, unknown>> = {
  '/v1/responses': {
    model: '',
    input: INPUT_PLACEHOLDER,
    stream: false,
  },
  '/v1/chat': {
    model: '',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: INPUT_PLACEHOLDER },
    ],
    stream: false,
  },
  '/v1/embeddings': {
    model: '',
    input: [INPUT_PLACEHOLDER],
  },
};

/**
 * The starter request for `endpoint` as a value: the user's template from settings when it is a JSON object,
 * else the built-in one, with `model` set as given (when a model is given and the template has no fixed
 * model). For code that calls the service (Copy as Code), where nothing resolves `{{…}}`.
 */
export function starterRequest(
  endpoint: PostEndpoint,
  model: string | undefined,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const override = overrides[endpoint];
  const template = isRecord(override) ? override : DEFAULTS[endpoint];
  const payload: Record<string, unknown> = { ...template };
  if (model !== undefined && (payload.model === undefined || payload.model === '')) {
    payload.model = model;
  }
  return payload;
}

/**
 * The starter payload for `endpoint` (see starterRequest). The model id is the registry's: written as literal
 * text, so Send sends it as listed and never reads it as a `{{…}}` reference.
 */
export function starterPayload(
  endpoint: PostEndpoint,
  model: string | undefined,
  overrides: Record<string, unknown> = {},
): string {
  return JSON.stringify(
    starterRequest(endpoint, model === undefined ? undefined : literalText(model), overrides),
    null,
    2,
  );
}
