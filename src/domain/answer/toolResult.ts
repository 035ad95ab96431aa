/**
 * The text of a Responses `function_call_output` item: what a tool returned, as the conversation sends it
 * back. Conversations read these items from a payload's `input`; the field is one of the Responses shapes,
 * so it is read here with the others. Pure; no `vscode` import.
 */
import { isRecord } from '../../common/records';

/** The item's `output` as text: a string as it is, anything else as its JSON, nothing as an empty string. */
export function toolResultText(item: unknown): string {
  const output = isRecord(item) ? item.output : undefined;
  if (typeof output === 'string') {
    return output;
  }
  return output === undefined || output === null ? '' : JSON.stringify(output);
}
