/**
 * `list_models` and `get_model`: the registry as an agent needs it — which models exist, what they can do, which
 * retire soon and what replaces them, what their card says. The entries are read by the registry's readers
 * (domain/registry: lifecycle, capabilities, token limits), the card by api/cardFetch.ts (no key). Pure.
 */
import type { ModelEntry } from '../../../api/types';
import { displayText } from '../../../common/text';
import { describeFailure } from '../../../domain/failure';
import { capabilityList, readCapabilities, type CapabilityName } from '../../../domain/registry/capabilities';
import { isoDay, lifecycleStage, readLifecycle } from '../../../domain/registry/lifecycle';
import { statedTokenLimits } from '../../../domain/registry/tokenLimits';
import { CAPABILITY_NAMES } from '../../../domain/registry/capabilities';
import { LIFECYCLE_STATES, LIMITS } from './definitions';
import type { ToolHost, ToolService } from './host';
import { fields, optionalChoice, optionalInteger, optionalString, requiredString } from './input';
import { errorResult, okResult, SERVICE_WORDS, serviceText, type ToolResult } from './result';

type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/** One model as a result holds it: everything the registry said, each string through the display function. */
export interface ModelSummary {
  id: string;
  family?: string;
  version?: string;
  lifecycle: { state: LifecycleState; status?: string; deprecated?: string; retires?: string; successor?: string };
  capabilities: CapabilityName[];
  contextWindow?: number;
  maxOutputTokens?: number;
  card?: string;
}

function stateOf(entry: ModelEntry, now: number): LifecycleState {
  // An entry that states no lifecycle is taken as active: the registry lists it as usable.
  return lifecycleStage(readLifecycle(entry.raw), now) ?? 'active';
}

export function modelSummary(entry: ModelEntry, now: number): ModelSummary {
  const l = readLifecycle(entry.raw);
  const caps = readCapabilities(entry.raw);
  const limits = statedTokenLimits(entry.raw);
  const str = (v: string | undefined, max = 120) => (v === undefined ? undefined : displayText(v, max));
  return {
    id: displayText(entry.id, 200),
    family: str(entry.family),
    version: str(entry.version),
    lifecycle: {
      state: stateOf(entry, now),
      status: str(l?.status, 60),
      deprecated: l?.deprecatedAt === undefined ? undefined : isoDay(l.deprecatedAt),
      retires: l?.retiresAt === undefined ? undefined : isoDay(l.retiresAt),
      successor: str(l?.successor, 200),
    },
    capabilities: capabilityList(caps),
    contextWindow: caps?.contextWindow ?? limits.context,
    maxOutputTokens: limits.completion,
    // ModelEntry keeps only absolute http(s) card links (api/models.ts).
    card: str(entry.cardUrl, 2048),
  };
}

async function serviceOf(host: ToolHost, environment: string | undefined): Promise<ToolService | string> {
  const found = await host.service(environment);
  return 'problem' in found ? found.problem : found;
}

export async function listModels(input: unknown, host: ToolHost, signal: AbortSignal): Promise<ToolResult> {
  const r = fields(input, ['family', 'capability', 'lifecycle', 'text', 'limit', 'environment']);
  const family = optionalString(r, 'family')?.trim().toLowerCase();
  const capability = optionalChoice(r, 'capability', CAPABILITY_NAMES);
  const lifecycle = optionalChoice(r, 'lifecycle', LIFECYCLE_STATES);
  const text = optionalString(r, 'text')?.trim().toLowerCase();
  const limit = optionalInteger(r, 'limit', 1, LIMITS.modelsShownMost) ?? LIMITS.modelsShown;
  const service = await serviceOf(host, optionalString(r, 'environment'));
  if (typeof service === 'string') {
    return errorResult(service, host.redact);
  }
  let listed;
  try {
    listed = await service.client.listModels({ signal });
  } catch (e) {
    return errorResult(
      `the models of ${service.service} could not be listed: ${describeFailure(e).message}`,
      host.redact,
    );
  }
  const now = host.now();
  const matching = listed.models.filter((m) => {
    const caps = capability ? capabilityList(readCapabilities(m.raw)) : [];
    return (
      (family === undefined || (m.family ?? '').toLowerCase() === family) &&
      (capability === undefined || caps.includes(capability)) &&
      (lifecycle === undefined || stateOf(m, now) === lifecycle) &&
      (text === undefined || [m.id, m.family, m.version].some((v) => (v ?? '').toLowerCase().includes(text)))
    );
  });
  const shown = matching.slice(0, limit);
  return okResult(
    {
      service: service.service,
      environment: service.environment,
      note: SERVICE_WORDS,
      total: matching.length,
      shown: shown.length,
      ...(matching.length > shown.length
        ? { more: `${matching.length - shown.length} more: narrow the filters or raise limit` }
        : {}),
      ...(listed.warnings.length > 0 ? { warnings: listed.warnings.map((w) => displayText(w, 300)) } : {}),
      serviceSays: { models: shown.map((m) => modelSummary(m, now)) },
    },
    host.redact,
  );
}

/** A card's text for the agent: Markdown or plain text, made safe line by line and capped; else why not. */
async function cardText(
  entry: ModelEntry,
  host: ToolHost,
  service: ToolService,
  signal: AbortSignal,
): Promise<{ text?: string; truncated?: boolean; unread?: string }> {
  if (!entry.cardUrl) {
    return { unread: 'the registry gives this model no Model Card link' };
  }
  const fetched = await host.fetchCard(entry.cardUrl, service, signal);
  if (fetched.kind === 'failed') {
    return { unread: displayText(fetched.message, 400) };
  }
  if (fetched.kind === 'browser') {
    return {
      unread: `the card is a web page (${displayText(fetched.contentType, 60)}), not Markdown or text: it was not read`,
    };
  }
  // Comments and HTML tags hide text from people who read the rendered card: an agent reads what they read.
  const plain = fetched.text.replace(/<!--[\s\S]*?-->/g, '').replace(/<\/?[a-z][^>]*>/gi, '');
  const text = serviceText(plain, LIMITS.cardChars);
  return { text, truncated: fetched.truncated || text.endsWith('… (cut here)') };
}

export async function getModel(input: unknown, host: ToolHost, signal: AbortSignal): Promise<ToolResult> {
  const r = fields(input, ['id', 'environment']);
  const id = requiredString(r, 'id').trim();
  const service = await serviceOf(host, optionalString(r, 'environment'));
  if (typeof service === 'string') {
    return errorResult(service, host.redact);
  }
  let entry: ModelEntry | undefined;
  try {
    entry = await service.client.getModel(id, { signal });
  } catch (e) {
    const failure = describeFailure(e);
    const status = (e as { status?: unknown }).status;
    return errorResult(
      status === 404
        ? `${service.service} has no model ${JSON.stringify(displayText(id, 120))}: call list_models for the ids it has`
        : `the model could not be read from ${service.service}: ${failure.message}`,
      host.redact,
    );
  }
  const card = await cardText(entry, host, service, signal);
  return okResult(
    {
      service: service.service,
      environment: service.environment,
      note: SERVICE_WORDS,
      serviceSays: {
        model: modelSummary(entry, host.now()),
        ...(card.text !== undefined ? { modelCard: card.text } : {}),
      },
      ...(card.truncated ? { cardCut: `the card's text was cut at ${LIMITS.cardChars} characters` } : {}),
      ...(card.unread !== undefined ? { modelCardNotRead: card.unread } : {}),
    },
    host.redact,
  );
}
