/**
 * JUnit XML for CI systems (GitHub Actions test reporters, GitLab, Jenkins): one `<testsuite>` per payload
 * file, one `<testcase>` per request (a dataset row, a model), a `<failure>` with the first failed
 * expectation's line and message, expected and actual. No `vscode` import.
 */

export interface JUnitCase {
  name: string;
  /** Seconds. */
  time: number;
  failure?: { message: string; detail: string };
  /** `attempts` ("4 of 5"), `flaky`, each grader's `grade`: `<properties>` of the test case. */
  properties?: { name: string; value: string }[];
}

/** Which run a report belongs to, for `model-access merge`: the payload set's fingerprint and the shard. */
export interface JUnitRun {
  run?: string;
  shard?: string;
}

export interface JUnitSuite {
  name: string;
  file: string;
  cases: JUnitCase[];
}

/** Text as XML character data / attribute values: the five entities, and no characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function junitXml(suites: readonly JUnitSuite[], from: JUnitRun = {}): string {
  const count = (s: JUnitSuite) => s.cases.length;
  const failures = (s: JUnitSuite) => s.cases.filter((c) => c.failure).length;
  const time = (s: JUnitSuite) => s.cases.reduce((t, c) => t + c.time, 0);
  const total = (f: (s: JUnitSuite) => number) => suites.reduce((n, s) => n + f(s), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="model-access check" tests="${total(count)}" failures="${total(failures)}" time="${total(time).toFixed(3)}"${runAttributes(from)}>`,
  ];
  for (const s of suites) {
    lines.push(
      `  <testsuite name="${xmlEscape(s.name)}" file="${xmlEscape(s.file)}" tests="${count(s)}" failures="${failures(s)}" time="${time(s).toFixed(3)}">`,
    );
    for (const c of s.cases) {
      const open = `    <testcase classname="${xmlEscape(s.name)}" name="${xmlEscape(c.name)}" file="${xmlEscape(s.file)}" time="${c.time.toFixed(3)}"`;
      const properties = (c.properties ?? []).map(
        (p) => `        <property name="${xmlEscape(p.name)}" value="${xmlEscape(p.value)}"/>`,
      );
      if (c.failure || properties.length > 0) {
        lines.push(`${open}>`);
        if (properties.length > 0) {
          lines.push('      <properties>', ...properties, '      </properties>');
        }
        if (c.failure) {
          lines.push(
            `      <failure message="${xmlEscape(c.failure.message)}">${xmlEscape(c.failure.detail)}</failure>`,
          );
        }
        lines.push('    </testcase>');
      } else {
        lines.push(`${open}/>`);
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function runAttributes(from: JUnitRun): string {
  return [
    from.run === undefined ? '' : ` model-access-run="${xmlEscape(from.run)}"`,
    from.shard === undefined ? '' : ` model-access-shard="${xmlEscape(from.shard)}"`,
  ].join('');
}
