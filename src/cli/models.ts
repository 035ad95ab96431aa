/**
 * `model-access models [--save FILE] [--json]`: the organization's models as the service lists them (id,
 * family, version, lifecycle where the entry says it), read with the extension's own client and readers.
 * `--save FILE` writes the list as a stable JSON document (modelList.ts) that `model-access check
 * --changed-since FILE` compares with later. A list the client could read only in part is shown with its
 * warnings but never saved: compared later, its missing models would read as gone. No `vscode` import.
 */
import * as path from 'node:path';
import type { ListModelsResult, ModelService } from '../api/types';
import type { Redactor } from '../api/redact';
import { displayText } from '../common/text';
import { findEnvironment, type Environment } from '../domain/environments';
import { displayUrl } from '../domain/keyScope';
import { lifecycleLabel, readLifecycle } from '../domain/registry/lifecycle';
import { baseUrlEnvironment, keyForEnvironment } from './keys';
import { modelListDocument, terminalSafeJson } from './modelList';
import { writeReportFile } from './reportFile';

export const MODELS_USAGE = [
  'Usage: model-access models [options]',
  '',
  "Lists the organization's models: id, family, version and lifecycle (where the registry says it).",
  '',
  'Options:',
  '  --save FILE           write the list as JSON, for a later model-access check --changed-since FILE',
  '  --json                print the list as that JSON instead of a table',
  '  --env NAME            list the models of this environment (from --environments)',
  '  --environments FILE   environments: a JSON list, or a settings.json with "modelAccess.environments"',
  '  --timeout S           the most the listing may take (default 120 s)',
  '',
  'Environment: MODEL_ACCESS_BASE_URL, MODEL_ACCESS_API_KEY (sent only to that origin and path),',
  'MODEL_ACCESS_API_KEY_<ENV NAME> for another environment, MODEL_ACCESS_ENVIRONMENTS (the file).',
  '',
  'Exit code: 0 the models were listed (and saved), 2 they could not be.',
];

/** "1 model", "25 models". */
function counted(n: number, one: string, more: string): string {
  return `${n} ${n === 1 ? one : more}`;
}

export interface ModelsDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
  redactor: Redactor;
  now?: () => number;
  loadEnvironments: (file: string, cwd: string) => { environments: Environment[] } | { problem: string };
  /** `environments`: the environments file's, which a secret header's value may go to (keys.ts). */
  openClient: (env: Environment, key: string, environments: readonly Environment[]) => Promise<ModelService | string>;
}

interface ModelsOptions {
  save?: string;
  json: boolean;
  envName?: string;
  environmentsFile?: string;
  timeout: number;
  help: boolean;
}

function parseModelsArgs(args: readonly string[]): ModelsOptions | string {
  const o: ModelsOptions = { json: false, timeout: 120, help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => args[++i];
    if (a === '--help' || a === '-h') {
      o.help = true;
    } else if (a === '--json') {
      o.json = true;
    } else if (a === '--save' || a === '--env' || a === '--environments' || a === '--timeout') {
      const v = value();
      if (v === undefined || v === '') {
        return `${a} needs a value`;
      }
      if (a === '--save') {
        o.save = v;
      } else if (a === '--env') {
        o.envName = v;
      } else if (a === '--environments') {
        o.environmentsFile = v;
      } else {
        const n = Number(v);
        if (!Number.isFinite(n) || n <= 0) {
          return `${a} needs a number of seconds above 0`;
        }
        o.timeout = n;
      }
    } else {
      return a.startsWith('-') ? `unknown option ${a}` : `unexpected argument ${a}`;
    }
  }
  return o;
}

/**
 * The service a command goes to without `// @env`: the environment `--env` names (from the environments
 * file), else MODEL_ACCESS_BASE_URL; or why there is none.
 */
export function defaultService(
  envName: string | undefined,
  environmentsFile: string | undefined,
  deps: Pick<ModelsDeps, 'env' | 'cwd' | 'loadEnvironments'>,
): { env: Environment; environments: Environment[] } | { problem: string } {
  let environments: Environment[] = [];
  const file = environmentsFile ?? deps.env.MODEL_ACCESS_ENVIRONMENTS;
  if (file) {
    const loaded = deps.loadEnvironments(file, deps.cwd);
    if ('problem' in loaded) {
      return loaded;
    }
    environments = loaded.environments;
  }
  if (envName !== undefined) {
    const env = findEnvironment(environments, envName);
    return env ? { env, environments } : { problem: `no environment is called ${envName} in the environments file` };
  }
  const baseUrl = deps.env.MODEL_ACCESS_BASE_URL?.trim();
  if (!baseUrl) {
    return { problem: 'MODEL_ACCESS_BASE_URL is not set; set it to the service URL (or use --env NAME)' };
  }
  return {
    env: baseUrlEnvironment(baseUrl),
    environments,
  };
}

