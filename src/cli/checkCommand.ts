/**
 * `model-access check "checks/**\/*.jsonc"`: the payloads' checks without VS Code, for CI. The service URL and
 * key come from MODEL_ACCESS_BASE_URL / MODEL_ACCESS_API_KEY (and an environments file for `// @env`); it
 * prints a readable summary, writes JUnit XML with `--junit FILE`, and exits 0 when every check passed, 1 when
 * one failed, 2 when the checks could not run (no URL or key, nothing matched, the service unreachable or the
 * key refused). The key and secret header values never reach the output or the report: every line passes
 * through the redactor. `--changed-since FILE` runs only the payloads whose models changed since a list that
 * `model-access models --save FILE` (models.ts) wrote; a check on a deprecated model warns. Only pure code:
 * api, common, domain and checks/core; no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../api/answerLimits';
import { ServiceClient } from '../api/client';
import { Redactor } from '../api/redact';
import type { ModelService } from '../api/types';
import { findEnvironment, readEnvironments, type Environment } from '../domain/environments';
import { displayUrl } from '../domain/keyScope';
import { variableContext } from '../domain/payload/variableContext';
import { pinnedEnvironment } from '../domain/payload/variables';
import { isoDay } from '../domain/registry/lifecycle';
import { formatMs } from '../checks/core/expectations';
import { allFailures, inFileOrder, runCheckFile, type Target } from '../checks/core/fileRun';
import { hasChecks, readCheckLines } from '../checks/core/checkFile';
import { median } from '../checks/core/planner';
import { AimdLimiter } from '../checks/core/aimd';
import {
  cacheBinding,
  cachingService,
  catalogVersions,
  type CacheStats,
  type CacheStore,
} from '../checks/core/answerCache';
import { entryHoldsSecret } from '../checks/core/secretFreeCache';
import { defaultCacheFolder, openCacheFolder } from '../checks/core/cacheFolder';
import { defaultEmbeddingsModel } from '../checks/core/graderRun';
import { DEFAULT_POST_RETRY } from '../checks/core/retryPolicy';
import { inShard } from '../checks/core/shard';
import { newWaitStats, throttledService } from '../checks/core/throttledService';
import { foldAttempts } from './attempts';
import { failureReport } from './failures';
import { expandPatterns } from './glob';
import { junitXml, type JUnitSuite } from './junit';
import { readInside, whyNotRead } from './files';
import { writeReportFile } from './reportFile';
import { baseUrlEnvironment, keyForEnvironment, secretHeadersFor, secretHeaderVariable } from './keys';
import {
  cacheSummary,
  graderSummary,
  readScaleOption,
  SCALE_USAGE,
  waitSummary,
  type ScaleOptions,
} from './scaleOptions';
import { runFingerprint } from './junitMerge';
import { readModelList } from './modelList';
import { EXIT_CANNOT_RUN, EXIT_FAILED, EXIT_PASSED, type CliIo } from './cliIo';
import { payloadModels } from '../checks/core/payloadModels';
import { lifecycleWarning, modelsById, selectPayload } from './changedSince';
import { compareLists, type RegistryChanges } from '../domain/registry/changes';
import type { ListModelsResult, ModelEntry } from '../api/types';
import { priceFor } from '../domain/cost/prices';
import { COST_USAGE, costProperties, loadPrices, readCostOption, RunCosts, waitLine, type CostOptions } from './costs';
import { costCases, requestCount } from './costCases';

interface Options {
  patterns: string[];
  junit?: string;
  envName?: string;
  environmentsFile?: string;
  concurrency: number;
  maxRows: number;
  models: string[];
  maxResponseBytes: number;
  /** Seconds. */
  requestTimeout: number;
  runTimeout: number;
  scale: ScaleOptions;
  cost: CostOptions;
  allowOutsideFiles: boolean;
  changedSince?: string;
  help?: boolean;
}

