// The saved model list: what the file holds, that it is read back only under the same environment, service
// and key, that damaged files are told apart from files of another key, and the "updated N min ago" text.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { normalizeModel } from '../../../src/api/models';
import type { ModelEntry } from '../../../src/api/types';
import {
  cacheFileName,
  fingerprint,
  parseCache,
  serializeCache,
  updatedAgo,
  type CacheBinding,
} from '../../../src/domain/savedModelList';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

function entry(raw: Record<string, unknown>): ModelEntry {
  return normalizeModel(raw) as ModelEntry;
}

const models = [
  entry({ id: 'aurora-2', family: 'aurora', version: '2', model_card_url: 'https://cards.example/a2' }),
  entry({ model_id: 'sable-1', details: { family: 'sable' }, context_window: 8192 }),
  entry({ id: 'loner' }),
];

describe('saved model list', () => {
  const salt = randomBytes(32);
  const key = 'ma-secret-key-0123456789abcdef';
  const binding: CacheBinding = {
    environment: 'prod',
    origin: 'https://models.example.com',
    fingerprint: fingerprint(salt, `"prod" https://models.example.com ${key}`),
  };
  const list = { savedAt: NOW - 5 * 60_000, models, skipped: 2, warnings: ['Stopped after 3 pages.'] };

  it('reads back the same models, derived again from the entries as the service sent them', () => {
    const text = serializeCache(binding, list);
    const reading = parseCache(text, binding, NOW);
    assert.equal(reading.kind, 'ok');
    assert.ok(reading.kind === 'ok');
    assert.deepEqual(reading.list.models, models);
    assert.equal(reading.list.savedAt, list.savedAt);
    assert.equal(reading.list.skipped, 2);
    assert.deepEqual(reading.list.warnings, ['Stopped after 3 pages.']);
  });

  it('stores each entry once: no derived fields next to the raw entry', () => {
    const text = serializeCache(binding, list);
    const entries = JSON.parse(text.split('\n')[1]) as unknown[];
    assert.deepEqual(
      entries,
      models.map((m) => m.raw),
    );
    // The card link appears once (inside the raw entry), not a second time as a derived `cardUrl`.
    assert.equal(text.split('https://cards.example/a2').length, 2);
    assert.ok(!text.includes('"cardUrl"'));
  });

  it('never writes the key, and its fingerprint does not reveal it', () => {
    const text = serializeCache(binding, list);
    assert.ok(!text.includes(key));
    assert.match(binding.fingerprint, /^[0-9a-f]{64}$/);
    // Another install (another salt) gets another fingerprint for the same key: nothing to compare across machines.
    assert.notEqual(fingerprint(randomBytes(32), `"prod" https://models.example.com ${key}`), binding.fingerprint);
    assert.equal(fingerprint(salt, `"prod" https://models.example.com ${key}`), binding.fingerprint);
  });

  it('is not shown under another key, another service or another environment', () => {
    const text = serializeCache(binding, list);
    const otherKey = { ...binding, fingerprint: fingerprint(salt, `"prod" https://models.example.com other-key`) };
    assert.deepEqual(parseCache(text, otherKey, NOW), { kind: 'otherBinding' });
    assert.deepEqual(parseCache(text, { ...binding, origin: 'https://evil.example' }, NOW), { kind: 'otherBinding' });
    assert.deepEqual(parseCache(text, { ...binding, environment: 'staging' }, NOW), { kind: 'otherBinding' });
  });

  it('calls a damaged or foreign file corrupt, whatever it holds, without throwing', () => {
    const good = serializeCache(binding, list);
    const [head, body] = good.split('\n');
    const header = JSON.parse(head) as Record<string, unknown>;
    const variants: [string, string][] = [
      ['empty', ''],
      ['garbage', '\u0000\u0001not json at all'],
      ['no newline', head],
      ['header cut', `${head.slice(0, 20)}\n${body}`],
      ['entries cut', `${head}\n${body.slice(0, body.length / 2)}`],
      ['other format', `${JSON.stringify({ ...header, format: 99 })}\n${body}`],
      ['count differs', `${JSON.stringify({ ...header, count: 2 })}\n${body}`],
      ['entries not an array', `${head}\n{"data":[]}`],
      ['entry without id', `${head}\n${JSON.stringify([{ id: 'a' }, { nope: 1 }, { id: 'c' }])}`],
      ['negative skipped', `${JSON.stringify({ ...header, skipped: -1 })}\n${body}`],
      ['warnings not strings', `${JSON.stringify({ ...header, warnings: [1] })}\n${body}`],
      ['saved in the future', `${JSON.stringify({ ...header, savedAt: NOW + 86_400_000 })}\n${body}`],
      ['header an array', `[]\n${body}`],
    ];
    for (const [name, text] of variants) {
      const reading = parseCache(text, binding, NOW);
      assert.equal(reading.kind, 'corrupt', name);
    }
  });

  it('says in the log why a file was not read: the reason for each kind of damage', () => {
    const good = serializeCache(binding, list);
    const [head, body] = good.split('\n');
    const header = JSON.parse(head) as Record<string, unknown>;
    const withHeader = (changes: Record<string, unknown>) => `${JSON.stringify({ ...header, ...changes })}\n${body}`;
    const reasons: [string, string][] = [
      [head, 'no header line'],
      [`\n${body}`, 'header is not JSON'],
      [`${head.slice(0, 20)}\n${body}`, 'header is not JSON'],
      [withHeader({ savedAt: NOW + 60_001 }), 'saved in the future'],
      [`${head}\n${body.slice(0, 10)}`, 'entries are not JSON'],
      [withHeader({ count: 2 }), 'entries do not match the header'],
      [`${head}\n${JSON.stringify([{ id: 'a' }, { nope: 1 }, { id: 'c' }])}`, 'an entry has no identifier'],
    ];
    // Every field of the header checked for its type: a file whose header only looks right is not read.
    for (const [field, value] of Object.entries({
      environment: 1,
      origin: null,
      fingerprint: 2,
      savedAt: String(NOW),
      skipped: '2',
      count: '3',
      warnings: ['ok', 1],
    })) {
      reasons.push([withHeader({ [field]: value }), 'unknown format']);
    }
    for (const [text, reason] of reasons) {
      assert.deepEqual(parseCache(text, binding, NOW), { kind: 'corrupt', reason }, text.slice(0, 120));
    }
    // A minute of clock difference is tolerated; no skipped entries is fine.
    assert.equal(parseCache(withHeader({ savedAt: NOW + 60_000 }), binding, NOW).kind, 'ok');
    assert.equal(parseCache(withHeader({ skipped: 0 }), binding, NOW).kind, 'ok');
  });

  it('reads 100,000 models back in one parse', () => {
    const many = Array.from({ length: 100_000 }, (_, i) =>
      entry({ id: `m-${i}`, family: `f-${i % 50}`, version: String(i % 7) }),
    );
    const text = serializeCache(binding, { ...list, models: many });
    const reading = parseCache(text, binding, NOW);
    assert.ok(reading.kind === 'ok');
    assert.equal(reading.list.models.length, 100_000);
    assert.equal(reading.list.models[99_999].id, 'm-99999');
    assert.equal(reading.list.models[99_999].family, 'f-49');
  });

  it('names one file per environment and service, safe whatever the name holds', () => {
    const a = cacheFileName('prod', 'https://models.example.com');
    assert.match(a, /^models-[0-9a-f]{32}\.json$/);
    assert.equal(cacheFileName('prod', 'https://models.example.com'), a);
    assert.notEqual(cacheFileName('staging', 'https://models.example.com'), a);
    assert.notEqual(cacheFileName('prod', 'https://models.example.com/team-b'), a);
    assert.match(cacheFileName('../../etc/passwd\u0000', 'x'), /^models-[0-9a-f]{32}\.json$/);
  });
});

describe('"updated N min ago"', () => {
  it('counts hours up to 47, then days', () => {
    assert.equal(updatedAgo(NOW - 47 * 3_600_000, NOW), 'updated 47 h ago');
    assert.equal(updatedAgo(NOW - 48 * 3_600_000, NOW), 'updated 2 days ago');
  });

  it('says how long ago, in the unit a person would use', () => {
    assert.equal(updatedAgo(NOW - 10_000, NOW), 'updated just now');
    assert.equal(updatedAgo(NOW - 60_000, NOW), 'updated 1 min ago');
    assert.equal(updatedAgo(NOW - 59 * 60_000, NOW), 'updated 59 min ago');
    assert.equal(updatedAgo(NOW - 60 * 60_000, NOW), 'updated 1 h ago');
    assert.equal(updatedAgo(NOW - 47 * 3_600_000, NOW), 'updated 47 h ago');
    assert.equal(updatedAgo(NOW - 3 * 86_400_000, NOW), 'updated 3 days ago');
  });

  it('never says a negative time (a clock moved back a little)', () => {
    assert.equal(updatedAgo(NOW + 30_000, NOW), 'updated just now');
  });
});
