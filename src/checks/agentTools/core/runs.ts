/**
 * `run_checks` and `send_payload`: the checks' own engine (../../core/fileRun.ts, runCheck.ts — what Test
 * Explorer and `model-access check` run) over payload files an agent names. Each is planned first — which
 * files, which service, how many requests — so the person can be asked before anything is sent (VS Code's
 * prepareInvocation), and the plan is what runs: the files the plan read, to the services it named, under the
 * request cap. A payload goes only to its own environment (`// @env`), the key stays with the host. Pure.
 */
import { displayText } from '../../../common/text';
import { readDataset } from '../../../domain/payload/dataset';
import { pinnedEnvironment } from '../../../domain/payload/variables';
import { hasChecks, readCheckLines } from '../../core/checkFile';
import { allFailures, inFileOrder, runCheckFile, schemaSource, type RowResult, type Target } from '../../core/fileRun';
import { planRuns } from '../../core/planner';
import { isNotRunnable, prepareCheck, runPlanned } from '../../core/runCheck';
import { LIMITS } from './definitions';
import type { Beside, PayloadRef, ToolHost, ToolService } from './host';
import { fields, InputError, optionalInteger, optionalString, workspacePatterns } from './input';
import { errorResult, okResult, SERVICE_WORDS, serviceText, type ToolResult } from './result';

/** One payload file as planned: its text, the files beside it it reads, its environment and its requests. */
interface PlannedFile {
  ref: PayloadRef;
  text: string;
  beside: Map<string, Beside>;
  /** The environment it goes to: its `// @env`, else the one the input named (undefined: active/default). */
  environment: string | undefined;
  requests: number;
  /** Why it is not run (not a check, cannot be read). */
  skipped?: string;
}

export interface RunPlan {
  files: PlannedFile[];
  /** Requests in all (graders' requests come on top). */
  requests: number;
  /** The environments the requests go to, by name (undefined: the active/default one). */
  environments: (string | undefined)[];
  /** Why nothing can run (bad input, nothing found, too many requests): the result is this error. */
  problem?: string;
  notes: string[];
}

/** The files a payload reads beside it, read before the run (the engine reads them synchronously). */
async function readBesides(ref: PayloadRef, text: string, host: ToolHost): Promise<Map<string, Beside>> {
  const lines = readCheckLines(text);
  const wanted = [
    ...(lines.each && !lines.each.problem ? [lines.each.file] : []),
    ...lines.expectations.flatMap((l) => (l.expectation?.kind === 'schema' ? [l.expectation.file] : [])),
  ];
  const beside = new Map<string, Beside>();
  for (const name of wanted.slice(0, 10)) {
    beside.set(name, await host.readBeside(ref, name));
  }
  return beside;
}

/** How many requests a payload makes: its dataset rows under the cap, times its `// @repeat`. */
function requestCount(text: string, beside: Map<string, Beside>, maxRows: number): number {
  const check = prepareCheck(text);
  if (isNotRunnable(check)) {
    return 0;
  }
  const each = check.lines.each;
  const read = each ? beside.get(each.file) : undefined;
  const rows = each ? (read?.ok ? readDataset(read.text, each.file).rows : []) : undefined;
  return planRuns(rows, [], maxRows, check.lines.repeat?.count ?? 1).runs.length;
}

/** The environment a payload goes to, or why it cannot go where the input asked. */
function environmentFor(text: string, asked: string | undefined): { environment?: string } | { problem: string } {
  const pinned = pinnedEnvironment(text)?.name;
  if (pinned !== undefined && asked !== undefined && pinned.toLowerCase() !== asked.toLowerCase()) {
    return {
      problem: `it is pinned to environment ${displayText(pinned, 80)} (// @env) and is sent only there; leave out environment, or name ${displayText(pinned, 80)}`,
    };
  }
  return { environment: pinned ?? asked };
}