export const CHECK_USAGE = [
  'Usage: model-access check [options] <payload files, folders or "globs">',
  '',
  'Runs the // @expect checks of each payload against the Model Access Service.',
  '',
  'Options:',
  '  --junit FILE          write a JUnit XML report',
  '  --env NAME            the environment for payloads without // @env (from --environments)',
  '  --environments FILE   environments: a JSON list, or a settings.json with "modelAccess.environments"',
  '  --concurrency N       requests at once (default 4)',
  '  --max-rows N          dataset rows per payload (default 1000)',
  '  --max-response-mb N   the most one answer may hold; a longer one fails the check (default 32)',
  '  --allow-outside-files read datasets and schemas outside the working directory too',
  '  --timeout S           the most one request may take, its answer included (default 120 s)',
  '  --run-timeout S       the most the whole run may take; then it stops and writes the report (default 1800 s)',
  "  --model ID            run on this model instead of the payload's (repeat for several models)",
  '  --changed-since FILE  run only the payloads whose model changed since that list (model-access models --save)',
  ...SCALE_USAGE,
  ...COST_USAGE,
  '',
  'Environment: MODEL_ACCESS_BASE_URL, MODEL_ACCESS_API_KEY (its key: sent only to that origin and path),',
  'MODEL_ACCESS_API_KEY_<ENV NAME> for another environment (e.g. MODEL_ACCESS_API_KEY_STAGING),',
  'MODEL_ACCESS_SECRET_<HEADER> for an environment header whose value is "{{secret}}"',
  '(e.g. MODEL_ACCESS_SECRET_X_ORG_TOKEN for X-Org-Token; MODEL_ACCESS_SECRET_<HEADER>_<ENV NAME> when',
  'environments at several URLs send that header), MODEL_ACCESS_ENVIRONMENTS (the file).',
  '',
  'Exit code: 0 every check passed, 1 a check failed, 2 the checks could not run.',
];

function parseArgs(args: readonly string[]): Options | string {
  const o: Options = {
    patterns: [],
    concurrency: 4,
    maxRows: 1000,
    models: [],
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    requestTimeout: 120,
    runTimeout: 1800,
    scale: { graders: {} },
    cost: {},
    allowOutsideFiles: false,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const costTaken = readCostOption(args, i, o.cost);
    const taken = typeof costTaken === 'string' || costTaken > 0 ? costTaken : readScaleOption(args, i, o.scale);
    if (typeof taken === 'string') {
      return taken;
    }
    if (taken > 0) {
      i += taken - 1;
      continue;
    }
    const value = () => {
      const v = args[++i];
      if (v === undefined) {
        throw new Error(`${a} needs a value`);
      }
      return v;
    };
    try {
      if (a === '--junit') {
        o.junit = value();
      } else if (a === '--env') {
        o.envName = value();
      } else if (a === '--environments') {
        o.environmentsFile = value();
      } else if (a === '--model') {
        o.models.push(value());
      } else if (a === '--changed-since') {
        o.changedSince = value();
      } else if (a === '--help' || a === '-h') {
        o.help = true;
      } else if (a === '--allow-outside-files') {
        o.allowOutsideFiles = true;
      } else if (a === '--timeout' || a === '--run-timeout') {
        const n = Number(value());
        if (!Number.isFinite(n) || n <= 0) {
          return `${a} needs a number of seconds above 0`;
        }
        o[a === '--timeout' ? 'requestTimeout' : 'runTimeout'] = n;
      } else if (a === '--max-response-mb') {
        const n = Number(value());
        if (!Number.isFinite(n) || n <= 0) {
          return `${a} needs a number of megabytes above 0`;
        }
        o.maxResponseBytes = Math.floor(n * 1024 * 1024);
      } else if (a === '--concurrency' || a === '--max-rows') {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) {
          return `${a} needs a whole number of at least 1`;
        }
        if (a === '--concurrency') {
          o.concurrency = n;
        } else {
          o.maxRows = n;
        }
      } else if (a.startsWith('--')) {
        return `unknown option ${a}`;
      } else {
        o.patterns.push(a);
      }
    } catch (e) {
      return (e as Error).message;
    }
  }
  return o;
}

