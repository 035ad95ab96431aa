/**
 * The list path in instructions rather than seconds, for a loaded machine: one side of bench/peers.ts (floor,
 * ours, sdk) run N times against a service started apart, so `valgrind --tool=callgrind` counts only the
 * client. Instructions of N=3 minus N=1 is the cost of two lists, start-up and most compilation left out:
 *   npx tsx test/server/cli.ts --models 100000 --page-size 1000 --max-page-size 1000 --port 40123 &
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p node --expose-gc -r tsx/cjs bench/listInstructions.ts \
 *     http://127.0.0.1:40123 <key> ours 3
 * (docs/benchmarks.md, "The model list in instructions").
 */
import { sides } from './peers';

const [url, key, side, n] = process.argv.slice(2);
void (async () => {
  const run = await sides(url, key, 100_000);
  for (let i = 0; i < Number(n); i++) {
    await run[side as keyof typeof run]();
    // Each run from the same heap (node --expose-gc), so when the collector runs does not move counts between runs.
    (globalThis as { gc?: () => void }).gc?.();
  }
  process.exit(0);
})();
