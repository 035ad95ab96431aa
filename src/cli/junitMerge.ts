/**
 * `model-access merge a.xml b.xml … --junit all.xml`: the JUnit reports of a sharded run's slices as one
 * report, with one pass/fail count. It reads the reports `model-access check` writes (and only those): each
 * carries the fingerprint of the run's payload set and its shard, so reports of different runs, a missing
 * shard or the same shard twice are refused with the reason. No `vscode` import.
 */
import { createHash } from 'node:crypto';
import type { JUnitCase, JUnitSuite } from './junit';
import { readXml, type XmlElement } from './xmlRead';

export { xmlUnescape } from './xmlRead';

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

/** The largest report `model-access merge` reads: far above any run's, far below what would exhaust memory. */
export const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** A `<failure>` or `<error>` of a test case: its message and its text. */
function problemOf(element: XmlElement | undefined): { message: string; detail: string } | undefined {
  return element && { message: element.attributes.get('message') ?? '', detail: element.text };
}

/**
 * A report written by `model-access check`, or why it is not one: not well-formed XML (a bad character
 * reference, an unclosed tag, a report cut short — with the line), or not ours. Every `<failure>` and every
 * `<error>` (a timeout, the run's deadline) is kept: an error never becomes a pass.
 */
export function parseReport(xml: string): ParsedReport | string {
  if (xml.length > MAX_REPORT_BYTES) {
    return `it is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MB, more than any report of model-access check`;
  }
  const root = readXml(xml);
  if (typeof root === 'string') {
    return `it is not well-formed XML: ${root}`;
  }
  if (root.name !== 'testsuites' || root.attributes.get('name') !== 'model-access check') {
    return 'it is not a JUnit report of model-access check';
  }
  let shard: ParsedReport['shard'];
  const shardText = root.attributes.get('model-access-shard');
  if (shardText !== undefined) {
    const m = /^(\d{1,6})\/(\d{1,6})$/.exec(shardText);
    if (!m) {
      return `its shard "${shardText.slice(0, 40)}" cannot be read`;
    }
    shard = { index: Number(m[1]), count: Number(m[2]) };
  }
  const suites: JUnitSuite[] = [];
  for (const s of root.children.filter((c) => c.name === 'testsuite')) {
    const name = s.attributes.get('name') ?? '';
    const suite: JUnitSuite = { name, file: s.attributes.get('file') ?? name, cases: [] };
    for (const c of s.children.filter((e) => e.name === 'testcase')) {
      const testCase: JUnitCase = {
        name: c.attributes.get('name') ?? '',
        time: Number(c.attributes.get('time') ?? 0) || 0,
      };
      const failure = problemOf(c.children.find((e) => e.name === 'failure'));
      if (failure) {
        testCase.failure = failure;
      }
      const error = problemOf(c.children.find((e) => e.name === 'error'));
      if (error) {
        testCase.error = error;
      }
      const properties = c.children
        .filter((e) => e.name === 'properties')
        .flatMap((p) => p.children.filter((e) => e.name === 'property'))
        .map((p) => ({ name: p.attributes.get('name') ?? '', value: p.attributes.get('value') ?? '' }));
      if (properties.length > 0) {
        testCase.properties = properties;
      }
      suite.cases.push(testCase);
    }
    suites.push(suite);
  }
  return { run: root.attributes.get('model-access-run'), shard, suites };
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
  // Dataset rows in the file's order (their `line` property; rows are named by their values), the rest by name.
  const line = (c: JUnitCase) => Number(c.properties?.find((p) => p.name === 'line')?.value ?? 0) || 0;
  for (const s of suites) {
    s.cases.sort((a, b) => line(a) - line(b) || a.name.localeCompare(b.name, 'en', { numeric: true }));
  }
  return { suites, run: first.report.run };
}
