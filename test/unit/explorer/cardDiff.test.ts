import * as assert from 'node:assert/strict';
import { plainTextAsMarkdown, sanitizeCardMarkdown } from '../../../src/domain/cardMarkdown';
import {
  KEPT_CARDS_MAX,
  KEPT_TEXT_MAX,
  cardDiffText,
  cardSourceText,
  keepCard,
  keptCard,
  keptCardKey,
  missingCardText,
  readKeptCards,
  sameCard,
} from '../../../src/explorer/core/cardDiff';
import { hostileCard } from '../../server/hostileData';

// The preview's engine with the preview's options, as in test/unit/domain/cardMarkdown.test.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options?: object) => { render(text: string): string };
const md = new MarkdownIt({ html: true, linkify: true, breaks: false });
const preview = (markdown: string) => sanitizeCardMarkdown(markdown, (s) => md.render(s));

const HOSTILE_CARD = hostileCard({ id: 'h', family: 'f', version: '1' });
const CARD_V1 = [
  '# atlas-3',
  '',
  'A chat model for support teams.',
  '',
  '## Evaluation',
  '',
  '- MMLU: 68.2',
  '- GSM8K: 57.1',
  '',
  '```',
  'curl https://example.com',
  'line two',
  '```',
  '',
].join('\n');
const CARD_V2 = CARD_V1.replace('MMLU: 68.2', 'MMLU: 71.0');

describe('cardDiffText', () => {
  it('lays the preview text out one block per line, so a changed score is one changed line', () => {
    const before = cardDiffText(preview(CARD_V1)).split('\n');
    const after = cardDiffText(preview(CARD_V2)).split('\n');
    assert.ok(before.length > 8, 'several lines');
    assert.equal(before.length, after.length);
    const changed = before.filter((line, i) => line !== after[i]);
    assert.deepEqual(changed, ['<li>MMLU: 68.2</li>']);
    assert.ok(before.includes('<h2>Evaluation</h2>'));
    assert.ok(before.includes('line two') && before.includes('</code></pre>'), 'a code block keeps its lines');
  });

  it('shows exactly what the preview shows: nothing the allow-list dropped comes back', () => {
    const text = cardDiffText(preview(HOSTILE_CARD));
    assert.doesNotMatch(text, /command:/);
    assert.doesNotMatch(text, /<img|<script|<[^>]*onerror/i);
    assert.match(text, /&lt;img src=x onerror=alert\(1\)&gt;/, 'the raw HTML shows as text');
    assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069]/, 'no live bidi control');
    // Only line breaks are restored: the text is the preview's, entity for entity.
    assert.equal(
      text.replace(/\n/g, ''),
      preview(HOSTILE_CARD)
        .replace(/&#10;/g, '')
        .replace(/^<div class="model-card">|<\/div>\n$/g, ''),
    );
  });

  it('leaves a plain-text card (a fenced block) and the "longer than the preview reads" note as they are', () => {
    const plain = plainTextAsMarkdown('line one\nline two');
    assert.equal(cardDiffText(plain), plain);
    const note = '\n\n---\n*The card is longer than the preview reads; open it in the browser for the rest.*\n';
    assert.ok(cardDiffText(`${preview(CARD_V1)}${note}`).endsWith(note));
  });
});

describe('cardSourceText', () => {
  it('is the card as its server sent it: a changed score is one changed line, no generated HTML', () => {
    const before = cardSourceText(CARD_V1).split('\n');
    const after = cardSourceText(CARD_V2).split('\n');
    assert.equal(before[0], '# atlas-3');
    assert.equal(before.length, after.length);
    assert.deepEqual(
      before.filter((line, i) => line !== after[i]),
      ['- MMLU: 68.2'],
    );
    assert.doesNotMatch(before.join('\n'), /<h1|<li>|dir="auto"/);
  });

  it('shows invisible characters as marks, keeps raw HTML as the text it is, and says when it was cut', () => {
    const text = cardSourceText('a\u202eb\r\nc<img src=x onerror=alert(1)>\u0007');
    assert.equal(text, 'a⟨U+202E⟩b\nc<img src=x onerror=alert(1)>\ufffd\n');
    assert.match(
      cardSourceText('x', true),
      /^x\n\(The card is longer than what was read; the rest is not compared\.\)\n$/,
    );
    assert.equal(cardSourceText(''), '');
  });
});

