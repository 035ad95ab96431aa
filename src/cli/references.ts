/**
 * `model-access references [paths…]`: where the code names the registry's models, and what the registry
 * says of each (issue 45) — the editor's diagnostics for CI. It lists the models as `model-access models`
 * does (same service, key and client), scans the paths with the references core, judges each reference
 * (retired or gone: error; retiring or deprecated: warning; a near miss: "did you mean"), prints
 * `file:line:column: severity: message` for each that deserves a word, and fails (exit 1) when one is at or
 * above `--fail-on`. `--since FILE` (a list saved by `models --save`) makes an id the registry listed then and
 * no longer lists "gone" rather than unknown. `--json` prints every reference, current ones too; `--sarif
 * FILE` writes SARIF 2.1.0 for code scanning. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelEntry } from '../api/types';
import { makeIdLookup } from '../references/core/idLookup';
import { DEFAULT_WARN_DAYS, judgeReference, type ReferenceVerdict } from '../references/core/referenceState';
import { DEFAULT_EXCLUDE, scanFolders, type SkipReason } from '../references/core/scan';
import type { ModelReference } from '../references/core/types';
import { EXIT_CANNOT_RUN, EXIT_FAILED, EXIT_PASSED } from './cliIo';
import { readModelList, terminalSafeJson } from './modelList';
import { listRegistry, type ModelsDeps } from './models';
import { writeReportFile } from './reportFile';
import { sarifLog, type SarifReference } from './sarif';

export const REFERENCES_USAGE = [
  'Usage: model-access references [paths…] [options]',
  '',
  'Finds the model ids the code names (string literals and config values in Python, JavaScript/TypeScript,',
  'Java, Go, C#, Ruby, YAML, JSON, TOML, .env, .properties, notebooks and HCL; .gitignore honoured) and',
  'says what the registry says of each: retired, retiring, deprecated, or an unknown id one edit from a model.',
  'Paths: folders or files (default: the current folder).',
  '',
  'Options:',
  '  --fail-on STATE       exit 1 when a reference is this bad or worse (default retired):',
  '                          retired     retired, or gone since --since',
  '                          retiring    also a model with a retirement date (see --within)',
  '                          deprecated  also a deprecated model',
  '                          unknown     also an unknown id one edit from a model ("did you mean")',
  '  --within DAYS         a retiring model counts for --fail-on only when it retires within DAYS, and is',
  `                        an error rather than a warning from then on (default ${DEFAULT_WARN_DAYS})`,
  '  --since FILE          a list saved by model-access models --save: its models the registry no longer',
  '                        lists are reported as gone',
  '  --exclude GLOB        leave out files and folders (repeatable; node_modules and .git always are)',
  '  --json                print every reference (current ones too) as JSON instead of lines',
  '  --sarif FILE          also write the references as SARIF 2.1.0 (for code scanning)',
  '  --env NAME            the models of this environment (from --environments)',
  '  --environments FILE   environments: a JSON list, or a settings.json with "modelAccess.environments"',
  '  --timeout S           the most listing the models may take (default 120 s)',
  '',
  'Environment: MODEL_ACCESS_BASE_URL, MODEL_ACCESS_API_KEY, as for model-access models.',
  '',
  'Exit code: 0 nothing at or above --fail-on, 1 something is, 2 the models could not be listed or the',
  'arguments are wrong.',
];

const FAIL_ON = ['retired', 'retiring', 'deprecated', 'unknown'] as const;
type FailOn = (typeof FAIL_ON)[number];

interface ReferencesOptions {
  paths: string[];
  exclude: string[];
  failOn: FailOn;
  within?: number;
  since?: string;
  json: boolean;
  sarif?: string;
  envName?: string;
  environmentsFile?: string;
  timeout: number;
  help: boolean;
}

const WITH_VALUE = new Set([
  '--exclude',
  '--fail-on',
  '--within',
  '--since',
  '--sarif',
  '--env',
  '--environments',
  '--timeout',
]);

function parseReferencesArgs(args: readonly string[]): ReferencesOptions | string {
  const o: ReferencesOptions = { paths: [], exclude: [], failOn: 'retired', json: false, timeout: 120, help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') {
      o.help = true;
    } else if (a === '--json') {
      o.json = true;
    } else if (WITH_VALUE.has(a)) {
      const v = args[++i];
      if (v === undefined || v === '') {
        return `${a} needs a value`;
      }
      if (a === '--fail-on') {
        if (!(FAIL_ON as readonly string[]).includes(v)) {
          return `--fail-on takes ${FAIL_ON.join(', ')}`;
        }
        o.failOn = v as FailOn;
      } else if (a === '--within' || a === '--timeout') {
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0 || (a === '--timeout' && n === 0)) {
          return a === '--within'
            ? '--within needs a number of days (0 or more)'
            : '--timeout needs a number of seconds above 0';
        }
        if (a === '--within') {
          o.within = n;
        } else {
          o.timeout = n;
        }
      } else if (a === '--exclude') {
        o.exclude.push(v);
      } else if (a === '--since') {
        o.since = v;
      } else if (a === '--sarif') {
        o.sarif = v;
      } else if (a === '--env') {
        o.envName = v;
      } else {
        o.environmentsFile = v;
      }
    } else if (a.startsWith('-') && a !== '-') {
      return `unknown option ${a}`;
    } else {
      o.paths.push(a);
    }
  }
  return o;
}

/** Whether a verdict fails the run at `failOn` (`within`: days before a retirement from which it counts). */
export function fails(verdict: ReferenceVerdict, failOn: FailOn, now: number, within: number | undefined): boolean {
  switch (verdict.state) {
    case 'retired':
    case 'gone':
      return true;
    case 'retiring':
      return failOn !== 'retired' && (within === undefined || (verdict.date as number) - now <= within * 86_400_000);
    case 'deprecated':
      return failOn === 'deprecated' || failOn === 'unknown';
    case 'unknown':
      return failOn === 'unknown' && verdict.severity !== 'none';
    default:
      return false;
  }
}

