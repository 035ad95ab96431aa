// The Model Details page as a person reads it: its buttons (labels, which one is primary, which appear when),
// the facts table, the sections with their headings, folded long values, links by index, and status lines.
import * as assert from 'node:assert/strict';
import { detailsHtml, parseDetailsMessage, type DetailsPageState } from '../../../src/explorer/core/detailsHtml';
import type { ModelDetails } from '../../../src/explorer/core/modelDetails';
import { bodyText, elements, type ParsedElement } from '../helpers/html';

const details = (over: Partial<ModelDetails> = {}): ModelDetails => ({
  id: 'aurora-2',
  family: 'aurora',
  version: '2',
  card: { url: 'https://cards.example/aurora-2' },
  sections: [],
  links: [],
  hiddenFields: 0,
  ...over,
});

const render = (state: Partial<DetailsPageState> = {}, d: ModelDetails = details()) =>
  elements(detailsHtml({ details: d, loading: false, ...state }, 'n0nce', 'https://webview.test'));

/** The page's buttons as `label (action)`, with a `*` on the primary one. */
const buttons = (els: ParsedElement[]) =>
  els
    .filter((e) => e.tag === 'button')
    .map((e) => `${e.text} (${e.attrs['data-action']})${e.attrs.class === 'primary' ? '*' : ''}`);

/** The rows of the facts table as `heading: value`. */
const facts = (els: ParsedElement[]) => {
  const table = els.findIndex((e) => e.tag === 'table' && e.attrs.class === 'facts');
  const rows: string[] = [];
  for (const e of els.slice(table + 1)) {
    if (e.tag === 'h2' || (e.tag === 'table' && e.attrs.class !== 'facts') || e.tag === 'p') {
      break;
    }
    if (e.tag === 'tr') {
      const th = els[els.indexOf(e) + 1];
      rows.push(`${th.text}: ${e.text.slice(th.text.length)}`);
    }
  }
  return rows;
};

