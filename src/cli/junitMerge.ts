/**
 * `model-access merge a.xml b.xml … --junit all.xml`: the JUnit reports of a sharded run's slices as one
 * report, with one pass/fail count. It reads the reports `model-access check` writes (and only those): each
 * carries the fingerprint of the run's payload set and its shard, so reports of different runs, a missing
 * shard or the same shard twice are refused with the reason. No `vscode` import.
 */
import { createHash } from 'node:crypto';
import type { JUnitCase, JUnitSuite } from './junit';

/** The payload set of a run (every file before sharding) and what multiplies it: equal across its shards. */
export function runFingerprint(
  files: readonly string[],
  models: readonly string[],
  repeat: number | undefined,
): string {
  const set = JSON.stringify({ files: [...files].sort(), models: [...models].sort(), repeat: repeat ?? 1 });
  return createHash('sha256').update(set).digest('hex').slice(0, 16);
}

export interface ParsedReport {
  run?: string;
  shard?: { index: number; count: number };
  suites: JUnitSuite[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function xmlUnescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ENTITIES[e.toLowerCase()],
  );
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    out[m[1]] = xmlUnescape(m[2]);
  }
  return out;
}

/** A report written by `model-access check`, or why it is not one. */
export function parseReport(xml: string): ParsedReport | string {
  const root = /<testsuites\b([^>]*)>/.exec(xml);
  if (!root || !/name="model-access check"/.test(root[1])) {
    return 'it is not a JUnit report of model-access check';
  }
  const rootAttrs = attributes(root[1]);
  let shard: ParsedReport['shard'];
  if (rootAttrs['model-access-shard'] !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(rootAttrs['model-access-shard']);
    if (!m) {
      return `its shard "${rootAttrs['model-access-shard']}" cannot be read`;
    }
    shard = { index: Number(m[1]), count: Number(m[2]) };
  }
  const suites: JUnitSuite[] = [];
  for (const s of xml.matchAll(/<testsuite\b([^>]*)>([\s\S]*?)<\/testsuite>/g)) {
    const sa = attributes(s[1]);
    const suite: JUnitSuite = { name: sa.name ?? '', file: sa.file ?? sa.name ?? '', cases: [] };
    for (const c of s[2].matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const ca = attributes(c[1]);
      const body = c[3] ?? '';
      const testCase: JUnitCase = { name: ca.name ?? '', time: Number(ca.time ?? 0) || 0 };
      const failure = /<failure\b([^>]*)>([\s\S]*?)<\/failure>/.exec(body);
      if (failure) {
        testCase.failure = { message: attributes(failure[1]).message ?? '', detail: xmlUnescape(failure[2]) };
      }
      const properties = [...body.matchAll(/<property\b([^>]*)\/>/g)].map((p) => attributes(p[1]));
      if (properties.length > 0) {
        testCase.properties = properties.map((p) => ({ name: p.name ?? '', value: p.value ?? '' }));
      }
      suite.cases.push(testCase);
    }
    suites.push(suite);
  }
  return { run: rootAttrs['model-access-run'], shard, suites };
}

export interface NamedReport {
  file: string;
  report: ParsedReport;
}

/**
 * The reports as one: suites of one payload file (split over shards by dataset row) joined, in file order.
 * Refused with the reason when the reports are of different runs or the shards do not add up.
 */
export function mergeReports(reports: readonly NamedReport[]): { suites: JUnitSuite[]; run?: string } | string {
  if (reports.length === 0) {
    return 'name the JUnit reports to merge';
  }
  const first = reports[0];
  const other = reports.find((r) => r.report.run !== first.report.run);
  if (other) {
    return `${first.file} and ${other.file} come from different runs (different payload sets, models or repeats); merge the shards of one run`;
  }
  const sharded = reports.filter((r) => r.report.shard !== undefined);
  if (sharded.length > 0) {
    if (sharded.length !== reports.length) {
      const whole = reports.find((r) => r.report.shard === undefined);
      return `${whole?.file} is a whole run, not a shard; merge the shards of one run`;
    }
    const count = sharded[0].report.shard!.count;
    const odd = sharded.find((r) => r.report.shard!.count !== count);
    if (odd) {
      return `${odd.file} is a shard of ${odd.report.shard!.count}, ${sharded[0].file} of ${count}: these are different runs`;
    }
    const seen = new Map<number, string>();
    for (const r of sharded) {
      const i = r.report.shard!.index;
      if (seen.has(i)) {
        return `${seen.get(i)} and ${r.file} are both shard ${i}/${count}`;
      }
      seen.set(i, r.file);
    }
    const missing = Array.from({ length: count }, (_, k) => k + 1).filter((i) => !seen.has(i));
    if (missing.length > 0) {
      return `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merged report would leave tests out`;
    }
  }
  const byFile = new Map<string, JUnitSuite>();
  for (const { report } of reports) {
    for (const s of report.suites) {
      const into = byFile.get(s.name);
      if (into) {
        into.cases.push(...s.cases);
      } else {
        byFile.set(s.name, { ...s, cases: [...s.cases] });
      }
    }
  }
  const suites = [...byFile.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  for (const s of suites) {
    s.cases.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  }
  return { suites, run: first.report.run };
}
