/**
 * The streaming path in instructions rather than seconds, as bench/listInstructions.ts does for the list: one
 * side of bench/peers.ts `stream` (floor, ours, sdk) read N times from bench/sseSource.ts started apart, so
 * `valgrind --tool=callgrind` counts only the client. Instructions of N=3 minus N=1, halved, is one stream:
 *   npx tsx bench/sseSource.ts --deltas 10000 &      # prints {"url": …, "keys": {"bench": …}}
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p node --expose-gc -r tsx/cjs bench/streamInstructions.ts \
 *     <url> ma-bench-stream-0001 ours 3
 */
import { streamSides } from './peers';

const [url, key, side, n] = process.argv.slice(2);
void (async () => {
  const run = await streamSides(url, key);
  for (let i = 0; i < Number(n); i++) {
    await run[side as keyof typeof run]();
    // Each run from the same heap (node --expose-gc), so when the collector runs does not move counts between runs.
    (globalThis as { gc?: () => void }).gc?.();
  }
  process.exit(0);
})();