/** "1 reference", "3 references". */
const counted = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;

interface Found extends SarifReference {
  fails: boolean;
}

export async function referencesMain(args: readonly string[], deps: ModelsDeps): Promise<number> {
  const { out, err } = deps;
  const options = parseReferencesArgs(args);
  if (typeof options === 'string') {
    err(`model-access references: ${options}. Run model-access references --help.`);
    return EXIT_CANNOT_RUN;
  }
  if (options.help) {
    REFERENCES_USAGE.forEach((l) => out(l));
    return EXIT_PASSED;
  }
  const paths = options.paths.length > 0 ? options.paths : ['.'];
  const roots = paths.map((p) => path.resolve(deps.cwd, p));
  const missing = paths.find((_, i) => !fs.existsSync(roots[i]));
  if (missing !== undefined) {
    err(`model-access references: ${missing} does not exist; name folders or files to scan.`);
    return EXIT_CANNOT_RUN;
  }
  // The saved list first: a wrong file stops the run before the service is asked anything.
  let saved: ModelEntry[] = [];
  if (options.since !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(deps.cwd, options.since), 'utf8');
    } catch (e) {
      err(`model-access references: the list ${options.since} could not be read: ${(e as Error).message}`);
      return EXIT_CANNOT_RUN;
    }
    const reading = readModelList(text);
    if (!reading.ok) {
      err(`model-access references: ${options.since} cannot be used with --since: ${reading.problem}.`);
      return EXIT_CANNOT_RUN;
    }
    saved = reading.models;
  }
  // Nothing is called unknown, or gone, while the registry is unknown: no list, no scan.
  const listing = await listRegistry(options, deps);
  if ('problem' in listing) {
    err(`model-access references: ${listing.problem}`);
    return EXIT_CANNOT_RUN;
  }
  const { listed, where } = listing;
  listed.warnings.forEach((w) => err(`model-access references: warning: ${w}`));
  const entries = new Map<string, ModelEntry>();
  for (const m of listed.models) {
    if (!entries.has(m.id)) {
      entries.set(m.id, m);
    }
  }
  // A list read only in part would call its missing models gone: then nothing is.
  const gone = new Set(listed.warnings.length > 0 ? [] : saved.map((m) => m.id).filter((id) => !entries.has(id)));
  const ids = makeIdLookup([...entries.keys(), ...gone]);
  const now = (deps.now ?? Date.now)();
  const scan = await scanFolders(roots, { ids, exclude: [...DEFAULT_EXCLUDE, ...options.exclude] });

  const found: Found[] = [];
  const files = [...scan.files.keys()].sort();
  for (const file of files) {
    const relative = path.relative(deps.cwd, file).split(path.sep).join('/') || path.basename(file);
    for (const ref of scan.files.get(file) as ModelReference[]) {
      const verdict = judgeReference(ref, ref.listed ? entries.get(ref.id) : undefined, {
        now,
        warnDays: options.within ?? DEFAULT_WARN_DAYS,
        goneIds: gone,
      });
      found.push({ file: relative, ref, verdict, fails: fails(verdict, options.failOn, now, options.within) });
    }
  }
  const failing = found.filter((f) => f.fails).length;

  if (options.sarif !== undefined) {
    try {
      writeReportFile(
        path.resolve(deps.cwd, options.sarif),
        deps.redactor.removeSecrets(`${JSON.stringify(sarifLog(found), null, 2)}\n`),
      );
    } catch (e) {
      err(
        `model-access references: the SARIF report could not be written to ${options.sarif}: ${(e as Error).message}`,
      );
      return EXIT_CANNOT_RUN;
    }
  }

  const byState: Record<string, number> = {};
  found.forEach((f) => (byState[f.verdict.state] = (byState[f.verdict.state] ?? 0) + 1));
  const skipped = Object.entries(scan.skipped)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  if (options.json) {
    const document = {
      format: 'model-access/references@1',
      service: where,
      failOn: options.failOn,
      ...(options.within !== undefined ? { within: options.within } : {}),
      failing,
      scanned: scan.scanned,
      skipped: scan.skipped as Partial<Record<SkipReason, number>>,
      references: found.map(({ file, ref, verdict, fails: f }) => ({
        file,
        line: ref.line + 1,
        column: ref.character + 1,
        id: ref.id,
        state: verdict.state,
        severity: verdict.severity,
        message: verdict.message,
        ...(verdict.successor !== undefined ? { successor: verdict.successor } : {}),
        ...(ref.nearest !== undefined ? { didYouMean: ref.nearest } : {}),
        ...(verdict.date !== undefined ? { date: new Date(verdict.date).toISOString() } : {}),
        fails: f,
      })),
    };
    terminalSafeJson(document).split('\n').forEach(out);
  } else {
    for (const { file, ref, verdict } of found) {
      if (verdict.severity !== 'none') {
        out(`${file}:${ref.line + 1}:${ref.character + 1}: ${verdict.severity}: ${verdict.message}`);
      }
    }
    const states = Object.entries(byState)
      .map(([state, n]) => `${n} ${state}`)
      .join(', ');
    out(
      `${counted(found.length, 'reference', 'references')} to the models of ${where} in ${counted(scan.files.size, 'file', 'files')}${states ? ` (${states})` : ''}; ${counted(scan.scanned, 'file', 'files')} scanned${skipped ? `, skipped: ${skipped}` : ''}.`,
    );
  }
  if (failing > 0) {
    err(
      `model-access references: ${counted(failing, 'reference is', 'references are')} ${options.failOn} or worse (--fail-on ${options.failOn}).`,
    );
    return EXIT_FAILED;
  }
  return EXIT_PASSED;
}