describe('missingCardText', () => {
  it('says why a side has no card, with the id cleaned', () => {
    assert.match(missingCardText('acme/x', { kind: 'noLink' }), /“acme\/x” has no Model Card link/);
    assert.match(missingCardText('a', { kind: 'browser' }), /web page/);
    assert.match(missingCardText('a', { kind: 'failed', message: 'HTTP 404' }), /could not be read\. HTTP 404/);
    assert.match(missingCardText('a', { kind: 'refused', reason: 'Not https.' }), /was not read\. Not https\./);
    assert.doesNotMatch(missingCardText('x\u202eevil', { kind: 'noLink' }), /\u202e/);
  });
});

describe('kept cards', () => {
  const key = (id: string) => keptCardKey('Production', 'https://models.example', id);

  it('keeps the latest card per key, first, and reads it back', () => {
    let store = readKeptCards(undefined);
    store = keepCard(store, key('a'), { text: 'one', at: 1 });
    store = keepCard(store, key('b'), { text: 'two', at: 2 });
    store = keepCard(store, key('a'), { text: 'three', at: 3 });
    assert.deepEqual(keptCard(store, key('a')), { text: 'three', at: 3 });
    assert.deepEqual(
      store.cards.map((c) => c.key),
      [key('a'), key('b')],
    );
    assert.equal(keptCard(store, keptCardKey('Staging', 'https://models.example', 'a')), undefined, 'per environment');
    assert.equal(keptCard(store, keptCardKey('Production', 'https://other.example', 'a')), undefined, 'per service');
  });

  it('stays bounded: the oldest cards leave past the count or the total text', () => {
    let store = readKeptCards(undefined);
    for (let i = 0; i < KEPT_CARDS_MAX + 5; i++) {
      store = keepCard(store, key(String(i)), { text: `card ${i}`, at: i });
    }
    assert.equal(store.cards.length, KEPT_CARDS_MAX);
    assert.equal(keptCard(store, key('0')), undefined);
    assert.ok(keptCard(store, key(String(KEPT_CARDS_MAX + 4))));
    const big = 'x'.repeat(KEPT_TEXT_MAX - 10);
    store = keepCard(store, key('big'), { text: big, at: 100 });
    assert.ok(store.cards.reduce((n, c) => n + c.text.length, 0) <= KEPT_TEXT_MAX);
    // A card longer than the whole budget is not kept, nor is the older text of its key.
    store = keepCard(store, key('big'), { text: `${big}${'y'.repeat(20)}`, at: 101 });
    assert.equal(keptCard(store, key('big')), undefined);
  });

  it('keeps the card’s own text beside the preview’s, and compares by it when both have it', () => {
    let store = readKeptCards(undefined);
    store = keepCard(store, key('a'), { text: '<h1>a</h1>', source: '# a\n', at: 1 });
    const kept = keptCard(readKeptCards(JSON.parse(JSON.stringify(store))), key('a'));
    assert.deepEqual(kept, { text: '<h1>a</h1>', source: '# a\n', at: 1 });
    assert.ok(kept && sameCard(kept, { text: '<h1 dir="auto">a</h1>', source: '# a\n' }), 'same source: same card');
    assert.ok(kept && !sameCard(kept, { text: '<h1>a</h1>', source: '# b\n' }));
    // A card kept by an older version (no source) compares by the preview's text.
    assert.ok(sameCard({ text: '<h1>a</h1>', at: 1 }, { text: '<h1>a</h1>', source: '# a\n' }));
    assert.ok(!sameCard({ text: '<h1>a</h1>', at: 1 }, { text: '<h1>b</h1>', source: '# a\n' }));
    // The source counts toward the budget too.
    const half = 'x'.repeat(KEPT_TEXT_MAX / 2 + 1);
    store = keepCard(store, key('big'), { text: half, source: half, at: 2 });
    assert.equal(keptCard(store, key('big')), undefined);
  });

  it('reads a damaged store as what it can use', () => {
    const store = readKeptCards({
      cards: [null, { key: 'k', text: 'ok', at: 5 }, { key: 1, text: 'x', at: 1 }, { key: 'n', text: 'x', at: NaN }],
    });
    assert.deepEqual(store.cards, [{ key: 'k', text: 'ok', at: 5 }]);
    assert.deepEqual(readKeptCards('garbage').cards, []);
  });
});
