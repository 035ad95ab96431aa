/**
 * The agent tools' host on the command line (`model-access mcp`): the workspace is the folder the server runs
 * in; payloads and the files they name are read only inside it (files.ts, real paths, so a symlink out is
 * refused), globs look at a bounded number of entries (glob.ts); the key comes from the same variables as
 * `model-access check` (keys.ts) and goes only to its own service; `{{$env}}` reads only MODEL_ACCESS_* names
 * (domain/payload/variables.ts: a payload an agent names is not the person's own). No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fetchCard } from '../api/cardFetch';
import type { Redactor } from '../api/redact';
import type { ModelService } from '../api/types';
import { LIMITS } from '../checks/agentTools/core/definitions';
import type { PayloadRef, ToolHost, ToolService } from '../checks/agentTools/core/host';
import { findEnvironment, type Environment } from '../domain/environments';
import { displayUrl } from '../domain/keyScope';
import { variableContext } from '../domain/payload/variableContext';
import { openClient } from './checkCommand';
import { isInside, readInside, whyNotRead } from './files';
import { expandPatterns } from './glob';
import { keyForEnvironment } from './keys';

/** Folder entries one call's globs may look at. */
const MAX_ENTRIES = 20_000;
/** The largest payload file read. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
const PAYLOAD = /\.jsonc?$/i;

export interface NodeHostOptions {
  /** The process environment: the key, secret header values, `{{$env}}` values. */
  env: Readonly<Record<string, string | undefined>>;
  /** The workspace folder. */
  root: string;
  redactor: Redactor;
  /** The environments file's environments. */
  environments: readonly Environment[];
  /** The service used when no environment is named: --env, else MODEL_ACCESS_BASE_URL. */
  fallback: Environment | undefined;
  /** MODEL_ACCESS_BASE_URL: the URL MODEL_ACCESS_API_KEY belongs to. */
  baseUrl: string | undefined;
}

export interface NodeHost extends ToolHost {
  dispose(): Promise<void>;
}

export function nodeToolHost(o: NodeHostOptions): NodeHost {
  const root = fs.realpathSync(o.root);
  const clients = new Map<string, Promise<ModelService | string>>();

  const environmentOf = (name: string | undefined): Environment | string => {
    const env = name === undefined ? o.fallback : findEnvironment(o.environments, name);
    if (env) {
      return env;
    }
    if (name === undefined) {
      return 'no service is configured: set MODEL_ACCESS_BASE_URL (and MODEL_ACCESS_API_KEY) for the MCP server, or start it with --env NAME --environments FILE';
    }
    const names = o.environments.map((e) => e.name).join(', ');
    return `no environment is called ${name}${names ? `; the environments are: ${names}` : ' (the server has no environments file)'}`;
  };

  const host: NodeHost = {
    async describeService(name) {
      const env = environmentOf(name);
      return typeof env === 'string' ? { problem: env } : `${displayUrl(env.baseUrl)} (environment ${env.name})`;
    },
    async service(name) {
      const env = environmentOf(name);
      if (typeof env === 'string') {
        return { problem: env };
      }
      const choice = keyForEnvironment(env, o.env, o.baseUrl ?? o.fallback?.baseUrl, o.environments);
      if ('problem' in choice) {
        return { problem: choice.problem };
      }
      let client = clients.get(env.name);
      if (!client) {
        client = openClient(env, choice.key, o.env, o.redactor, LIMITS.responseBytes, o.environments);
        clients.set(env.name, client);
      }
      const opened = await client;
      if (typeof opened === 'string') {
        // Tried again on the next call: the service may be back.
        clients.delete(env.name);
        return { problem: opened };
      }
      const service: ToolService = {
        client: opened,
        variables: variableContext(env, {
          readEnv: (n) => o.env[n],
          envPolicy: { limited: 'outsideScratch', allowed: new Set() },
        }),
        service: displayUrl(env.baseUrl),
        environment: env.name,
        origin: new URL(env.baseUrl).origin,
      };
      return service;
    },
    async findPayloads(patterns, max) {
      const files: PayloadRef[] = [];
      const unmatched: string[] = [];
      const problems: string[] = [];
      for (const pattern of patterns) {
        const found = expandPatterns([pattern], root, MAX_ENTRIES);
        if (found.cut) {
          problems.push(`${pattern} looks at more than ${MAX_ENTRIES} files and folders; name a narrower folder`);
          continue;
        }
        const inside = found.files.filter((f) => {
          try {
            return PAYLOAD.test(f) && isInside(root, fs.realpathSync(f));
          } catch {
            return false;
          }
        });
        if (inside.length === 0) {
          unmatched.push(pattern);
        }
        for (const f of inside) {
          if (!files.some((x) => x.key === f)) {
            files.push({ name: path.relative(root, f).split(path.sep).join('/'), key: f });
          }
          if (files.length >= max) {
            // The caller asks for one more than it takes: reaching `max` tells it there were too many.
            return { files, unmatched, problems };
          }
        }
      }
      return { files, unmatched, problems };
    },
    async readPayload(ref) {
      try {
        const real = fs.realpathSync(ref.key);
        if (!isInside(root, real) || fs.statSync(real).size > MAX_PAYLOAD_BYTES) {
          return undefined;
        }
        return fs.readFileSync(real, 'utf8');
      } catch {
        return undefined;
      }
    },
    async readBeside(ref, name) {
      const dir = path.dirname(ref.key);
      const text = readInside(root, dir, name, false);
      if (text !== undefined) {
        return { ok: true, text };
      }
      return {
        ok: false,
        reason:
          whyNotRead(root, dir, name, false) === undefined
            ? 'no such file'
            : 'it lies outside the workspace folder, and files outside it are not read',
      };
    },
    fetchCard: (url, service, signal) =>
      fetchCard(url, {
        maxBytes: LIMITS.cardBytes,
        timeoutMs: LIMITS.cardTimeoutMs,
        signal,
        network: { serviceOrigin: service.origin },
      }),
    redact: (text) => o.redactor.removeSecrets(text),
    onSecrets: (secrets) => secrets.forEach((s) => o.redactor.add(s)),
    now: () => Date.now(),
    async dispose() {
      await Promise.all(
        [...clients.values()].map(async (c) => {
          const opened = await c;
          if (typeof opened !== 'string') {
            await opened.dispose();
          }
        }),
      );
    },
  };
  return host;
}
