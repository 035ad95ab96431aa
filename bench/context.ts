/** What every scenario gets from the orchestrator, and what it hands back. */
import type { Row } from './table';

export interface BenchContext {
  quick: boolean;
  /** Write CPU profiles where a target is missed (always on unless --no-profile). */
  profile: boolean;
  /** Folder for this run's artefacts (profiles), under bench/results/. */
  outDir: string;
  rows: Row[];
  /** Raw figures per scenario, written to the JSON result. */
  data: Record<string, unknown>;
  /** Closing notes: why a target was missed and what the profile showed. */
  notes: string[];
  log(message: string): void;
}

/** Samples from one side of a scenario, as a worker reports them. */
export interface SideSamples {
  /** Milliseconds per measured run. */
  times: number[];
  peakRssMiB: number;
  startRssMiB: number;
  [extra: string]: unknown;
}

/** Concatenates samples of the same side measured in several processes (ABBA order). */
export function mergeSides(parts: readonly SideSamples[]): SideSamples {
  const merged: SideSamples = { times: [], peakRssMiB: 0, startRssMiB: 0 };
  for (const p of parts) {
    for (const [k, v] of Object.entries(p)) {
      if (Array.isArray(v)) {
        merged[k] = [...((merged[k] as unknown[] | undefined) ?? []), ...v];
      } else if (typeof v === 'number' && k !== 'peakRssMiB' && k !== 'startRssMiB') {
        merged[k] = v;
      }
    }
    merged.peakRssMiB = Math.max(merged.peakRssMiB, p.peakRssMiB);
    merged.startRssMiB = Math.max(merged.startRssMiB, p.startRssMiB);
  }
  return merged;
}

/**
 * Runs the raw side and the client side alternately, A B B A (A B in quick mode), each in a fresh process,
 * so drift in the machine's load during the run falls on both sides alike.
 */
export async function abba(
  quick: boolean,
  raw: () => Promise<SideSamples>,
  client: () => Promise<SideSamples>,
): Promise<{ raw: SideSamples; client: SideSamples }> {
  const r: SideSamples[] = [];
  const c: SideSamples[] = [];
  r.push(await raw());
  c.push(await client());
  if (!quick) {
    c.push(await client());
    r.push(await raw());
  }
  return { raw: mergeSides(r), client: mergeSides(c) };
}
