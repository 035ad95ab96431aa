/**
 * JUnit XML for CI systems (GitHub Actions test reporters, GitLab, Jenkins): one `<testsuite>` per payload
 * file, one `<testcase>` per request (a dataset row, a model), a `<failure>` with every failed expectation's
 * line and message, expected and actual (failures.ts), an `<error>` when the run stopped it (a deadline).
 * Each field is redacted before it is escaped (an escaped secret, `pa&quot;ss`, no longer matches the secret),
 * and its control characters are made visible. No `vscode` import.
 */
import { inertCiCommands, visibleControls } from '../common/controlChars';

export interface JUnitCase {
  name: string;
  /** Seconds. */
  time: number;
  failure?: { message: string; detail: string };
  /** The case did not end on its own (the run's deadline): an `<error>`, not a `<failure>`. */
  error?: { message: string; detail: string };
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

/**
 * The report; `redact` removes every secret of the run from each field before it is escaped; `from` marks
 * which run (and shard) it belongs to, for `model-access merge`.
 */
export function junitXml(suites: readonly JUnitSuite[], redact: (text: string) => string, from: JUnitRun = {}): string {
  // A test reporter may print a field into the CI log: no line of it reads as a runner's command there.
  const field = (text: string) => xmlEscape(inertCiCommands(visibleControls(redact(text))));
  const block = (text: string) => xmlEscape(inertCiCommands(visibleControls(redact(text), { keepLineFeed: true })));
  const count = (s: JUnitSuite) => s.cases.length;
  const failures = (s: JUnitSuite) => s.cases.filter((c) => c.failure).length;
  const errors = (s: JUnitSuite) => s.cases.filter((c) => c.error && !c.failure).length;
  const time = (s: JUnitSuite) => s.cases.reduce((t, c) => t + c.time, 0);
  const total = (f: (s: JUnitSuite) => number) => suites.reduce((n, s) => n + f(s), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="model-access check" tests="${total(count)}" failures="${total(failures)}" errors="${total(errors)}" time="${total(time).toFixed(3)}"${runAttributes(from)}>`,
  ];
  for (const s of suites) {
    lines.push(
      `  <testsuite name="${field(s.name)}" file="${field(s.file)}" tests="${count(s)}" failures="${failures(s)}" errors="${errors(s)}" time="${time(s).toFixed(3)}">`,
    );
    for (const c of s.cases) {
      const open = `    <testcase classname="${field(s.name)}" name="${field(c.name)}" file="${field(s.file)}" time="${c.time.toFixed(3)}"`;
      const properties = (c.properties ?? []).map(
        (p) => `        <property name="${field(p.name)}" value="${field(p.value)}"/>`,
      );
      const problem = c.failure ?? c.error;
      if (problem || properties.length > 0) {
        lines.push(`${open}>`);
        if (properties.length > 0) {
          lines.push('      <properties>', ...properties, '      </properties>');
        }
        if (problem) {
          const tag = c.failure ? 'failure' : 'error';
          lines.push(`      <${tag} message="${field(problem.message)}">${block(problem.detail)}</${tag}>`);
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