export function loadEnvironments(file: string, cwd: string): { environments: Environment[] } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (e) {
    return { problem: `the environments file ${file} cannot be read as JSON: ${(e as Error).message}` };
  }
  const list =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)['modelAccess.environments']
      : raw;
  if (!Array.isArray(list)) {
    return { problem: `${file} holds neither a list of environments nor "modelAccess.environments"` };
  }
  return { environments: readEnvironments(list, 'user').environments };
}

/** Runs the command; resolves to the exit code. */
/** What `main` (check.ts) hands every command: the output through the redactor, and the key. */
export interface CommandContext {
  io: CliIo;
  out: (line: string) => void;
  err: (line: string) => void;
  redactor: Redactor;
  key: string | undefined;
}

/** `model-access check …`: runs the checks; the exit code as EXIT_* says. */
export async function checkMain(
  args: readonly string[],
  { io, out, err, redactor, key }: CommandContext,
): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === 'string') {
    err(`model-access check: ${options}. Run model-access check --help.`);
    return EXIT_CANNOT_RUN;
  }
  if (options.help) {
    CHECK_USAGE.forEach((l) => io.out(l));
    return EXIT_PASSED;
  }
  if (options.patterns.length === 0) {
    err('model-access check: name the payloads to check, as in: model-access check "checks/**/*.jsonc"');
    return EXIT_CANNOT_RUN;
  }
  if (!key) {
    err('model-access check: MODEL_ACCESS_API_KEY is not set; set it to the key for the service (a CI secret).');
    return EXIT_CANNOT_RUN;
  }
  let environments: Environment[] = [];
  const environmentsFile = options.environmentsFile ?? io.env.MODEL_ACCESS_ENVIRONMENTS;
  if (environmentsFile) {
    const loaded = loadEnvironments(environmentsFile, io.cwd);
    if ('problem' in loaded) {
      err(`model-access check: ${loaded.problem}`);
      return EXIT_CANNOT_RUN;
    }
    environments = loaded.environments;
  }
  let prices: unknown;
  if (options.cost.pricesFile !== undefined) {
    const loaded = loadPrices(options.cost.pricesFile, io.cwd);
    if ('problem' in loaded) {
      err(`model-access check: ${loaded.problem}`);
      return EXIT_CANNOT_RUN;
    }
    prices = loaded.prices;
  }
  const costs = new RunCosts(options.cost.maxCost);
  // The registry entries of the environment the current payload goes to: prices (with --prices over them).
  let registryEntries: ReadonlyMap<string, ModelEntry> = new Map();
  const priceOf = (model: string) => priceFor(model, registryEntries.get(model)?.raw, prices);
  const baseUrl = io.env.MODEL_ACCESS_BASE_URL?.trim();
  let fallback: Environment | undefined;
  if (options.envName !== undefined) {
    fallback = findEnvironment(environments, options.envName);
    if (!fallback) {
      err(`model-access check: no environment is called ${options.envName} in the environments file.`);
      return EXIT_CANNOT_RUN;
    }
  } else if (baseUrl) {
    fallback = baseUrlEnvironment(baseUrl);
  }

  const { files: matched, unmatched } = expandPatterns(options.patterns, io.cwd);
  let files = matched.filter((f) => hasChecks(safeRead(f) ?? ''));
  unmatched.forEach((p) => err(`model-access check: no file matches ${p}`));
  if (files.length === 0) {
    err('model-access check: no payload with a // @expect line was found; nothing was checked.');
    return EXIT_CANNOT_RUN;
  }

  // One client per environment, checked once before the first request: a refused key or a service that
  // cannot be reached stops the whole run (exit 2), rather than failing every check with the same message.
  // Every POST of the run (checks and graders, all environments) shares one limiter: a 429 halves the
  // requests at once, answers grow them back (aimd.ts); 429 and 503 are waited out (retryPolicy.ts).
  const maxConcurrency = options.scale.maxConcurrency ?? options.concurrency;
  const limiter = new AimdLimiter(maxConcurrency);
  const waits = newWaitStats();
  let store: CacheStore | undefined;
  const cacheStats: CacheStats = { hits: 0, misses: 0, unwritten: 0, rejected: 0 };
  if (options.scale.cache) {
    const folder = path.resolve(io.cwd, options.scale.cache.dir ?? defaultCacheFolder(io.env));
    const opened = openCacheFolder(folder);
    if ('warning' in opened) {
      err(`model-access check: ${opened.warning}`);
    } else {
      store = opened.store;
      if (opened.note) {
        err(`model-access check: ${opened.note}`);
      }
    }
  }
  // Entries are bound to the key and environment that asked (answerCache.ts): another key or environment looks
  // under other names; an entry that fails its seal is said here, not used, and its request sent again.
  const caching = (env: Environment, envKey: string) => ({
    binding: cacheBinding(envKey, {
      origin: env.baseUrl,
      headers: env.headers,
      secrets: env.secretHeaders.map(
        (h) => io.env[secretHeaderVariable(h, env.name)] ?? io.env[secretHeaderVariable(h)] ?? '',
      ),
    }),
    options: {
      redact: redactor.removeSecrets,
      // An answer that holds a secret once read whole (a key split across two events) is not kept.
      keeps: (json: string) => !entryHoldsSecret(json, redactor.removeSecrets),
      onRejected: (what: string) => {
        if ((cacheStats.rejected ?? 0) <= 5) {
          err(
            `model-access check: a cached answer for ${what} failed its integrity check (changed, or not written with this key); it was not used and the request was sent again`,
          );
        }
      },
    },
  });
  const clients = new Map<string, Promise<ModelService | string>>();
  // Each environment's model list, read once when its client opens: the lifecycle of the models checks run
  // on (a warning for a deprecated one), and the list --changed-since compares with.
  const listings = new Map<string, Promise<ListModelsResult | string>>();
  const clientFor = (env: Environment, envKey: string): Promise<ModelService | string> => {
    let c = clients.get(env.name);
    if (!c) {
      c = openClient(env, envKey, io.env, redactor, options.maxResponseBytes, environments).then((opened) => {
        if (typeof opened === 'string') {
          return opened;
        }
        const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(options.requestTimeout * 1000)]);
        listings.set(
          env.name,
          opened.listModels({ signal }).catch((e: unknown) => (e instanceof Error ? e.message : String(e))),
        );
        const throttled = throttledService(opened, limiter, DEFAULT_POST_RETRY, waits, undefined, (ms, refused) =>
          out(`        ${waitLine(ms, refused)}`),
        );
        if (!store) {
          return throttled;
        }
        const { binding, options: cachingOptions } = caching(env, envKey);
        return cachingService(throttled, store, catalogVersions(opened), cacheStats, binding, cachingOptions);
      });
      clients.set(env.name, c);
    }
    return c;
  };
  let defaultEmbeddings: Promise<string | undefined> | undefined;
  let gradersUsed = false;
  let embeddingsDefaulted = false;
  let cannotRun: string | undefined;
  let keyProblems = 0;
  const controller = new AbortController();
  let fileEnvironment: string | undefined;
  const listedIn = async (name: string | undefined): Promise<ReadonlyMap<string, ModelEntry>> => {
    const listed = name === undefined ? undefined : await listings.get(name);
    return modelsById(listed === undefined || typeof listed === 'string' ? [] : listed.models);
  };
  const target = async (pinned: string | undefined): Promise<Target> => {
    const env = pinned === undefined ? fallback : findEnvironment(environments, pinned);
    if (!env) {
      return {
        problem:
          pinned === undefined
            ? 'no service: set MODEL_ACCESS_BASE_URL, or --env NAME with --environments FILE'
            : `the payload is pinned to environment ${pinned} (// @env), and the environments file has none of that name`,
      };
    }
    // The key goes only to its own service; another environment's payloads need that environment's key.
    const choice = keyForEnvironment(env, io.env, baseUrl ?? fallback?.baseUrl, environments);
    if ('problem' in choice) {
      keyProblems++;
      return { problem: choice.problem };
    }
    const client = await clientFor(env, choice.key);
    fileEnvironment = env.name;
    if (typeof client === 'string') {
      cannotRun ??= client;
      controller.abort();
      return { problem: client };
    }
    if (gradersUsed && options.scale.graders.embeddings === undefined) {
      defaultEmbeddings ??= defaultEmbeddingsModel(client, controller.signal);
      const found = await defaultEmbeddings;
      if (found !== undefined && options.scale.graders.embeddings === undefined) {
        options.scale.graders.embeddings = found;
        embeddingsDefaulted = true;
      }
    }
    registryEntries = await listedIn(env.name);
    return {
      client,
      variables: variableContext(env, { readEnv: (name) => io.env[name] }),
    };
  };

  const disposeClients = () =>
    Promise.all(
      [...clients.values()].map(async (c) =>
        typeof (await c) === 'string' ? undefined : ((await c) as ModelService).dispose(),
      ),
    );

  /**
   * --changed-since: the payloads whose models changed between the saved list and the service's list now,
   * each payload said run or skipped and why; or why nothing can be compared (exit 2).
   */
  const changedPayloads = async (file: string): Promise<string[] | string> => {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return `the saved model list ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}); write it with model-access models --save ${file}`;
    }
    const saved = readModelList(text);
    if (!saved.ok) {
      return `the saved model list ${file} cannot be used: ${saved.problem}; write it again with model-access models --save ${file}`;
    }
    if (!fallback) {
      return '--changed-since needs the service to compare with: set MODEL_ACCESS_BASE_URL, or --env NAME with --environments';
    }
    const service = displayUrl(fallback.baseUrl);
    if (saved.service !== service) {
      return `${file} lists the models of ${saved.service}, and this run goes to ${service}; save the list of this service`;
    }
    const choice = keyForEnvironment(fallback, io.env, baseUrl ?? fallback.baseUrl, environments);
    if ('problem' in choice) {
      return choice.problem;
    }
    const client = await clientFor(fallback, choice.key);
    if (typeof client === 'string') {
      return `the checks could not run: ${client}`;
    }
    const now = await listings.get(fallback.name);
    if (now === undefined || typeof now === 'string') {
      return `the models of ${service} could not be listed${now ? `: ${now}` : ''}; nothing was compared`;
    }
    if (now.warnings.length > 0) {
      // A partial list would make every model it misses look gone.
      return `the models of ${service} were read only in part (${now.warnings.join('; ')}); nothing was compared`;
    }
    const changes: RegistryChanges = compareLists(saved.models, now.models);
    const at = Date.now();
    out(
      `Changed since ${file} (saved ${isoDay(saved.savedAt)}): ${changes.added.length} new, ${changes.updated.length} updated, ${changes.gone.length} gone`,
    );
    const picked: string[] = [];
    for (const f of files) {
      const payload = safeRead(f) ?? '';
      const pinned = pinnedEnvironment(payload)?.name;
      const env = pinned === undefined ? fallback : findEnvironment(environments, pinned);
      const selection =
        env !== undefined && displayUrl(env.baseUrl) !== service
          ? {
              run: true,
              reason: `it goes to environment ${env.name}, not the service of the saved list: run to be safe`,
            }
          : selectPayload(
              payloadModels(payload, {
                variables: variableContext(env ?? fallback, { readEnv: (name) => io.env[name] }),
                readText: (p) => readInside(io.cwd, path.dirname(f), p, options.allowOutsideFiles),
                models: options.models,
                maxRows: options.maxRows,
              }),
              changes,
              at,
            );
      out(`  ${selection.run ? 'run ' : 'skip'}  ${relativeOf(f)}  (${selection.reason})`);
      if (selection.run) {
        picked.push(f);
      }
    }
    if (picked.length === 0) {
      out('No payload uses a model that changed: nothing to run.');
    }
    return picked;
  };

  // The run's deadline: a service dripping a byte every few seconds must not keep a CI job for hours.
  let runTimedOut = false;
  const runTimer = setTimeout(() => {
    runTimedOut = true;
    controller.abort();
  }, options.runTimeout * 1000);
  runTimer.unref();
  const started = performance.now();
  const suites: JUnitSuite[] = [];
  let passed = 0;
  let failed = 0;
  let notRun = 0;
  const relativeOf = (file: string) => path.relative(io.cwd, file).split(path.sep).join('/');
  if (options.changedSince !== undefined) {
    const picked = await changedPayloads(options.changedSince);
    if (typeof picked === 'string') {
      err(`model-access check: ${picked}`);
      await disposeClients();
      clearTimeout(runTimer);
      return EXIT_CANNOT_RUN;
    }
    files = picked;
  }
  const shard = options.scale.shard;
  const fingerprint = runFingerprint(files.map(relativeOf), options.models, options.scale.repeat);
  out(
    `model-access check: ${files.length} payload file${files.length === 1 ? '' : 's'}${shard ? `, shard ${shard.index}/${shard.count}` : ''}`,
  );
  gradersUsed = files.some((f) => /@expect\s+(similar|judge)\b/i.test(safeRead(f) ?? ''));
  let gradersStated = false;
  let filesRun = 0;
  for (const file of files) {
    if (controller.signal.aborted || costs.stopped) {
      break;
    }
    filesRun++;
    const relative = relativeOf(file);
    const text = safeRead(file) ?? '';
    const dir = path.dirname(file);
    fileEnvironment = undefined;
    const result = await runCheckFile(text, {
      target,
      readText: (p) => readInside(io.cwd, dir, p, options.allowOutsideFiles),
      whyUnreadable: (p) => whyNotRead(io.cwd, dir, p, options.allowOutsideFiles),
      maxRows: options.maxRows,
      maxResponseBytes: options.maxResponseBytes,
      requestTimeoutMs: options.requestTimeout * 1000,
      redact: redactor.removeSecrets,
      models: options.models,
      signal: controller.signal,
      onSecrets: (secrets) => secrets.forEach((s) => redactor.add(s)),
      concurrency: maxConcurrency,
      repeat: options.scale.repeat,
      graderModels: options.scale.graders,
      keepRow: shard ? (row) => inShard(shard, relative, row) : undefined,
      priceOf,
      mayStart: () => costs.mayStart(),
      onResult: (row) => costs.record(row, fileEnvironment),
    });
    if (cannotRun) {
      break;
    }
    const usedEnvironment = fileEnvironment;
    if (gradersUsed && !gradersStated) {
      gradersStated = true;
      out(graderSummary(options.scale.graders, embeddingsDefaulted));
    }
    if (shard && (result.notRunnable ? !inShard(shard, relative, undefined) : result.rows.length === 0)) {
      continue;
    }
    const suite: JUnitSuite = { name: relative, file: relative, cases: [] };
    suites.push(suite);
    const listed = await listedIn(usedEnvironment);
    if (result.notRunnable) {
      failed++;
      const where = `${relative}:${result.notRunnable.line + 1}`;
      out(`  FAIL  ${where}  ${result.notRunnable.message}`);
      suite.cases.push({
        name: path.basename(file),
        time: 0,
        failure: { message: result.notRunnable.message, detail: where },
      });
      continue;
    }
    const lines = readCheckLines(text);
    const rows = [...result.rows].sort(inFileOrder);
    const tests = foldAttempts({ ...result, rows }, lines.expectations);
    const fileFailures = tests.filter((t) => !t.passed);
    const times = rows.flatMap((r) => (r.kind === 'run' ? [r.result.observed.elapsedMs] : []));
    const medianMs = median(times);
    const timing =
      medianMs === undefined ? '' : rows.length > 1 ? `  (median ${formatMs(medianMs)})` : `  (${formatMs(medianMs)})`;
    const count = tests.length > 1 ? `  ${tests.length - fileFailures.length}/${tests.length} passed` : '';
    const tally = tests.length === 1 && tests[0].tally ? `  ${tests[0].tally}${tests[0].flaky ? ', flaky' : ''}` : '';
    // `total cost` lines and requests --max-cost kept back: a file with either is not a pass.
    const extra = costCases(result, relative, costs.stopped);
    const clean = fileFailures.length === 0 && extra.failed === 0 && extra.notRun === 0;
    out(`  ${clean ? 'PASS' : 'FAIL'}  ${relative}${count}${tally}${timing}`);
    const warned = new Set<string>();
    const lifecycleOf = (row: (typeof tests)[number]['shown']) => {
      const model = row.kind === 'run' ? row.result.model : undefined;
      const warning = model === undefined ? undefined : lifecycleWarning(model, listed, Date.now());
      if (model !== undefined && warning && !warned.has(model)) {
        warned.add(model);
        out(`        warning: ${warning.message}`);
      }
      return warning ? [{ name: 'model-lifecycle', value: `${model}: ${warning.property}` }] : [];
    };
    for (const test of tests) {
      const row = test.shown;
      const failures = allFailures(row);
      const name = tests.length > 1 || row.label !== 'the payload' ? row.label : path.basename(file);
      const prefix = tests.length > 1 ? `${row.label}: ` : '';
      if (tests.length > 1 && test.tally) {
        out(`        ${prefix}${test.tally}${test.flaky ? ', flaky' : ''}`);
      }
      test.grades.forEach((g) => out(`        ${prefix}${oneLine(g)}`));
      const properties = [
        ...(test.tally ? [{ name: 'attempts', value: test.tally }] : []),
        ...(test.flaky ? [{ name: 'flaky', value: 'true' }] : []),
        ...test.grades.map((g) => ({ name: 'grade', value: g })),
        // The dataset row's line: the name says which case, this where it is (and the merge keeps the file's order).
        ...(row.row ? [{ name: 'line', value: String(row.row.line) }] : []),
        ...lifecycleOf(row),
        ...costProperties(row),
      ];
      if (test.passed || failures.length === 0) {
        passed++;
        suite.cases.push({ name, time: test.time, properties });
        continue;
      }
      failed++;
      const report = failureReport(failures, lines.expectations, relative);
      for (const block of report.blocks) {
        out(`        ${prefix}${block.heading}`);
        block.lines.forEach((l) => out(`          ${oneLine(l)}`));
      }
      // A request stopped by a deadline did not fail its check: it is an error of the run.
      const stopped =
        row.kind === 'run' &&
        row.result.observed.status === undefined &&
        (row.result.observed.timedOut === true || runTimedOut);
      suite.cases.push({
        name,
        time: test.time,
        [stopped ? 'error' : 'failure']: { message: report.message, detail: report.detail },
        properties,
      });
    }
    extra.lines.forEach((l) => out(l));
    suite.cases.push(...extra.cases);
    passed += extra.passed;
    failed += extra.failed;
    notRun += extra.notRun;
    if (result.skippedRows > 0) {
      out(`        ${result.skippedRows} more dataset rows were not run (--max-rows ${options.maxRows})`);
    }
  }
  await disposeClients();
  clearTimeout(runTimer);
  if (runTimedOut) {
    const message = `the run was stopped at its deadline (--run-timeout ${options.runTimeout} s); ${files.length - suites.length} payload files were not run`;
    suites.push({
      name: 'model-access check',
      file: '',
      cases: [{ name: 'run deadline', time: 0, error: { message, detail: message } }],
    });
    err(`model-access check: ${message}`);
  }
  const writeJunit = (): boolean => {
    if (!options.junit) {
      return true;
    }
    try {
      writeReportFile(
        path.resolve(io.cwd, options.junit),
        junitXml(suites, redactor.removeSecrets, {
          run: fingerprint,
          shard: shard ? `${shard.index}/${shard.count}` : undefined,
        }),
      );
      out(`JUnit report: ${options.junit}`);
      return true;
    } catch (e) {
      err(`model-access check: the JUnit report could not be written to ${options.junit}: ${(e as Error).message}`);
      return false;
    }
  };
  if (cannotRun) {
    const message = `the checks could not run: ${cannotRun}`;
    err(`model-access check: ${message}`);
    // In the report too, as an error of the run (not of a payload): a merge of the shards exits 2 like this run.
    suites.push({
      name: 'model-access check',
      file: '',
      cases: [{ name: 'service', time: 0, error: { message, detail: message } }],
    });
    writeJunit();
    return EXIT_CANNOT_RUN;
  }
  if (costs.stopped) {
    const filesLeft = files.length - filesRun;
    const message = `the run was stopped: ${costs.stopped}; ${requestCount(notRun)} and ${filesLeft} payload file${filesLeft === 1 ? '' : 's'} were not run`;
    suites.push({
      name: 'model-access check',
      file: '',
      cases: [{ name: 'max cost', time: 0, error: { message, detail: message } }],
    });
    err(`model-access check: ${message}`);
  }
  const elapsed = formatMs(performance.now() - started);
  out('');
  out(`${passed} passed, ${failed} failed${notRun > 0 ? `, ${notRun} not run` : ''} in ${elapsed}`);
  costs.summary().forEach((l) => out(l));
  const waited = waitSummary(waits, limiter.decreases);
  if (waited) {
    out(waited);
  }
  if (store) {
    out(cacheSummary(cacheStats));
  }
  if (!writeJunit()) {
    return EXIT_CANNOT_RUN;
  }
  if (runTimedOut || costs.stopped) {
    return EXIT_CANNOT_RUN;
  }
  if (keyProblems > 0) {
    err('model-access check: some payloads could not run: their environment has no key of its own (see above).');
    return EXIT_CANNOT_RUN;
  }
  return failed > 0 ? EXIT_FAILED : EXIT_PASSED;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '⏎');
}

