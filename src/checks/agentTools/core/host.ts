/**
 * What the agent tools need from where they run — VS Code (../languageModelTools.ts) or the command line's MCP
 * server (src/cli/mcpHost.ts) — each with its own rules for files and keys. Types only; no `vscode` import.
 */
import type { CardFetch } from '../../../api/cardFetch';
import type { ModelService } from '../../../api/types';
import type { VariableContext } from '../../../domain/payload/variables';

/** The service of one environment: its client, what `{{…}}` resolves against, and how it is named. */
export interface ToolService {
  client: ModelService;
  variables: VariableContext;
  /** The service's URL for people (no key, no credentials: domain/keyScope.ts displayUrl). */
  service: string;
  /** The environment's name, when it has one. */
  environment?: string;
  /** The service's origin: the one address on this machine or a private network a card may be read from. */
  origin: string;
}

/** A payload file the host found: how it is named (relative to the workspace) and how the host finds it again. */
export interface PayloadRef {
  name: string;
  key: string;
}

export type Beside = { ok: true; text: string } | { ok: false; reason: string };

export interface ToolHost {
  /**
   * The service of the environment `name` (undefined: the active or default one), or why there is none. The
   * key stays with the host: it is in no input and no result.
   */
  service(name: string | undefined): Promise<ToolService | { problem: string }>;
  /**
   * The service of the environment `name` for people — its URL, and the environment's name — without opening
   * it (nothing sent, nothing asked): what the confirmation before sending names.
   */
  describeService(name: string | undefined): Promise<string | { problem: string }>;
  /**
   * The payload files (`.json`, `.jsonc`) that paths or globs name inside the workspace, at most `max`; a
   * pattern that leads out of the workspace is refused (a problem), one that names nothing is `unmatched`.
   */
  findPayloads(
    patterns: readonly string[],
    max: number,
  ): Promise<{ files: PayloadRef[]; unmatched: string[]; problems: string[] }>;
  /** A payload's text (undefined: it cannot be read). */
  readPayload(ref: PayloadRef): Promise<string | undefined>;
  /** A file a payload names beside it (its dataset, a schema), read only inside the workspace. */
  readBeside(ref: PayloadRef, name: string): Promise<Beside>;
  /** A Model Card, read without the key through the network of `service` (api/cardFetch.ts). */
  fetchCard(url: string, service: ToolService, signal: AbortSignal): Promise<CardFetch>;
  /** Every secret the host knows out of a text (the key, secret headers, `{{$env}}` values). */
  redact(text: string): string;
  /** Secrets a request carried (`{{$env …}}` values): redacted from then on. */
  onSecrets(secrets: readonly string[]): void;
  /** Milliseconds since the epoch (lifecycle stages). */
  now(): number;
}