describe('Model Details page', () => {
  it('with a card: Open Model Card is the primary button, then Preview, New Request, Copy ID, Compare, Refresh', () => {
    const els = render();
    assert.deepEqual(buttons(els), [
      'Open Model Card (openCard)*',
      'Preview Model Card (previewCard)',
      'New Request with this Model (newRequest)',
      'Copy ID (copyId)',
      'Compare with… (compare)',
      'Refresh (refresh)',
    ]);
    assert.equal(els.find((e) => e.tag === 'h1')?.text, 'aurora-2');
    assert.equal(els.find((e) => e.tag === 'title')?.text, 'aurora-2');
  });

  it('without a card New Request is primary; Copy as Code and Copy Chat Model ID appear when offered', () => {
    const els = render(
      { copyAsCode: true, chat: { vendor: 'model-access', id: 'aurora-2', name: 'aurora-2' }, loading: true },
      details({ card: undefined }),
    );
    assert.deepEqual(buttons(els), [
      'New Request with this Model (newRequest)*',
      'Copy ID (copyId)',
      'Copy as Code… (copyAsCode)',
      'Compare with… (compare)',
      'Copy Chat Model ID (copyChatId)',
      'Refreshing… (refresh)',
    ]);
  });

  it('the facts table names identifier, family, version, card and the chat model, or says none', () => {
    assert.deepEqual(facts(render()), [
      'Identifier: aurora-2',
      'Family: aurora',
      'Version: 2',
      'Model Card: https://cards.example/aurora-2',
    ]);
    assert.deepEqual(
      facts(
        render(
          { chat: { vendor: 'model-access', id: 'aurora-2', name: 'Aurora 2' } },
          details({ family: undefined, version: '', card: undefined }),
        ),
      ),
      [
        'Identifier: aurora-2',
        'Family: none',
        'Version: none',
        'Model Card: none in the registry entry',
        `In VS Code chat: “Aurora 2” from Model Access — vscode.lm.selectChatModels({ vendor: 'model-access', id: "aurora-2" })`,
      ],
    );
    // The price in words, or that none is known (never a price of zero).
    assert.equal(facts(render({ price: 'no price known' })).at(-1), 'Price: no price known');
    const link = `command:evil?${'x'.repeat(400)}`;
    const refused = facts(render({}, details({ card: { refused: 'it uses the "command:" scheme', link } })));
    assert.equal(refused[3], `Model Card: Not opened: it uses the "command:" scheme${link.slice(0, 300)}`);
  });

  it('is one main landmark named by its heading; the buttons, the facts and each section are regions named by theirs', () => {
    const els = render(
      {},
      details({ sections: [{ title: 'Owner', fields: [{ name: 'owned_by', value: 'acme', long: false }] }] }),
    );
    const main = els.filter((e) => e.tag === 'main');
    assert.equal(main.length, 1);
    const named = (e: ParsedElement) => els.find((h) => h.attrs.id === e.attrs['aria-labelledby']);
    assert.equal(named(main[0])?.tag, 'h1');
    assert.deepEqual(
      els.filter((e) => e.tag === 'section').map((e) => `${named(e)?.tag} ${named(e)?.text}`),
      ['h2 Actions', 'h2 Overview', 'h2 Owner'],
    );
    // The Actions heading is for screen readers only; the live region reads out what a button did.
    assert.equal(els.find((e) => e.text === 'Actions' && e.tag === 'h2')?.attrs.class, 'visually-hidden');
    const live = els.find((e) => e.attrs.id === 'announce');
    assert.equal(live?.attrs.role, 'status');
    assert.equal(live?.attrs['aria-live'], 'polite');
    const script = els.find((e) => e.tag === 'script')?.text ?? '';
    assert.match(script, /region\.textContent = said/);
    assert.doesNotMatch(script, /innerHTML/);
  });

  it('says where the entry is being read from, or when it was read', () => {
    const status = (state: Partial<DetailsPageState>) => render(state).find((e) => e.attrs.id === 'status')?.text;
    assert.equal(status({ loading: true }), 'Reading the entry from the service…');
    assert.equal(status({ fetchedAt: '10:42:07' }), 'From the service at 10:42:07');
    assert.equal(status({}), undefined);
  });

  it('shows each section under its heading, folds long values, and writes links as buttons by index', () => {
    const long = `first line ${'y'.repeat(100)}\nsecond line`;
    const d = details({
      sections: [
        { title: 'Owner', fields: [{ name: 'owned_by', value: 'acme', long: false }] },
        { title: 'Dates', fields: [{ name: 'created', value: '2023-11-01T00:00:00Z', long: false }] },
        { title: 'Limits', fields: [{ name: 'context_window', value: '128000', long: false }] },
        { title: 'Capabilities', fields: [{ name: 'capabilities.chat', value: 'true', long: false }] },
        {
          title: 'Other fields',
          fields: [
            { name: 'homepage', value: 'https://aurora.example/', long: false, link: 0 },
            { name: 'description', value: long, long: true },
          ],
        },
      ],
      links: ['https://aurora.example/'],
      hiddenFields: 1,
    });
    const els = render({}, d);
    assert.deepEqual(
      els.filter((e) => e.tag === 'h2').map((e) => e.text),
      ['Actions', 'Overview', 'Owner', 'Dates', 'Limits', 'Capabilities', 'Other fields'],
    );
    const link = els.find((e) => e.attrs['data-action'] === 'openLink');
    assert.deepEqual(
      [link?.tag, link?.attrs['data-link'], link?.attrs.href, link?.text],
      ['a', '0', '#', 'https://aurora.example/'],
    );
    const summary = els.find((e) => e.tag === 'summary');
    assert.equal(summary?.text, `${long.slice(0, 80)}… (${long.length} characters)`);
    assert.equal(els.find((e) => e.tag === 'pre')?.text, long);
    // A short value is written as it is, not folded.
    assert.equal(els.filter((e) => e.tag === 'details').length, 1);
    assert.match(
      bodyText(detailsHtml({ details: d, loading: false }, 'n', 'c')),
      /1 more field not shown; Inspect Model shows the whole entry\./,
    );
    assert.doesNotMatch(bodyText(detailsHtml({ details: details(), loading: false }, 'n', 'c')), /not shown/);
  });

  it('takes link index 0 from the page, but no fraction', () => {
    assert.deepEqual(parseDetailsMessage({ action: 'openLink', link: 0 }), { action: 'openLink', link: 0 });
    assert.equal(parseDetailsMessage({ action: 'openLink', link: 1.5 }), undefined);
    assert.equal(parseDetailsMessage({ action: 'openLink' }), undefined);
    assert.equal(parseDetailsMessage({ action: 7 }), undefined);
  });

  it('the page reads as exactly its heading, status, error, buttons, facts, sections and the hidden-field note', () => {
    const d = details({
      sections: [{ title: 'Owner', fields: [{ name: 'owned_by', value: 'acme', long: false }] }],
      hiddenFields: 2,
    });
    const html = detailsHtml(
      { details: d, loading: false, fetchedAt: '10:42', error: 'It broke.', copyAsCode: false },
      'n0nce',
      'https://webview.test',
    );
    assert.equal(
      bodyText(html).replace(/\s+/g, ' ').trim(),
      [
        'aurora-2',
        'From the service at 10:42',
        'It broke.',
        'ActionsOpen Model CardPreview Model CardNew Request with this ModelCopy IDCompare with…Refresh',
        'OverviewIdentifieraurora-2FamilyauroraVersion2Model Cardhttps://cards.example/aurora-2',
        'Ownerowned_byacme',
        '2 more fields not shown; Inspect Model shows the whole entry.',
      ].join(' '),
    );
    const noCard = detailsHtml({ details: details({ card: undefined }), loading: false }, 'n', 'c');
    assert.match(
      bodyText(noCard).replace(/\s+/g, ' '),
      / aurora-2 ActionsNew Request with this ModelCopy IDCompare with…Refresh OverviewIdentifier/,
    );
    for (const b of elements(html).filter((e) => e.tag === 'button')) {
      assert.deepEqual(
        Object.keys(b.attrs).filter((a) => !['type', 'data-action', 'class'].includes(a)),
        [],
        'a button has no other attribute',
      );
    }
  });

  it('a page without sections or hidden fields reads as its heading, buttons and facts only; fields follow each other', () => {
    const plain = detailsHtml({ details: details(), loading: false }, 'n', 'c');
    assert.equal(
      bodyText(plain).replace(/\s+/g, ' ').trim(),
      'aurora-2 ActionsOpen Model CardPreview Model CardNew Request with this ModelCopy IDCompare with…Refresh ' +
        'OverviewIdentifieraurora-2FamilyauroraVersion2Model Cardhttps://cards.example/aurora-2',
    );
    const two = details({
      sections: [
        {
          title: 'Limits',
          fields: [
            { name: 'a', value: '1', long: false },
            { name: 'b', value: '2', long: false },
          ],
        },
      ],
    });
    assert.match(
      bodyText(detailsHtml({ details: two, loading: false }, 'n', 'c')).replace(/\s+/g, ' '),
      / Limitsa1b2 $/,
    );
  });

  it('a retiring model opens with a banner: the date, the successor and the two things to do next', () => {
    const d = details({
      lifecycle: { stage: 'retiring', deprecatedOn: '2026-06-30', retiresOn: '2027-01-31', successor: 'aurora-3' },
    });
    const els = render({}, d);
    const h2 = els.filter((e) => e.tag === 'h2').map((e) => e.text);
    assert.deepEqual(h2.slice(0, 2), ['Retiring on 2027-01-31', 'Actions'], 'the banner comes first');
    const banner = els.find((e) => e.attrs.id === 'lifecycle');
    assert.equal(banner?.tag, 'section');
    assert.equal(banner?.attrs['aria-labelledby'], 'lifecycle-heading');
    assert.match(banner?.text ?? '', /Deprecated on 2026-06-30\..*stops answering.*Replaced by aurora-3/);
    assert.deepEqual(buttons(els).slice(0, 2), [
      'New Request with aurora-3 (newRequestSuccessor)*',
      'Compare with aurora-3 (compareSuccessor)',
    ]);
    assert.deepEqual(parseDetailsMessage({ action: 'compareSuccessor' }), { action: 'compareSuccessor' });
    assert.deepEqual(parseDetailsMessage({ action: 'newRequestSuccessor' }), { action: 'newRequestSuccessor' });
  });

  it('a deprecated or retired model says so; without a successor there is nothing to start; others have no banner', () => {
    const deprecated = render({}, details({ lifecycle: { stage: 'deprecated', successor: 'b-2' } }));
    assert.equal(deprecated.find((e) => e.tag === 'h2')?.text, 'Deprecated');
    const retired = render({}, details({ lifecycle: { stage: 'retired', retiresOn: '2026-01-31' } }));
    assert.equal(retired.find((e) => e.tag === 'h2')?.text, 'Retired on 2026-01-31');
    assert.match(retired.find((e) => e.attrs.id === 'lifecycle')?.attrs.class ?? '', /lifecycle-retired/);
    assert.match(retired.find((e) => e.attrs.id === 'lifecycle')?.text ?? '', /names no model that replaces it/);
    assert.ok(!buttons(retired).some((b) => /Successor\)/.test(b)), 'no successor buttons');
    assert.equal(
      render().find((e) => e.attrs.id === 'lifecycle'),
      undefined,
    );
  });

  it('the successor is registry text: escaped in the banner and its buttons', () => {
    const els = render({}, details({ lifecycle: { stage: 'deprecated', successor: '<img src=x onerror=alert(1)>' } }));
    assert.equal(els.filter((e) => e.tag === 'img').length, 0);
    assert.match(els.find((e) => e.attrs.id === 'lifecycle')?.text ?? '', /<img src=x onerror=alert\(1\)>/);
  });
});
