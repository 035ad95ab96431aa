/** What every scenario gets from the orchestrator, and what it hands back. */
import * as os from 'node:os';
import { halfSpreadPercent, isNoisy, summarize } from './stats';
import type { Row } from './table';

export interface BenchContext {
  quick: boolean;
  /** `--compare-with DIR`: another checkout (the code before a change) measured in the same run where supported (footprint). */
  compareWith?: string;
  /** `--windows N`: code-server windows per build in the footprint scenario. */
  windows?: number;
  /** False with `--no-saved-list`: the footprint skips its 100,000-model saved-list windows. */
  savedList: boolean;
  /** False with `--activation-only`: footprint windows time activation and skip opening the Models view. */
  modelsView: boolean;
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

export interface MachineLoad {
  /** The one-minute load average. */
  load: number;
  cores: number;
  /** More runnable work than cores: every figure measured now is stretched by waiting for a core. */
  over: boolean;
}

export function machineLoad(): MachineLoad {
  const cores = os.availableParallelism();
  const load = os.loadavg()[0];
  return { load, cores, over: load > cores };
}

export function describeLoad(l: MachineLoad): string {
  return `load ${l.load.toFixed(1)} on ${l.cores} cores`;
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
 * A/B/B/A rounds (see `abba`) until the figure settles: while a round leaves the figure of either side noisy
 * (half its spread over `NOISY_HALF_SPREAD`) or the machine's load above its cores, another round runs, up to
 * `maxRounds` (2 quick, 3 full). Every round's samples are kept — none is dropped for looking bad — and the
 * note says how many rounds ran and why.
 */
export async function abbaRounds(
  ctx: BenchContext,
  scenario: string,
  raw: () => Promise<SideSamples>,
  client: () => Promise<SideSamples>,
  figure: (s: SideSamples) => number[] = (s) => s.times,
  maxRounds = ctx.quick ? 2 : 3,
): Promise<{ raw: SideSamples; client: SideSamples; rounds: number }> {
  const r: SideSamples[] = [];
  const c: SideSamples[] = [];
  const reasons: string[] = [];
  for (let round = 1; ; round++) {
    const pair = await abba(ctx.quick, raw, client);
    r.push(pair.raw);
    c.push(pair.client);
    const merged = { raw: mergeSides(r), client: mergeSides(c) };
    const cs = summarize(figure(merged.client));
    const rs = summarize(figure(merged.raw));
    const load = machineLoad();
    const why = [
      ...(isNoisy(cs) ? [`extension ±${halfSpreadPercent(cs)}%`] : []),
      ...(isNoisy(rs) ? [`raw ±${halfSpreadPercent(rs)}%`] : []),
      ...(load.over ? [describeLoad(load)] : []),
    ];
    if (why.length === 0 || round >= maxRounds) {
      if (round > 1) {
        ctx.notes.push(
          `${scenario}: ${round} rounds of ${ctx.quick ? 'A/B' : 'A/B/B/A'} (repeated because: ${reasons.join('; ')}); the figures pool every round.` +
            (why.length > 0 ? ` Still noisy after the last round (${why.join(', ')}).` : ''),
        );
      } else if (why.length > 0) {
        ctx.notes.push(`${scenario}: noisy (${why.join(', ')}), not repeated.`);
      }
      return { ...merged, rounds: round };
    }
    reasons.push(`round ${round}: ${why.join(', ')}`);
    ctx.log(`${scenario}: noisy (${why.join(', ')}), another round…`);
  }
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
