import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import { detailsHtml, parseDetailsMessage, type DetailsPageState } from '../../../src/explorer/core/detailsHtml';
import {
  asDate,
  detailsLifecycle,
  FOLD_CHARS,
  MAX_FIELDS,
  modelDetails,
} from '../../../src/explorer/core/modelDetails';
import { HOSTILE, HOSTILE_STRINGS } from '../../server';
import { bodyText, elements } from '../helpers/html';

const aurora: ModelEntry = {
  id: 'aurora-2',
  family: 'aurora',
  version: '2',
  cardUrl: 'https://cards.example/acme/aurora-2',
  raw: {
    id: 'aurora-2',
    family: 'aurora',
    version: '2',
    model_card_url: 'https://cards.example/acme/aurora-2',
    owned_by: 'acme',
    created: 1698796800,
    context_window: 128000,
    max_output_tokens: 4096,
    capabilities: { chat: true, tools: true, vision: false },
    license: 'apache-2.0',
    homepage: 'https://aurora.example/',
    description: 'A'.repeat(FOLD_CHARS + 1),
    tags: ['fast', 'cheap'],
  },
};

const page = (state: Partial<DetailsPageState> & { details: DetailsPageState['details'] }) =>
  detailsHtml({ loading: false, ...state }, 'n0nce', 'https://webview.test');

describe('Model Details', () => {
  it('shows identifier, family, version and the card link, then every other field in its section', () => {
    const d = modelDetails(aurora);
    assert.equal(d.id, 'aurora-2');
    assert.equal(d.family, 'aurora');
    assert.equal(d.version, '2');
    assert.deepEqual(d.card, { url: 'https://cards.example/acme/aurora-2' });
    const sections = Object.fromEntries(d.sections.map((s) => [s.title, s.fields.map((f) => f.name)]));
    assert.deepEqual(sections, {
      Owner: ['owned_by'],
      Dates: ['created'],
      Limits: ['context_window', 'max_output_tokens'],
      Capabilities: ['capabilities.chat', 'capabilities.tools', 'capabilities.vision'],
      'Other fields': ['license', 'homepage', 'description', 'tags'],
    });
    const field = (name: string) => d.sections.flatMap((s) => s.fields).find((f) => f.name === name);
    assert.equal(field('created')?.value, '2023-11-01T00:00:00Z (1698796800)');
    assert.equal(field('tags')?.value, 'fast, cheap');
    assert.equal(field('description')?.long, true);
    assert.equal(field('license')?.long, false);
    assert.equal(d.links[field('homepage')?.link ?? -1], 'https://aurora.example/');
    const text = bodyText(page({ details: d }));
    for (const shown of ['aurora-2', 'aurora', 'https://cards.example/acme/aurora-2', 'acme', '128000', 'apache-2.0']) {
      assert.ok(text.includes(shown), `the page shows ${shown}`);
    }
  });

  it('reads dates in seconds or milliseconds only for date-like names', () => {
    assert.equal(asDate('created_at', 1_700_000_000_000), '2023-11-14T22:13:20Z');
    assert.equal(asDate('releaseDate', '1700000000'), '2023-11-14T22:13:20Z');
    assert.equal(asDate('context_window', 1_700_000_000), undefined);
    assert.equal(asDate('created', 42), undefined);
  });

  it('says why a card link is not opened, and offers no card actions then', () => {
    const d = modelDetails({ id: 'x', raw: { id: 'x', model_card_url: HOSTILE.cardCommand } });
    assert.ok(d.card && 'refused' in d.card);
    const html = page({ details: d });
    const actions = elements(html)
      .map((e) => e.attrs['data-action'])
      .filter(Boolean);
    assert.ok(!actions.includes('openCard') && !actions.includes('previewCard'));
    assert.match(bodyText(html), /Not opened: The Model Card link uses the "command:" scheme/);
  });

  it('caps the number of fields and says how many are not shown', () => {
    const raw: Record<string, unknown> = { id: 'many' };
    for (let i = 0; i < MAX_FIELDS + 25; i++) {
      raw[`f${i}`] = i;
    }
    const d = modelDetails({ id: 'many', raw });
    assert.equal(d.sections.flatMap((s) => s.fields).length, MAX_FIELDS);
    assert.equal(d.hiddenFields, 25);
    assert.match(bodyText(page({ details: d })), /25 more fields not shown/);
  });

  it('renders hostile registry entries as inert text: no script, handler, href or command from the registry', () => {
    const raw: Record<string, unknown> = { id: HOSTILE.script, family: HOSTILE.html, version: HOSTILE.bidi };
    HOSTILE_STRINGS.forEach((s, i) => {
      raw[`field_${i}`] = s;
      raw[s.slice(0, 40)] = s;
    });
    raw.homepage = 'javascript:alert(1)';
    raw.docs = 'https://ok.example/"><script>alert(2)</script>';
    raw.nested = { deeper: { html: HOSTILE.html } };
    const entry: ModelEntry = {
      id: HOSTILE.script,
      family: HOSTILE.html,
      version: HOSTILE.bidi,
      cardUrl: HOSTILE.cardBreakout,
      raw,
    };
    const state: DetailsPageState = {
      details: modelDetails(entry),
      loading: false,
      error: HOSTILE.html,
      chat: { vendor: 'model-access', id: entry.id, name: entry.id },
    };
    const html = detailsHtml(state, 'n0nce', 'https://webview.test');
    const els = elements(html);
    const scripts = els.filter((e) => e.tag === 'script');
    assert.equal(scripts.length, 1, 'only the page script');
    assert.equal(scripts[0].attrs.nonce, 'n0nce');
    assert.ok(!scripts[0].text.includes('alert'), 'registry text never reaches the script');
    assert.deepEqual(
      els.filter((e) => ['img', 'iframe', 'object', 'embed', 'form', 'base', 'link'].includes(e.tag)).map((e) => e.tag),
      [],
    );
    for (const e of els) {
      assert.ok(!Object.keys(e.attrs).some((a) => a.startsWith('on')), `<${e.tag}> has no event handler`);
      if (e.attrs.href !== undefined) {
        assert.equal(e.attrs.href, '#', 'links carry no registry URL: the extension opens them by index');
      }
    }
    const text = bodyText(html);
    assert.ok(text.includes('<script>alert(1)</script>'), 'the id shows as the text it is');
    assert.ok(text.includes('invoice⟨U+202E⟩txt.exe'), 'the bidi override is visible, not applied');
    assert.ok(!text.includes('\u202e'));
    // The javascript: link is plain text; the https one with a breakout is a link by index only.
    const linkTexts = els.filter((e) => e.attrs['data-action'] === 'openLink').map((e) => e.text);
    assert.ok(!linkTexts.some((t) => t.startsWith('javascript:')));
  });

  it('accepts only known actions from the page, and link indexes that are whole numbers', () => {
    assert.deepEqual(parseDetailsMessage({ action: 'copyId' }), { action: 'copyId' });
    assert.deepEqual(parseDetailsMessage({ action: 'openLink', link: 2 }), { action: 'openLink', link: 2 });
    assert.equal(parseDetailsMessage({ action: 'openLink', link: 'https://evil.example' }), undefined);
    assert.equal(parseDetailsMessage({ action: 'openLink', link: -1 }), undefined);
    assert.equal(parseDetailsMessage({ action: 'runCommand', command: 'workbench.action.openSettings' }), undefined);
    assert.equal(parseDetailsMessage('copyId'), undefined);
    assert.equal(parseDetailsMessage(null), undefined);
  });

  it('shows an error in place and keeps what it had', () => {
    const html = page({ details: modelDetails(aurora), error: 'Could not read the model from the service: 500' });
    const error = elements(html).find((e) => e.attrs.id === 'error');
    assert.equal(error?.text, 'Could not read the model from the service: 500');
    assert.ok(bodyText(html).includes('apache-2.0'));
  });
});

