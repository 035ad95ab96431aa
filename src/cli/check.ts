/**
 * `model-access check "checks/**\/*.jsonc"`: the payloads' checks without VS Code, for CI. The service URL and
 * key come from MODEL_ACCESS_BASE_URL / MODEL_ACCESS_API_KEY (and an environments file for `// @env`); it
 * prints a readable summary, writes JUnit XML with `--junit FILE`, and exits 0 when every check passed, 1 when
 * one failed, 2 when the checks could not run (no URL or key, nothing matched, the service unreachable or the
 * key refused). The key and secret header values never reach the output or the report: every line passes
 * through the redactor. Only pure code: api, common, domain and checks/core; no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServiceClient } from '../api/client';
import { Redactor } from '../api/redact';
import type { ModelService } from '../api/types';
import { findEnvironment, readEnvironments, type Environment } from '../domain/environments';
import { variableContext } from '../domain/payload/variableContext';
import { describeExpectation, formatMs } from '../checks/core/expectations';
import { firstFailure, runCheckFile, type Target } from '../checks/core/fileRun';
import { hasChecks, readCheckLines } from '../checks/core/checkFile';
import { median } from '../checks/core/planner';
import { expandPatterns } from './glob';
import { junitXml, type JUnitSuite } from './junit';

export const EXIT_PASSED = 0;
export const EXIT_FAILED = 1;
export const EXIT_CANNOT_RUN = 2;

export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

interface Options {
  patterns: string[];
  junit?: string;
  envName?: string;
  environmentsFile?: string;
  concurrency: number;
  maxRows: number;
  models: string[];
}

const USAGE = [
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
  "  --model ID            run on this model instead of the payload's (repeat for several models)",
  '',
  'Environment: MODEL_ACCESS_BASE_URL, MODEL_ACCESS_API_KEY (the key for every environment),',
  'MODEL_ACCESS_SECRET_<HEADER> for an environment header whose value is "{{secret}}"',
  '(e.g. MODEL_ACCESS_SECRET_X_ORG_TOKEN for X-Org-Token), MODEL_ACCESS_ENVIRONMENTS (the file).',
  '',
  'Exit code: 0 every check passed, 1 a check failed, 2 the checks could not run.',
];

function parseArgs(args: readonly string[]): Options | string {
  const o: Options = { patterns: [], concurrency: 4, maxRows: 1000, models: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
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

/** `X-Org-Token` → `MODEL_ACCESS_SECRET_X_ORG_TOKEN`. */
export function secretHeaderVariable(header: string): string {
  return `MODEL_ACCESS_SECRET_${header.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

function loadEnvironments(file: string, cwd: string): { environments: Environment[] } | { problem: string } {
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
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  const key = io.env.MODEL_ACCESS_API_KEY?.trim();
  redactor.add(key);
  // Every secret the run knows (the key, secret header values, `{{$env …}}` values) in each form a server may
  // echo it; not the credential-looking patterns of the log, which would mangle answers ("token budget").
  const out = (line: string) => io.out(redactor.removeSecrets(line));
  const err = (line: string) => io.err(redactor.removeSecrets(line));

  const command = args[0];
  if (command === '--help' || command === '-h' || command === undefined) {
    USAGE.forEach((l) => io.out(l));
    return command === undefined ? EXIT_CANNOT_RUN : EXIT_PASSED;
  }
  if (command !== 'check') {
    err(`model-access: unknown command "${command}" (the command is: model-access check …)`);
    return EXIT_CANNOT_RUN;
  }
  const options = parseArgs(args.slice(1));
  if (typeof options === 'string') {
    err(`model-access check: ${options}. Run model-access --help.`);
    return EXIT_CANNOT_RUN;
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
  const baseUrl = io.env.MODEL_ACCESS_BASE_URL?.trim();
  let fallback: Environment | undefined;
  if (options.envName !== undefined) {
    fallback = findEnvironment(environments, options.envName);
    if (!fallback) {
      err(`model-access check: no environment is called ${options.envName} in the environments file.`);
      return EXIT_CANNOT_RUN;
    }
  } else if (baseUrl) {
    fallback = {
      name: 'MODEL_ACCESS_BASE_URL',
      baseUrl,
      source: 'environment',
      headers: {},
      secretHeaders: [],
      variables: {},
      shorthand: true,
    };
  }

  const { files: matched, unmatched } = expandPatterns(options.patterns, io.cwd);
  const files = matched.filter((f) => hasChecks(safeRead(f) ?? ''));
  unmatched.forEach((p) => err(`model-access check: no file matches ${p}`));
  if (files.length === 0) {
    err('model-access check: no payload with a // @expect line was found; nothing was checked.');
    return EXIT_CANNOT_RUN;
  }

  // One client per environment, checked once before the first request: a refused key or a service that
  // cannot be reached stops the whole run (exit 2), rather than failing every check with the same message.
  const clients = new Map<string, Promise<ModelService | string>>();
  const clientFor = (env: Environment): Promise<ModelService | string> => {
    let c = clients.get(env.name);
    if (!c) {
      c = openClient(env, key, io.env, redactor);
      clients.set(env.name, c);
    }
    return c;
  };
  let cannotRun: string | undefined;
  const controller = new AbortController();
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
    const client = await clientFor(env);
    if (typeof client === 'string') {
      cannotRun ??= client;
      controller.abort();
      return { problem: client };
    }
    return {
      client,
      variables: variableContext(env, { readEnv: (name) => io.env[name] }),
    };
  };

  const started = performance.now();
  const suites: JUnitSuite[] = [];
  let passed = 0;
  let failed = 0;
  out(`model-access check: ${files.length} payload file${files.length === 1 ? '' : 's'}`);
  for (const file of files) {
    if (controller.signal.aborted) {
      break;
    }
    const relative = path.relative(io.cwd, file).split(path.sep).join('/');
    const text = safeRead(file) ?? '';
    const dir = path.dirname(file);
    const result = await runCheckFile(text, {
      target,
      readText: (p) => safeRead(path.resolve(dir, p)),
      concurrency: options.concurrency,
      maxRows: options.maxRows,
      models: options.models,
      signal: controller.signal,
      onSecrets: (secrets) => secrets.forEach((s) => redactor.add(s)),
    });
    if (cannotRun) {
      break;
    }
    const suite: JUnitSuite = { name: relative, file: relative, cases: [] };
    suites.push(suite);
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
    const rows = [...result.rows].sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
    const fileFailures = rows.filter((r) => firstFailure(r) !== undefined);
    const times = rows.flatMap((r) => (r.kind === 'run' ? [r.result.observed.elapsedMs] : []));
    const medianMs = median(times);
    const timing =
      medianMs === undefined ? '' : rows.length > 1 ? `  (median ${formatMs(medianMs)})` : `  (${formatMs(medianMs)})`;
    const count = rows.length > 1 ? `  ${rows.length - fileFailures.length}/${rows.length} passed` : '';
    out(`  ${fileFailures.length === 0 ? 'PASS' : 'FAIL'}  ${relative}${count}${timing}`);
    for (const row of rows) {
      const failure = firstFailure(row);
      const name = rows.length > 1 || row.label !== 'the payload' ? row.label : path.basename(file);
      const time = row.kind === 'run' ? row.result.observed.elapsedMs / 1000 : 0;
      if (!failure) {
        passed++;
        suite.cases.push({ name, time });
        continue;
      }
      failed++;
      const source = lines.expectations.find((l) => l.line === failure.line);
      const what = source?.expectation ? describeExpectation(source.expectation) : (source?.source ?? '');
      const detail = [
        `${relative}:${failure.line + 1}${what ? `  ${what}` : ''}`,
        failure.message,
        ...(failure.expected !== undefined ? [`expected: ${failure.expected}`] : []),
        ...(failure.actual !== undefined ? [`actual:   ${failure.actual}`] : []),
      ];
      out(`        ${rows.length > 1 ? `${row.label}: ` : ''}line ${failure.line + 1}${what ? `  ${what}` : ''}`);
      detail.slice(1).forEach((l) => out(`          ${oneLine(l)}`));
      suite.cases.push({ name, time, failure: { message: failure.message, detail: detail.join('\n') } });
    }
    if (result.skippedRows > 0) {
      out(`        ${result.skippedRows} more dataset rows were not run (--max-rows ${options.maxRows})`);
    }
  }
  await Promise.all(
    [...clients.values()].map(async (c) =>
      typeof (await c) === 'string' ? undefined : ((await c) as ModelService).dispose(),
    ),
  );
  if (cannotRun) {
    err(`model-access check: the checks could not run: ${cannotRun}`);
    return EXIT_CANNOT_RUN;
  }
  const elapsed = formatMs(performance.now() - started);
  out('');
  out(`${passed} passed, ${failed} failed in ${elapsed}`);
  if (options.junit) {
    try {
      const target = path.resolve(io.cwd, options.junit);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, redactor.removeSecrets(junitXml(suites)));
      out(`JUnit report: ${options.junit}`);
    } catch (e) {
      err(`model-access check: the JUnit report could not be written to ${options.junit}: ${(e as Error).message}`);
      return EXIT_CANNOT_RUN;
    }
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
async function openClient(
  env: Environment,
  key: string,
  processEnv: Record<string, string | undefined>,
  redactor: Redactor,
): Promise<ModelService | string> {
  const secrets: Record<string, string> = {};
  for (const header of env.secretHeaders) {
    const value = processEnv[secretHeaderVariable(header)];
    if (!value) {
      return `the environment ${env.name} sends the secret header ${header}: set ${secretHeaderVariable(header)}`;
    }
    redactor.add(value);
    secrets[header] = value;
  }
  let client: ServiceClient;
  try {
    client = new ServiceClient({
      baseUrl: env.baseUrl,
      apiKey: async () => key,
      headers: { ...env.headers },
      secretHeaders: async () => secrets,
      userAgent: 'model-access-cli',
    });
  } catch (e) {
    return `${env.baseUrl} is not a usable service URL: ${(e as Error).message}`;
  }
  const probe = await client.probe();
  if (probe.status === 401 || probe.status === 403) {
    await client.dispose();
    return `the service at ${env.baseUrl} refused the API key (HTTP ${probe.status}); check MODEL_ACCESS_API_KEY`;
  }
  if (probe.status === undefined) {
    await client.dispose();
    return `the service at ${env.baseUrl} cannot be reached: ${probe.error ?? 'no answer'}`;
  }
  return client;
}

if (require.main === module) {
  void main(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      // Never a stack trace: a message, and the exit code for "could not run".
      process.stderr.write(`model-access check: unexpected failure: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_CANNOT_RUN;
    },
  );
}
