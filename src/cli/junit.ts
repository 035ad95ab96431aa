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

export function junitXml(suites: readonly JUnitSuite[]): string {
  const count = (s: JUnitSuite) => s.cases.length;
  const failures = (s: JUnitSuite) => s.cases.filter((c) => c.failure).length;
  const time = (s: JUnitSuite) => s.cases.reduce((t, c) => t + c.time, 0);
  const total = (f: (s: JUnitSuite) => number) => suites.reduce((n, s) => n + f(s), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="model-access check" tests="${total(count)}" failures="${total(failures)}" time="${total(time).toFixed(3)}">`,
  ];
  for (const s of suites) {
    lines.push(
      `  <testsuite name="${xmlEscape(s.name)}" file="${xmlEscape(s.file)}" tests="${count(s)}" failures="${failures(s)}" time="${time(s).toFixed(3)}">`,
    );
    for (const c of s.cases) {
      const open = `    <testcase classname="${xmlEscape(s.name)}" name="${xmlEscape(c.name)}" file="${xmlEscape(s.file)}" time="${c.time.toFixed(3)}"`;
      if (c.failure) {
        lines.push(`${open}>`);
        lines.push(`      <failure message="${xmlEscape(c.failure.message)}">${xmlEscape(c.failure.detail)}</failure>`);
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