describe('Model Details: fields as a person reads them', () => {
  const fields = (raw: Record<string, unknown>, entry: Partial<ModelEntry> = {}) => {
    const d = modelDetails({ id: 'm', raw: { id: 'm', ...raw }, ...entry });
    return Object.fromEntries(d.sections.flatMap((s) => s.fields).map((f) => [f.name, f.value]));
  };

  it('writes numbers, booleans, null and lists of plain values as text, and other values as JSON', () => {
    assert.deepEqual(
      fields({
        n: 3,
        b: false,
        z: null,
        list: [1, 'a', null, true],
        mixed: [1, { a: 2 }],
        empty: {},
        obj: { a: { b: { c: { d: { e: 1 } } } } },
      }),
      {
        n: '3',
        b: 'false',
        z: 'null',
        list: '1, a, null, true',
        mixed: '[\n  1,\n  {\n    "a": 2\n  }\n]',
        empty: '{}',
        'obj.a.b.c': '{\n  "d": {\n    "e": 1\n  }\n}',
      },
    );
  });

  it('reads a date from seconds or milliseconds, within the years a model can have', () => {
    assert.equal(asDate('created', 1_000_000_000), '2001-09-09T01:46:40Z');
    assert.equal(asDate('created', 9_999_999_999), '2286-11-20T17:46:39Z');
    assert.equal(asDate('created', 1_000_000_000_000), '2001-09-09T01:46:40Z');
    assert.equal(asDate('created', 9_999_999_999_999), '2286-11-20T17:46:39.999Z');
    for (const out of [
      999_999_999,
      10_000_000_000,
      999_999_999_999,
      10_000_000_000_000,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]) {
      assert.equal(asDate('created', out), undefined, String(out));
    }
    assert.equal(asDate('meta.updated', '1700000000'), '2023-11-14T22:13:20Z');
    for (const text of ['x1700000000', '1700000000x', '17000000', '1.7e9']) {
      assert.equal(asDate('created', text), undefined, text);
    }
    assert.equal(asDate('created', true), undefined);
  });

  it('cuts a value over 20,000 characters and says how much is left out', () => {
    const v = fields({ notes: 'n'.repeat(20_005), exact: 'e'.repeat(20_000) });
    assert.equal(v.notes, `${'n'.repeat(20_000)}… (5 more characters not shown)`);
    assert.equal(v.exact, 'e'.repeat(20_000));
  });

  it('folds a value longer than the fold length, or with a line break; not one exactly that long', () => {
    const d = modelDetails({
      id: 'm',
      raw: { a: 'x'.repeat(FOLD_CHARS), b: 'x'.repeat(FOLD_CHARS + 1), c: 'one\ntwo' },
    });
    const long = Object.fromEntries(d.sections.flatMap((s) => s.fields).map((f) => [f.name, f.long]));
    assert.deepEqual(long, { a: false, b: true, c: true });
  });

  it('makes http(s) links openable by index, and nothing else', () => {
    const d = modelDetails({
      id: 'm',
      raw: {
        a: ' https://a.example/x ',
        b: 'HTTP://b.example',
        c: 'see https://c.example',
        d: 'ftp://d.example',
        e: 'javascript:alert(1)',
        f: 'https://user:pw@f.example/',
      },
    });
    const byName = Object.fromEntries(d.sections.flatMap((s) => s.fields).map((f) => [f.name, f.link]));
    assert.deepEqual(byName, { a: 0, b: 1, c: undefined, d: undefined, e: undefined, f: undefined });
    assert.deepEqual(d.links, ['https://a.example/x', 'http://b.example/']);
  });

  it('takes family and version from the entry, else from the registry text; the card link is not repeated as a field', () => {
    const d = modelDetails({
      id: 'm',
      raw: { family: 'raw-fam', version: 7, url: 'https://cards.example/m', other: 'https://cards.example/m' },
    });
    assert.equal(d.family, 'raw-fam');
    assert.equal(d.version, undefined, 'a version that is not text');
    assert.deepEqual(d.card, { url: 'https://cards.example/m' });
    assert.ok(!d.sections.flatMap((s) => s.fields).some((f) => f.value === 'https://cards.example/m'));
    const given = modelDetails({ id: 'm', family: 'fam', version: '2', cardUrl: '  ', raw: { family: 'raw-fam' } });
    assert.deepEqual([given.family, given.version, given.card], ['fam', '2', undefined]);
    // Without a card, a field that holds a link is shown.
    assert.deepEqual(fields({ homepage: 'https://h.example' }, { cardUrl: undefined }), {
      homepage: 'https://h.example',
    });
    assert.deepEqual(modelDetails({ id: 'm', raw: 'not a record' }).sections, []);
    assert.equal(modelDetails({ id: 'm', raw: { version: '3' } }).version, '3');
  });

  it('a model going away: the banner facts, and its lifecycle fields together under Lifecycle', () => {
    const NOW = Date.UTC(2026, 10, 29);
    const raw = {
      id: 'aurora-1',
      lifecycle_status: 'deprecated',
      deprecation_date: '2026-06-30',
      retirement_date: '2027-01-31',
      replacement: 'aurora-2',
      created: 1672531200,
      context_window: 16384,
    };
    const d = modelDetails({ id: 'aurora-1', raw }, NOW);
    assert.deepEqual(d.lifecycle, {
      stage: 'retiring',
      deprecatedOn: '2026-06-30',
      retiresOn: '2027-01-31',
      successor: 'aurora-2',
    });
    assert.deepEqual(
      d.sections.map((s) => [s.title, s.fields.map((f) => f.name)]),
      [
        ['Lifecycle', ['lifecycle_status', 'deprecation_date', 'retirement_date', 'replacement']],
        ['Dates', ['created']],
        ['Limits', ['context_window']],
      ],
    );
    assert.equal(modelDetails({ id: 'aurora-1', raw }, Date.UTC(2027, 1, 1)).lifecycle?.stage, 'retired');
    assert.deepEqual(detailsLifecycle({ deprecated: true }, NOW), { stage: 'deprecated' });
    assert.equal(detailsLifecycle({ lifecycle_status: 'preview' }, NOW), undefined, 'a preview is not going away');
    assert.equal(detailsLifecycle({ lifecycle_status: 'generally-available' }, NOW), undefined);
    assert.equal(modelDetails(aurora).lifecycle, undefined);
  });
});
