/**
 * Every failed expectation of a request as the CLI reports it: a block per failure on stdout (its line and
 * expectation, the message, expected and actual) and one JUnit `<failure>` whose message names each of them and
 * whose text holds every block. Test Explorer lists them all; so do the summary and the report. No `vscode` import.
 */
import type { ExpectationLine } from '../checks/core/checkFile';
import { describeExpectation } from '../checks/core/expectations';
import type { Failure } from '../checks/core/fileRun';

export interface FailureReport {
  /** For stdout, in the file's order: "line 4  text contains "London"", then its message, expected and actual. */
  blocks: { heading: string; lines: string[] }[];
  /** The JUnit `<failure message>`: the one failure's message, or each failure's line and message. */
  message: string;
  /** The JUnit `<failure>` text: each failure's place, message, expected and actual, a blank line between. */
  detail: string;
}

export function failureReport(
  failures: readonly Failure[],
  expectations: readonly ExpectationLine[],
  relative: string,
): FailureReport {
  const blocks = failures.map((failure) => {
    const source = expectations.find((l) => l.line === failure.line);
    const what = source?.expectation ? describeExpectation(source.expectation) : (source?.source ?? '');
    const place = `${failure.line + 1}${what ? `  ${what}` : ''}`;
    return {
      heading: `line ${place}`,
      where: `${relative}:${place}`,
      lines: [
        failure.message,
        ...(failure.expected !== undefined ? [`expected: ${failure.expected}`] : []),
        ...(failure.actual !== undefined ? [`actual:   ${failure.actual}`] : []),
      ],
    };
  });
  const message =
    failures.length === 1
      ? failures[0].message
      : `${failures.length} expectations failed: ${failures.map((f) => `line ${f.line + 1}: ${f.message}`).join('; ')}`;
  return {
    blocks: blocks.map(({ heading, lines }) => ({ heading, lines })),
    message,
    detail: blocks.map((b) => [b.where, ...b.lines].join('\n')).join('\n\n'),
  };
}
