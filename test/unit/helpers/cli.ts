// The command line's main() run in this process, its stdout and stderr captured as a person's terminal shows them.
import { main, type CliIo } from '../../../src/cli/check';

export interface Ran {
  code: number;
  out: string;
  err: string;
}

/** `model-access <args>` with environment `env` in folder `cwd`: the exit code and the lines written. */
export async function runCli(args: string[], env: Record<string, string | undefined>, cwd: string): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, cwd, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