export async function planChecks(
  input: unknown,
  host: ToolHost,
): Promise<RunPlan & { maxRows: number; asked?: string }> {
  const r = fields(input, ['files', 'maxRows', 'environment']);
  const patterns = workspacePatterns(r, 'files', LIMITS.patterns);
  const maxRows = optionalInteger(r, 'maxRows', 1, LIMITS.rowsMost) ?? LIMITS.rows;
  const asked = optionalString(r, 'environment');
  const found = await host.findPayloads(patterns, LIMITS.files + 1);
  const notes = [...found.problems, ...found.unmatched.map((p) => `no payload file matches ${displayText(p, 120)}`)];
  const empty = { files: [], requests: 0, environments: [], maxRows, asked, notes };
  if (found.problems.length > 0) {
    return { ...empty, problem: found.problems.join('; ') };
  }
  if (found.files.length > LIMITS.files) {
    return {
      ...empty,
      problem: `the paths name more than ${LIMITS.files} payload files; name fewer (one call runs at most ${LIMITS.files})`,
    };
  }
  const files: PlannedFile[] = [];
  const skip = (ref: PayloadRef, text: string, skipped: string) =>
    files.push({ ref, text, beside: new Map(), environment: undefined, requests: 0, skipped });
  for (const ref of found.files) {
    const text = await host.readPayload(ref);
    if (text === undefined) {
      skip(ref, '', 'it cannot be read');
      continue;
    }
    if (!hasChecks(text)) {
      skip(ref, text, 'it has no // @expect line');
      continue;
    }
    const env = environmentFor(text, asked);
    if ('problem' in env) {
      skip(ref, text, env.problem);
      continue;
    }
    const beside = await readBesides(ref, text, host);
    files.push({ ref, text, beside, environment: env.environment, requests: requestCount(text, beside, maxRows) });
  }
  const requests = files.reduce((n, f) => n + f.requests, 0);
  const environments = [...new Set(files.filter((f) => !f.skipped).map((f) => f.environment))];
  if (files.every((f) => f.skipped)) {
    return {
      ...empty,
      files,
      problem: `no payload with a // @expect line was found to run${notes.length ? ` (${notes.join('; ')})` : ''}${files.length ? `; ${files.map((f) => `${f.ref.name}: ${f.skipped}`).join('; ')}` : ''}`,
    };
  }
  if (requests > LIMITS.requests) {
    return {
      ...empty,
      files,
      requests,
      environments,
      problem: `these checks would send more requests than one call may (${requests}, at most ${LIMITS.requests}): name fewer files or lower maxRows`,
    };
  }
  return { files, requests, environments, maxRows, asked, notes };
}

async function serviceFor(
  host: ToolHost,
  cache: Map<string, Promise<ToolService | { problem: string }>>,
  name: string | undefined,
) {
  const key = name ?? '\u0000default';
  let found = cache.get(key);
  if (!found) {
    found = host.service(name);
    cache.set(key, found);
  }
  return found;
}

function failureSentences(row: RowResult): string[] {
  return allFailures(row).map((f) =>
    serviceText(
      `line ${f.line + 1}: ${f.message}${f.expected !== undefined ? ` (expected: ${f.expected}; actual: ${f.actual ?? ''})` : ''}`,
      LIMITS.failureChars,
    ),
  );
}

export async function runChecks(input: unknown, host: ToolHost, signal: AbortSignal): Promise<ToolResult> {
  const plan = await planChecks(input, host);
  if (plan.problem) {
    return errorResult(plan.problem, host.redact);
  }
  const started = Date.now();
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(LIMITS.runTimeoutMs)]);
  const services = new Map<string, Promise<ToolService | { problem: string }>>();
  const usedServices = new Set<string>();
  let passed = 0;
  let failed = 0;
  const results: Record<string, unknown>[] = [];
  for (const file of plan.files) {
    if (file.skipped) {
      results.push({ file: file.ref.name, skipped: file.skipped });
      continue;
    }
    if (deadline.aborted) {
      results.push({ file: file.ref.name, skipped: 'not run: the call reached its time limit' });
      continue;
    }
    const target = async (pinned: string | undefined): Promise<Target> => {
      // The plan named the environment; `pinned` is the payload's own `// @env`, which the plan already took.
      const found = await serviceFor(host, services, pinned ?? file.environment);
      if ('problem' in found) {
        return { problem: found.problem };
      }
      usedServices.add(found.service);
      return { client: found.client, variables: found.variables };
    };
    const result = await runCheckFile(file.text, {
      target,
      readText: (name) => {
        const b = file.beside.get(name);
        return b?.ok ? b.text : undefined;
      },
      whyUnreadable: (name) => {
        const b = file.beside.get(name);
        return b && !b.ok ? b.reason : undefined;
      },
      concurrency: LIMITS.concurrency,
      maxRows: plan.maxRows,
      maxResponseBytes: LIMITS.responseBytes,
      requestTimeoutMs: LIMITS.requestTimeoutMs,
      redact: host.redact,
      signal: deadline,
      onSecrets: (s) => host.onSecrets(s),
    });
    if (result.notRunnable) {
      failed++;
      results.push({
        file: file.ref.name,
        passed: false,
        cannotRun: serviceText(
          `line ${result.notRunnable.line + 1}: ${result.notRunnable.message}`,
          LIMITS.failureChars,
        ),
      });
      continue;
    }
    const cases = [...result.rows].sort(inFileOrder).map((row) => {
      const ok = row.kind === 'run' && row.result.passed;
      if (ok) {
        passed++;
      } else {
        failed++;
      }
      const observed = row.kind === 'run' ? row.result.observed : undefined;
      return {
        case: displayText(row.label, 200),
        passed: ok,
        ...(row.kind === 'run' && row.result.model !== undefined ? { model: displayText(row.result.model, 200) } : {}),
        ...(observed?.status !== undefined ? { status: observed.status } : {}),
        ...(observed ? { ms: Math.round(observed.elapsedMs) } : {}),
        ...(ok ? {} : { failures: failureSentences(row) }),
      };
    });
    results.push({
      file: file.ref.name,
      passed: cases.every((c) => c.passed),
      ...(result.skippedRows > 0
        ? { rowsNotRun: `${result.skippedRows} more dataset rows were not run (maxRows ${plan.maxRows})` }
        : {}),
      cases,
    });
  }
  return okResult(
    {
      summary: `${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s${deadline.aborted ? ' (stopped at the time limit)' : ''}`,
      services: [...usedServices],
      budget: "Each case sent a request to the organization's Model Access Service, on its budget.",
      note: SERVICE_WORDS,
      ...(plan.notes.length > 0 ? { notes: plan.notes } : {}),
      serviceSays: { files: results },
    },
    host.redact,
  );
}

