/** Shared helpers of the checks tests: the variables a row is sent with, and reading one expectation line. */
import * as assert from 'node:assert/strict';
import { parseExpectation, type Expectation } from '../../../src/checks/core/expectations';
import type { VariableContext } from '../../../src/domain/payload/variables';

/** An environment called `test` whose only variable is `city` (Paris); `$uuid` and `$timestamp` fixed. */
export const variables: VariableContext = {
  variables: { city: 'Paris' },
  environment: 'test',
  env: () => undefined,
  uuid: () => 'u',
  now: () => 0,
};

/** The expectation `source` reads as; fails the test when it cannot be read. */
export function ok(source: string): Expectation {
  const r = parseExpectation(source);
  assert.ok(r.ok, `${source}: ${r.ok ? '' : r.message}`);
  return r.expectation;
}

/** The message that refuses `source`; fails the test when it is read as an expectation. */
export function bad(source: string): string {
  const r = parseExpectation(source);
  assert.ok(!r.ok, `${source} should not parse, read as ${JSON.stringify(r.ok ? r.expectation : '')}`);
  return r.message;
}