/** The models a command reads (`models`, `references`): the list, and the service it came from for display. */
export interface RegistryListing {
  listed: ListModelsResult;
  /** The service's origin and path, for display (never a key or a query). */
  where: string;
}

/**
 * The models of the service `--env` (or MODEL_ACCESS_BASE_URL) names, listed with the extension's client and
 * the key for that service; or the sentence that says why they could not be.
 */
export async function listRegistry(
  options: { envName?: string; environmentsFile?: string; timeout: number },
  deps: ModelsDeps,
): Promise<RegistryListing | { problem: string }> {
  const service = defaultService(options.envName, options.environmentsFile, deps);
  if ('problem' in service) {
    return { problem: `${service.problem}.` };
  }
  const choice = keyForEnvironment(
    service.env,
    deps.env,
    deps.env.MODEL_ACCESS_BASE_URL?.trim() ?? service.env.baseUrl,
    service.environments,
  );
  if ('problem' in choice) {
    return {
      problem: deps.env.MODEL_ACCESS_API_KEY?.trim()
        ? `${choice.problem}.`
        : 'MODEL_ACCESS_API_KEY is not set; set it to the key for the service (a CI secret).',
    };
  }
  const where = displayUrl(service.env.baseUrl);
  const client = await deps.openClient(service.env, choice.key, service.environments);
  if (typeof client === 'string') {
    return { problem: `the models could not be listed: ${client}` };
  }
  try {
    return { listed: await client.listModels({ signal: AbortSignal.timeout(options.timeout * 1000) }), where };
  } catch (e) {
    return { problem: `the models could not be listed from ${where}: ${(e as Error).message}` };
  } finally {
    await client.dispose();
  }
}

/** A table of the models, one line each, columns padded to the widest cell (registry text as display text). */
export function modelTable(
  models: readonly { id: string; family?: string; version?: string; raw: unknown }[],
  now: number,
): string[] {
  const rows = models.map((m) => [
    displayText(m.id, 120),
    displayText(m.family, 60),
    displayText(m.version, 40),
    lifecycleLabel(readLifecycle(m.raw), now),
  ]);
  const all = [['ID', 'FAMILY', 'VERSION', 'LIFECYCLE'], ...rows];
  const widths = [0, 1, 2].map((c) => Math.max(...all.map((r) => r[c].length)));
  return all.map((r) =>
    r
      .map((cell, c) => (c < 3 ? cell.padEnd(widths[c]) : cell))
      .join('  ')
      .trimEnd(),
  );
}

export async function modelsMain(args: readonly string[], deps: ModelsDeps): Promise<number> {
  const { out, err } = deps;
  const options = parseModelsArgs(args);
  if (typeof options === 'string') {
    err(`model-access models: ${options}. Run model-access models --help.`);
    return 2;
  }
  if (options.help) {
    MODELS_USAGE.forEach((l) => deps.out(l));
    return 0;
  }
  const listing = await listRegistry(options, deps);
  if ('problem' in listing) {
    err(`model-access models: ${listing.problem}`);
    return 2;
  }
  const { listed, where } = listing;
  const now = (deps.now ?? Date.now)();
  listed.warnings.forEach((w) => err(`model-access models: warning: ${w}`));
  if (listed.skipped > 0) {
    err(`model-access models: ${counted(listed.skipped, 'entry', 'entries')} had no model id and are not listed`);
  }
  const document = modelListDocument(listed.models, where, now);
  if (options.json) {
    terminalSafeJson(document).split('\n').forEach(out);
  } else {
    out(`${counted(listed.models.length, 'model', 'models')} at ${where}`);
    modelTable(listed.models, now).forEach((l) => out(`  ${l}`));
  }
  if (options.save === undefined) {
    return 0;
  }
  if (listed.warnings.length > 0) {
    err(
      `model-access models: the list was read only in part (see the warnings), so it was not saved to ${options.save}: compared later, the models it misses would read as gone.`,
    );
    return 2;
  }
  const target = path.resolve(deps.cwd, options.save);
  try {
    // Whatever the service echoed, the key is not written to a file CI may keep as an artifact.
    writeReportFile(target, deps.redactor.removeSecrets(`${terminalSafeJson(document)}\n`));
  } catch (e) {
    err(`model-access models: the list could not be written to ${options.save}: ${(e as Error).message}`);
    return 2;
  }
  (options.json ? err : out)(`Saved ${counted(listed.models.length, 'model', 'models')} to ${options.save}`);
  return 0;
}
