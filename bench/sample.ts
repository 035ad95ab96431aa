/** Worker-side helpers: memory figures of this process, and handing the result back to the orchestrator. */

export const RESULT_PREFIX = 'BENCH_RESULT ';

/** Called by the worker to hand its figures back. */
export function reportResult(result: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export function rssMiB(): number {
  return process.memoryUsage.rss() / (1024 * 1024);
}

export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
