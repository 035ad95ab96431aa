/**
 * What every `model-access` command shares: its exit codes (the same for every command, so a CI job reads
 * them one way) and the process it runs in, passed in so tests drive the commands without spawning one.
 */
export const EXIT_PASSED = 0;
export const EXIT_FAILED = 1;
export const EXIT_CANNOT_RUN = 2;

export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}
