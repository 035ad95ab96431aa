import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ServiceError } from '../../../src/api/errors';
import { readErrorBody } from '../../../src/api/errorBody';
import { readListPage } from '../../../src/api/listPage';
import { LIST_WRAPPERS, normalizeModel } from '../../../src/api/models';
import type { ModelEntry } from '../../../src/api/types';
import { clientFor, startRecorder } from '../helpers/api';

const SEED = 20250311;

const KEYS = [
  'id',
  'identifier',
  'model_id',
  'modelId',
  'name',
  'model',
  'slug',
  '_id',
  'family',
  'details',
  'families',
  'model_family',
  'architecture',
  'version',
  'model_version',
  'revision',
  'tag',
  'latest_versions',
  'model_card',
  'model_card_url',
  'cardUrl',
  'links',
  '_links',
  'url',
  'documentation_url',
  'owned_by',
  '__proto__',
  'constructor',
  'toString',
];
const PAGING = [
  'has_more',
  'last_id',
  'next_page_token',
  'nextPageToken',
  'next_cursor',
  'cursor',
  'next',
  'nextLink',
  'next_page',
  'links',
  '_links',
  'pagination',
];

const huge = fc.constantFrom(
  'x'.repeat(100_000),
  'https://h/' + 'a'.repeat(5000),
  '\u202e'.repeat(1000),
  '\u0000\r\n'.repeat(1000),
);
const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  huge,
  fc.webUrl(),
  fc.constantFrom('javascript:alert(1)', 'command:x', ' ', ''),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, 'url', 'href', 'family'), tie('v'), { maxKeys: 4 }),
  ),
})).v;
const entry = fc.oneof(value, fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 8 }));
const page = fc.oneof(
  fc.array(entry, { maxLength: 20 }),
  fc
    .record({
      wrapper: fc.constantFrom(...LIST_WRAPPERS, 'other'),
      entries: fc.oneof(fc.array(entry, { maxLength: 20 }), value),
      paging: fc.dictionary(fc.constantFrom(...PAGING), value, { maxKeys: 3 }),
    })
    .map(({ wrapper, entries, paging }) => ({ ...paging, [wrapper]: entries })),
  fc.jsonValue(),
);
/** Body text: valid JSON of a page, or arbitrary (often broken) text. */
const body = fc.oneof(
  { weight: 6, arbitrary: page.map((p) => JSON.stringify(p) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: page.map((p) => (JSON.stringify(p) ?? '').slice(0, 7)) },
);
const link = fc.option(
  fc.oneof(
    fc.string(),
    fc.constant('<https://other.example/x>; rel="next"'),
    fc.constant('</v1/models?p=2>; rel=next, <x>; rel="last"'),
  ),
);

function checkEntry(m: ModelEntry): void {
  assert.equal(typeof m.id, 'string');
  assert.ok(m.id.trim() !== '' && m.id === m.id.trim());
  for (const f of [m.family, m.version, m.cardUrl]) {
    assert.ok(f === undefined || (typeof f === 'string' && f !== ''));
  }
  if (m.cardUrl !== undefined) {
    assert.match(m.cardUrl, /^https?:\/\//i);
  }
}

describe('client: list parsing under generated input (fast-check)', function () {
  this.timeout(120000);

  it(`10,000 generated list bodies: only ServiceError escapes, entries are well-formed (seed ${SEED})`, () => {
    let parsed = 0;
    fc.assert(
      fc.property(body, link, (text, linkHeader) => {
        const out: ModelEntry[] = [];
        try {
          const r = readListPage(
            text,
            {
              url: 'https://service.example/api/v1/models?limit=10',
              link: linkHeader ?? undefined,
              what: 'The model list',
              host: 'https://service.example',
            },
            out,
          );
          parsed++;
          assert.equal(r.added, out.length);
          out.forEach(checkEntry);
          if (r.next.kind === 'url') {
            assert.doesNotThrow(() => new URL(r.next.kind === 'url' ? r.next.url : ''));
          }
        } catch (e) {
          if (!(e instanceof ServiceError) || e.kind !== 'invalidResponse') {
            throw e;
          }
          assert.equal(out.length, 0);
        }
      }),
      { seed: SEED, numRuns: 10_000 },
    );
    assert.ok(parsed > 3000, `${parsed} bodies were readable lists`);
  });

  it('10,000 generated entries through normalizeModel and error bodies through readErrorBody never throw', () => {
    fc.assert(
      fc.property(
        entry,
        fc.oneof(
          fc.string(),
          page.map((p) => JSON.stringify(p) ?? ''),
        ),
        (raw, errText) => {
          const m = normalizeModel(raw);
          if (m !== undefined) {
            checkEntry(m);
          }
          const d = readErrorBody(errText, { 'content-type': 'application/json' });
          assert.ok(d.message === undefined || d.message.length <= 300);
        },
      ),
      { seed: SEED + 1, numRuns: 10_000 },
    );
  });

  it('300 generated pages over real HTTP: the client resolves or throws a ServiceError', async () => {
    const bodies = fc.sample(
      fc.tuple(
        body,
        fc.constantFrom(200, 200, 200, 400, 404, 429, 500),
        fc.constantFrom('application/json', 'text/html', 'text/plain'),
      ),
      { seed: SEED + 2, numRuns: 300 },
    );
    let i = 0;
    const server = await startRecorder((_req, res) => {
      const [text, status, type] = bodies[i % bodies.length];
      res.writeHead(status, { 'content-type': type, 'retry-after': '0' });
      res.end(text);
    });
    const { client } = clientFor(server.url, 'sk-fuzz-key-000', { retries: { max: 0 }, maxPages: 3 });
    let ok = 0;
    for (i = 0; i < bodies.length; i++) {
      try {
        await client.listModels();
        ok++;
      } catch (e) {
        assert.ok(e instanceof ServiceError, `case ${i}: ${String(e)}`);
      }
    }
    await client.dispose();
    await server.close();
    assert.ok(ok > 0);
  });
});
