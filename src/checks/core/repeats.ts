/**
 * Repeats and flakiness: `// @repeat 5` (or `--repeat N`) sends each request N times, and the request's test
 * passes when the share of passing attempts meets `// @pass-rate 0.8` (default 1: every attempt). A test whose
 * attempts both passed and failed in one run is flaky: Test Explorer tags it, JUnit gives it a property.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';

/** More would be a load test, not a check. */
export const MAX_REPEAT = 100;

export function parseRepeat(rest: string): { ok: true; count: number } | { ok: false; message: string } {
  const t = rest.trim();
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_REPEAT)) {
    return { ok: false, message: l10n.t('@repeat needs a whole number from 1 to {0}, not "{1}"', MAX_REPEAT, t) };
  }
  return { ok: true, count: n };
}

export function parsePassRate(rest: string): { ok: true; rate: number } | { ok: false; message: string } {
  const t = rest.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(t);
  const n = percent ? Number(percent[1]) / 100 : /^\d+(\.\d+)?$|^\.\d+$/.test(t) ? Number(t) : NaN;
  if (!(n > 0 && n <= 1)) {
    return {
      ok: false,
      message: l10n.t('@pass-rate needs a share above 0 and at most 1 (0.8 or 80%), not "{0}"', t),
    };
  }
  return { ok: true, rate: n };
}

export interface Attempts {
  passed: number;
  total: number;
}

export interface RepeatVerdict {
  passed: boolean;
  /** Some attempts passed and some failed. */
  flaky: boolean;
  /** "4 of 5"; undefined for a single attempt. */
  tally?: string;
}

/** Whether the attempts meet the pass rate (compared as counts, so 4 of 5 meets 0.8 exactly). */
export function judgeAttempts(a: Attempts, passRate: number): RepeatVerdict {
  const needed = Math.ceil(passRate * a.total - 1e-9);
  return {
    passed: a.total > 0 && a.passed >= needed,
    flaky: a.passed > 0 && a.passed < a.total,
    tally: a.total > 1 ? l10n.t('{0} of {1}', a.passed, a.total) : undefined,
  };
}

/**
 * Groups attempts by the test they belong to, in first-seen order: `key` names the test (the request's
 * label), `passed` says how one attempt went.
 */
export function groupAttempts<T>(
  items: readonly T[],
  key: (t: T) => string,
  passed: (t: T) => boolean,
): Map<string, { items: T[] } & Attempts> {
  const groups = new Map<string, { items: T[] } & Attempts>();
  for (const item of items) {
    const k = key(item);
    let g = groups.get(k);
    if (!g) {
      g = { items: [], passed: 0, total: 0 };
      groups.set(k, g);
    }
    g.items.push(item);
    g.total++;
    if (passed(item)) {
      g.passed++;
    }
  }
  return groups;
}
