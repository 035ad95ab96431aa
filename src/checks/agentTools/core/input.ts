/**
 * Reading a tool's input, which an agent wrote and an injected prompt may have steered: every field checked for
 * its type and bounds, unknown fields refused, and a sentence that says what to send instead. Pure.
 */
import { LIMITS } from './definitions';

export class InputError extends Error {}

function record(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) {
    return {};
  }
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new InputError('the input must be a JSON object');
  }
  return input as Record<string, unknown>;
}

/** The input as an object holding only `known` fields. */
export function fields(input: unknown, known: readonly string[]): Record<string, unknown> {
  const r = record(input);
  const unknown = Object.keys(r).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw new InputError(
      `unknown input field ${JSON.stringify(unknown[0].slice(0, 40))}; the fields are: ${known.join(', ')}`,
    );
  }
  return r;
}

export function optionalString(
  r: Record<string, unknown>,
  name: string,
  max: number = LIMITS.inputChars,
): string | undefined {
  const v = r[name];
  if (v === undefined || v === null || v === '') {
    return undefined;
  }
  if (typeof v !== 'string') {
    throw new InputError(`${name} must be a string`);
  }
  if (v.length > max) {
    throw new InputError(`${name} is longer than the ${max}-character limit`);
  }
  return v;
}

export function requiredString(r: Record<string, unknown>, name: string, max: number = LIMITS.inputChars): string {
  const v = optionalString(r, name, max);
  if (v === undefined || v.trim() === '') {
    throw new InputError(`${name} is required`);
  }
  return v;
}

export function optionalInteger(
  r: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const v = r[name];
  if (v === undefined || v === null) {
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new InputError(`${name} must be a whole number from ${min} to ${max}`);
  }
  return v;
}

export function optionalChoice<T extends string>(
  r: Record<string, unknown>,
  name: string,
  choices: readonly T[],
): T | undefined {
  const v = optionalString(r, name);
  if (v === undefined) {
    return undefined;
  }
  const found = choices.find((c) => c === v.trim().toLowerCase());
  if (!found) {
    throw new InputError(`${name} must be one of: ${choices.join(', ')}`);
  }
  return found;
}

/** Paths or globs relative to the workspace: never absolute, never up out of it (`..`), never a home folder. */
export function workspacePatterns(r: Record<string, unknown>, name: string, max: number): string[] {
  const v = r[name];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0) {
    throw new InputError(`${name} must name at least one payload file or glob`);
  }
  if (list.length > max) {
    throw new InputError(`${name} names ${list.length} paths; at most ${max}`);
  }
  return list.map((p) => {
    if (typeof p !== 'string' || p.trim() === '') {
      throw new InputError(`each of ${name} must be a non-empty string`);
    }
    if (p.length > LIMITS.patternChars) {
      throw new InputError(`a path of ${name} is longer than ${LIMITS.patternChars} characters`);
    }
    const path = p.trim().replace(/\\/g, '/');
    if (/^([a-z]:|\/|~)/i.test(path) || path.split('/').includes('..') || /[\u0000-\u001f]/.test(path)) {
      throw new InputError(
        `${JSON.stringify(p.slice(0, 80))} is not a path inside the workspace: give it relative to the workspace folder, without .. or a leading /`,
      );
    }
    return path.replace(/^\.\//, '');
  });
}
