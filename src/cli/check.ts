/**
 * `model-access`: the command line (package.json `bin`, bundled into dist/cli.js). This file is its entry: it
 * makes the output safe once for every command and hands the arguments to the command named first:
 * `check` (checkCommand.ts), `models` (models.ts), `merge` (merge.ts). Every line a command prints passes
 * through the redactor, then has its control characters made visible and CI workflow commands made inert.
 * Only pure code: api, common, domain and checks/core; no `vscode` import.
 */
import { DEFAULT_MAX_RESPONSE_BYTES } from '../api/answerLimits';
import { Redactor } from '../api/redact';
import { inertCiCommands, visibleControls } from '../common/controlChars';
import { CHECK_USAGE, checkMain, loadEnvironments, openClient, type CommandContext } from './checkCommand';
import { EXIT_CANNOT_RUN, EXIT_PASSED, type CliIo } from './cliIo';
import { mcpMain } from './mcp';
import { mergeMain } from './merge';
import { modelsMain, type ModelsDeps } from './models';
import { referencesMain } from './references';

export { EXIT_CANNOT_RUN, EXIT_FAILED, EXIT_PASSED, type CliIo } from './cliIo';
export { secretHeaderVariable } from './keys';

/** What the commands that list the registry (models, references) need: the output, the key, a client. */
const registryDeps = ({ io, out, err, redactor }: CommandContext): ModelsDeps => ({
  env: io.env,
  cwd: io.cwd,
  out,
  err,
  redactor,
  loadEnvironments,
  openClient: (env, envKey, environments) =>
    openClient(env, envKey, io.env, redactor, DEFAULT_MAX_RESPONSE_BYTES, environments),
});

/** The commands by name; a new command is one entry here and one line in OTHER_COMMANDS. */
const COMMANDS: Record<string, (args: readonly string[], context: CommandContext) => Promise<number>> = {
  check: checkMain,
  mcp: mcpMain,
  merge: (args, { io, out, err }) => mergeMain(args, { cwd: io.cwd, out, err }),
  models: (args, context) => modelsMain(args, registryDeps(context)),
  references: (args, context) => referencesMain(args, registryDeps(context)),
};

const OTHER_COMMANDS = [
  '',
  'Other commands:',
  '  model-access models   list the models, or save the list for --changed-since (model-access models --help)',
  '  model-access merge    merge the JUnit reports of shards (model-access merge --help)',
  '  model-access mcp      serve the models, cards, checks and Send to agents over MCP (model-access mcp --help)',
  '  model-access references  where the code names models, and their lifecycle (model-access references --help)',
];

export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  const key = io.env.MODEL_ACCESS_API_KEY?.trim();
  redactor.add(key);
  // Every environment's own key (MODEL_ACCESS_API_KEY_<NAME>) and secret header value (MODEL_ACCESS_SECRET_…).
  Object.entries(io.env).forEach(
    ([name, value]) =>
      (name.startsWith('MODEL_ACCESS_API_KEY_') || name.startsWith('MODEL_ACCESS_SECRET_')) && redactor.add(value),
  );
  // Every secret the run knows (the key, secret header values, `{{$env …}}` values) in each form a server may
  // echo it; not the credential-looking patterns of the log, which would mangle answers ("token budget").
  // Then every control character made visible: what a service, a dataset or a file name says cannot drive the
  // terminal or the CI log (erase a line to forge PASS, hide a link, start a workflow command).
  // And no line a CI runner reads as its own command (`::add-mask::`, `##[error]`).
  const out = (line: string) => io.out(inertCiCommands(visibleControls(redactor.removeSecrets(line))));
  const err = (line: string) => io.err(inertCiCommands(visibleControls(redactor.removeSecrets(line))));

  const command = args[0];
  if (command === '--help' || command === '-h' || command === undefined) {
    [...CHECK_USAGE, ...OTHER_COMMANDS].forEach((l) => io.out(l));
    return command === undefined ? EXIT_CANNOT_RUN : EXIT_PASSED;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    const names = Object.keys(COMMANDS)
      .map((name) => `model-access ${name} …`)
      .join(', ');
    err(`model-access: unknown command "${command}" (the commands are: ${names})`);
    return EXIT_CANNOT_RUN;
  }
  try {
    return await run(args.slice(1), { io, out, err, redactor, key });
  } catch (e) {
    // Never a stack trace, and never a secret: the message goes through the redactor like every other line.
    err(`model-access ${command}: unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT_CANNOT_RUN;
  }
}

if (require.main === module) {
  // `model-access models | head`: a reader that stops reading ends the output, without an error's stack.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      process.exit(process.exitCode ?? EXIT_PASSED);
    }
    throw e;
  });
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
