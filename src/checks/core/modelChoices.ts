/**
 * What Run Checks on Several Models offers for a payload: only the models that fit its endpoint (a chat
 * payload's checks on an embeddings model only fail), with the payload's own model first checked, so the
 * usual run is "mine and one more". Pure; no `vscode` import.
 */
import type { ModelEntry, PostEndpoint } from '../../api/types';
import { suitsEndpoint } from '../../domain/modelKind';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { parsePayload, payloadModel } from '../../domain/payload/parse';

export interface ModelChoices {
  /** The models to offer: those that suit the endpoint, and the payload's own even when it does not. */
  models: ModelEntry[];
  /** The ids checked at the start: the payload's own model, when it is listed. */
  picked: Set<string>;
  /** The payload's endpoint (undefined: its first line names none, and every model is offered). */
  endpoint?: PostEndpoint;
}

export function checkModelChoices(text: string, models: readonly ModelEntry[]): ModelChoices {
  const endpoint = readEndpoint(text);
  const parsed = parsePayload(text);
  const own = parsed.ok ? payloadModel(parsed.value) : undefined;
  // A `{{model}}` of a dataset is no one model: nothing is checked.
  const listed = own !== undefined && !own.includes('{{') && models.some((m) => m.id === own) ? own : undefined;
  return {
    models: models.filter((m) => m.id === listed || endpoint === undefined || suitsEndpoint(m, endpoint)),
    picked: new Set(listed === undefined ? [] : [listed]),
    endpoint,
  };
}