function safeRead(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A client for `env`, or why it cannot be used (the service refused the key, or cannot be reached). */
export async function openClient(
  env: Environment,
  key: string,
  processEnv: Record<string, string | undefined>,
  redactor: Redactor,
  maxResponseBytes: number,
  /** The environments file's environments: which of them a secret header's value may go to. */
  environments: readonly Environment[],
): Promise<ModelService | string> {
  // A secret header's value goes only to the environment it belongs to (keys.ts).
  const found = secretHeadersFor(env, processEnv, environments);
  if ('problem' in found) {
    return found.problem;
  }
  const { secrets } = found;
  Object.values(secrets).forEach((value) => redactor.add(value));
  let client: ServiceClient;
  try {
    client = new ServiceClient({
      baseUrl: env.baseUrl,
      apiKey: async () => key,
      headers: { ...env.headers },
      secretHeaders: async () => secrets,
      userAgent: 'model-access-cli',
      // The limit Send has: a body is cut there (and the check fails saying so), a stream stopped there.
      maxBodyBytes: maxResponseBytes,
    });
  } catch (e) {
    return `${displayUrl(env.baseUrl)} is not a usable service URL: ${(e as Error).message}`;
  }
  const probe = await client.probe();
  if (probe.status === 401 || probe.status === 403) {
    await client.dispose();
    return `the service at ${displayUrl(env.baseUrl)} refused the API key (HTTP ${probe.status}); check MODEL_ACCESS_API_KEY`;
  }
  if (probe.status === undefined) {
    await client.dispose();
    return `the service at ${displayUrl(env.baseUrl)} cannot be reached: ${probe.error ?? 'no answer'}`;
  }
  return client;
}
