/**
 * The messages between the conversation panel's page and the extension. What the page sends is checked here
 * before anything acts on it (a page is a browser: its messages are input like any other). Pure; no `vscode`.
 */
import { isRecord } from '../../../common/records';
import type { ParameterName } from './panelEdits';

/** What the page asks for. `turn` is a turn's index in the payload's list. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'copy'; turn: number }
  | { type: 'copyCode'; text: string }
  | { type: 'edit'; turn: number; text: string }
  | { type: 'regenerate' }
  | { type: 'fork'; turn: number }
  | { type: 'copyAsCode'; turn: number }
  | { type: 'way'; way: string }
  | { type: 'keep' }
  | { type: 'showFile' }
  | { type: 'set'; name: ParameterName; value: string | number | boolean | undefined };

const PARAMETERS = new Set<ParameterName>(['model', 'temperature', 'maxTokens', 'stream', 'system']);

/** A message from the page, or undefined when it is not one the panel knows. */
export function readPageMessage(data: unknown): PageMessage | undefined {
  if (!isRecord(data) || typeof data.type !== 'string') {
    return undefined;
  }
  const turn = typeof data.turn === 'number' && Number.isInteger(data.turn) && data.turn >= 0 ? data.turn : undefined;
  const text = typeof data.text === 'string' ? data.text : undefined;
  switch (data.type) {
    case 'ready':
    case 'stop':
    case 'regenerate':
    case 'keep':
    case 'showFile':
      return { type: data.type };
    case 'send':
    case 'copyCode':
      return text === undefined ? undefined : { type: data.type, text };
    case 'copy':
    case 'fork':
    case 'copyAsCode':
      return turn === undefined ? undefined : { type: data.type, turn };
    case 'edit':
      return turn === undefined || text === undefined ? undefined : { type: 'edit', turn, text };
    case 'way':
      return typeof data.way === 'string' ? { type: 'way', way: data.way } : undefined;
    case 'set':
      return readSet(data);
    default:
      return undefined;
  }
}

function readSet(data: Record<string, unknown>): PageMessage | undefined {
  const name = data.name as ParameterName;
  if (!PARAMETERS.has(name)) {
    return undefined;
  }
  const v = data.value;
  if (name === 'stream') {
    return typeof v === 'boolean' ? { type: 'set', name, value: v } : undefined;
  }
  if (name === 'model' || name === 'system') {
    return typeof v === 'string' ? { type: 'set', name, value: v } : undefined;
  }
  // Numbers come as the input's text: empty takes the parameter out, anything else must be a number.
  if (v === '' || v === undefined || v === null) {
    return { type: 'set', name, value: undefined };
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n) || (name === 'maxTokens' && (!Number.isInteger(n) || n < 1))) {
    return undefined;
  }
  return { type: 'set', name, value: n };
}

/** A model in the header's picker. */
export interface PickerModel {
  id: string;
  /** Suits the payload's endpoint (listed first). */
  suitable: boolean;
}

/** What the extension tells the page. */
export type PanelMessage =
  | {
      type: 'draw';
      /** How many turn pieces the page shows; `changed` are the pieces that differ from the last draw. */
      count: number;
      changed: { index: number; html: string }[];
      status: string;
      busy: boolean;
      readable: boolean;
      problems: string[];
      empty: string;
      /** What the answers received here cost in all (tokens, cost, time); empty before the first. */
      totals: string;
    }
  | {
      type: 'header';
      kind: 'chat' | 'responses';
      model: string;
      temperature: string;
      maxTokens: string;
      stream: boolean;
      system: string;
      models: PickerModel[];
    }
  | { type: 'announce'; text: string }
  | { type: 'clearMessage' }
  | { type: 'editFailed'; turn: number };