/** The one payload `send_payload` sends: read, checked, and its environment — or why it is not sent. */
export async function planSend(
  input: unknown,
  host: ToolHost,
): Promise<
  { ref: PayloadRef; text: string; environment: string | undefined; beside: Map<string, Beside> } | { problem: string }
> {
  const r = fields(input, ['file', 'environment']);
  const [file] = workspacePatterns({ file: r.file }, 'file', 1);
  if (/[*?{]/.test(file)) {
    throw new InputError('file names one payload file; globs are for run_checks');
  }
  const asked = optionalString(r, 'environment');
  const found = await host.findPayloads([file], 1);
  if (found.problems.length > 0) {
    return { problem: found.problems.join('; ') };
  }
  const ref = found.files[0];
  const text = ref && (await host.readPayload(ref));
  if (!ref || text === undefined) {
    return {
      problem: `no payload file ${displayText(file, 120)} in the workspace (a .json or .jsonc file, relative to the workspace folder)`,
    };
  }
  const check = prepareCheck(text);
  if (isNotRunnable(check)) {
    return { problem: `${ref.name} cannot be sent: line ${check.line + 1}: ${check.message}` };
  }
  if (check.lines.each) {
    return { problem: `${ref.name} runs over a dataset (// @each): send_payload sends one request; use run_checks` };
  }
  const env = environmentFor(text, asked);
  if ('problem' in env) {
    return { problem: `${ref.name} is not sent: ${env.problem}` };
  }
  return { ref, text, environment: env.environment, beside: await readBesides(ref, text, host) };
}

export async function sendPayload(input: unknown, host: ToolHost, signal: AbortSignal): Promise<ToolResult> {
  const plan = await planSend(input, host);
  if ('problem' in plan) {
    return errorResult(plan.problem, host.redact);
  }
  const service = await host.service(plan.environment);
  if ('problem' in service) {
    return errorResult(service.problem, host.redact);
  }
  const check = prepareCheck(plan.text);
  if (isNotRunnable(check)) {
    return errorResult(check.message, host.redact);
  }
  const readText = (name: string) => {
    const b = plan.beside.get(name);
    return b?.ok ? b.text : undefined;
  };
  const result = await runPlanned(
    check,
    {},
    {
      client: service.client,
      variables: service.variables,
      schemas: schemaSource(readText),
      signal: AbortSignal.any([signal, AbortSignal.timeout(LIMITS.requestTimeoutMs + 5_000)]),
      onSecrets: (s) => host.onSecrets(s),
      maxResponseBytes: LIMITS.responseBytes,
      requestTimeoutMs: LIMITS.requestTimeoutMs,
      redact: host.redact,
    },
  );
  const o = result.observed;
  const usage = o.answer?.usage;
  const text = o.answer?.text;
  return okResult(
    {
      file: plan.ref.name,
      service: service.service,
      environment: service.environment,
      budget: "This request was sent to the organization's Model Access Service and spent its budget.",
      ...(o.status !== undefined ? { status: o.status } : {}),
      ms: Math.round(o.elapsedMs),
      ...(usage ? { usage: { input: usage.input, output: usage.output, total: usage.total } } : {}),
      ...(o.failure !== undefined ? { failure: displayText(o.failure, 400) } : {}),
      ...(o.answer?.vectors ? { vectors: o.answer.vectors.length, dimensions: o.answer.vectors[0]?.length ?? 0 } : {}),
      note: SERVICE_WORDS,
      serviceSays: {
        ...(result.model !== undefined ? { model: displayText(result.model, 200) } : {}),
        ...(o.errorMessage !== undefined ? { error: displayText(o.errorMessage, 1000) } : {}),
        ...(text !== undefined ? { answer: serviceText(text, LIMITS.answerChars) } : {}),
      },
      ...(text !== undefined && text.length > LIMITS.answerChars
        ? { answerCut: `the answer's text was cut at ${LIMITS.answerChars} characters` }
        : {}),
      ...(result.results.length > 0
        ? {
            checks: result.results.map((x) => ({
              line: x.line + 1,
              passed: x.outcome.passed,
              ...(x.outcome.passed ? {} : { failure: serviceText(x.outcome.message ?? '', LIMITS.failureChars) }),
            })),
          }
        : {}),
    },
    host.redact,
  );
}
