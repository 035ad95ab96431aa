// The embeddings picture page (Open Answer Preview on an embeddings answer), read as a browser parses it:
// landmarks and names, the numbers as text beside the colors, hostile inputs as inert text.
import * as assert from 'node:assert/strict';
import {
  cellOpacity,
  embeddingsPageHtml,
  heatMinWidth,
  INPUT_CHARS,
} from '../../../../src/requests/answers/core/embeddingsPage';
import { MAX_SIMILARITY_INPUTS } from '../../../../src/requests/answers/core/embeddingsView';
import { bodyText, elements, type ParsedElement } from '../../helpers/html';

const NONCE = 'n0nce';
const CSP_SOURCE = 'https://webview.test';

function draw(vectors: number[][], inputs?: string[], extra: { model?: string; source?: string } = {}): string {
  return embeddingsPageHtml({ vectors, inputs, ...extra }, NONCE, CSP_SOURCE);
}

const byId = (els: ParsedElement[], id: string) => els.find((e) => e.attrs.id === id);
const cells = (els: ParsedElement[]) => els.filter((e) => e.tag === 'rect' && /\bcell\b/.test(e.attrs.class ?? ''));
/** The rows of the page's table `.cls`: each row's cells' text (header and data cells alike). */
function rowsOf(html: string, cls: string): string[][] {
  const start = html.indexOf(`<table class="numbers ${cls}">`);
  assert.ok(start >= 0, `a table .${cls}`);
  const table = html.slice(start, html.indexOf('</table>', start));
  return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    elements(`<table><tr>${row[1]}</tr></table>`)
      .filter((e) => e.tag === 'td' || e.tag === 'th')
      .map((c) => c.text),
  );
}

describe('requests: the embeddings picture page', () => {
  const two = [
    [3, 4, 0],
    [3, 4, 1],
  ];

  it('is a page with a language, a title, a main landmark named by its heading, and no script', () => {
    const html = draw(two, ['A cat sat on the mat.', 'A dog lay on the rug.'], {
      model: 'cirrus-embed-1',
      source: 'embeddings response',
    });
    const els = elements(html);
    assert.equal(els.find((e) => e.tag === 'html')?.attrs.lang, 'en');
    assert.equal(els.find((e) => e.tag === 'title')?.text, 'Embeddings: 2 vectors × 3 dimensions');
    const main = els.filter((e) => e.tag === 'main');
    assert.equal(main.length, 1);
    assert.equal(byId(els, main[0].attrs['aria-labelledby'])?.text, '2 vectors × 3 dimensions');
    assert.equal(byId(els, 'title')?.tag, 'h1');
    assert.equal(els.filter((e) => e.tag === 'script').length, 0, 'no script at all');
    const csp = els.find((e) => e.tag === 'meta' && e.attrs['http-equiv'] === 'Content-Security-Policy');
    assert.match(csp?.attrs.content ?? '', /default-src 'none'/);
    assert.match(csp?.attrs.content ?? '', /script-src 'nonce-n0nce'/);
    assert.match(bodyText(html), /Model cirrus-embed-1 · from embeddings response/);
    // Every section is named by a heading that is on the page.
    for (const section of els.filter((e) => e.tag === 'section')) {
      const heading = byId(els, section.attrs['aria-labelledby']);
      assert.ok(heading && /^h[23]$/.test(heading.tag), `section named by ${section.attrs['aria-labelledby']}`);
    }
    // Every id an aria attribute points to exists.
    for (const e of els) {
      for (const attr of ['aria-labelledby', 'aria-describedby']) {
        if (e.attrs[attr]) {
          assert.ok(byId(els, e.attrs[attr]), `${e.tag} ${attr}="${e.attrs[attr]}" points to an element`);
        }
      }
    }
  });

  it('the inputs with their norms, and for two inputs their similarity in words, as a heat map and as numbers', () => {
    const html = draw(two, ['A cat sat on the mat.', 'A dog lay on the rug.']);
    const els = elements(html);
    assert.deepEqual(rowsOf(html, 'inputs'), [
      ['#', 'Input', 'Norm'],
      ['1', 'A cat sat on the mat.', '5.000'],
      ['2', 'A dog lay on the rug.', '5.099'],
    ]);
    assert.match(bodyText(html), /Input 1 and input 2 have a cosine similarity of 0\.981\./);
    assert.deepEqual(rowsOf(html, 'matrix'), [
      ['', '1', '2'],
      ['1 · A cat sat on the mat.', '1.000', '0.981'],
      ['2 · A dog lay on the rug.', '0.981', '1.000'],
    ]);
    // The heat map: an image named by its visible caption (its <title> says the same), described by the legend.
    const svg = els.filter((e) => e.tag === 'svg');
    assert.equal(svg.length, 1);
    assert.equal(svg[0].attrs.role, 'img');
    const caption = byId(els, svg[0].attrs['aria-labelledby']);
    assert.equal(caption?.tag, 'figcaption');
    assert.equal(caption?.text, 'Cosine similarity heat map');
    assert.equal(els.filter((e) => e.tag === 'title')[1]?.text, 'Cosine similarity heat map');
    assert.match(
      byId(els, svg[0].attrs['aria-describedby'])?.text ?? '',
      /stronger the color.*−1, opposite.*Each value is also in the table below/,
    );
    // It shrinks with the tab (to a tab beside the payload at 900 px, 200 px of map; a large map to 80 % of its
    // size), then scrolls in a region the keyboard reaches, named by the caption.
    const holder = els.find((e) => e.attrs.role === 'region' && e.attrs['aria-labelledby'] === 'heat-caption');
    assert.equal(holder?.attrs.tabindex, '0');
    const width = Number(svg[0].attrs.width);
    const style = els.find((e) => e.tag === 'style')?.text ?? '';
    assert.ok(style.includes(`svg.heat { width: ${width}px; min-width: 200px; }`), style);
    assert.ok(width <= 320, `two inputs draw a narrow map (${width} px)`);
    assert.equal(heatMinWidth(1000), 200);
    assert.equal(heatMinWidth(240), 192);
    // Rows say the input's number and text, columns its number (as the pairs table's columns).
    assert.deepEqual(
      els.filter((e) => e.tag === 'text' && e.attrs.class === 'label').map((e) => e.text),
      ['1 · A cat sat on the mat.', '1', '2 · A dog lay on the rug.', '2', '−1', '−0.5', '0', '0.5', '1'],
    );
    // Four cells (and five legend swatches), each pair's value written in it and named in its tooltip.
    const pairs = cells(els).filter((c) => c.text !== '');
    assert.equal(pairs.length, 4);
    assert.deepEqual(
      pairs.map((c) => c.text),
      [
        'A cat sat on the mat. · A cat sat on the mat.: 1.000',
        'A cat sat on the mat. · A dog lay on the rug.: 0.981',
        'A dog lay on the rug. · A cat sat on the mat.: 0.981',
        'A dog lay on the rug. · A dog lay on the rug.: 1.000',
      ],
    );
    assert.deepEqual(
      els.filter((e) => e.tag === 'text' && e.attrs.class === 'value').map((e) => e.text),
      ['1.000', '.981', '.981', '1.000'],
    );
    // The more alike, the more opaque the cell.
    assert.equal(pairs[0].attrs['fill-opacity'], '1');
    assert.ok(Number(pairs[1].attrs['fill-opacity']) < 1);
  });

  it('hostile inputs stay text: no element, attribute, link or command is made of them', () => {
    const hostile = [
      '<img src=x onerror=alert(1)>',
      '](javascript:alert(1)) [x](command:workbench.action.openSettings)',
      '"><script>alert(2)</script><svg onload=alert(3)>',
      'rtl \u202Eevil\u202C end',
    ];
    const html = draw(
      hostile.map((_, i) => [1, i]),
      hostile,
      { model: '<b>model</b>', source: '<i>x</i>' },
    );
    const els = elements(html);
    const tags = new Set(els.map((e) => e.tag));
    for (const tag of ['img', 'script', 'a', 'b', 'i']) {
      assert.ok(!tags.has(tag), `no <${tag}> element`);
    }
    assert.equal(els.filter((e) => e.tag === 'svg').length, 1, 'only our heat map is an svg');
    for (const e of els) {
      for (const name of Object.keys(e.attrs)) {
        assert.ok(!/^on/i.test(name), `no ${name} attribute on <${e.tag}>`);
        assert.ok(!/javascript:|command:/i.test(e.attrs[name]), `<${e.tag} ${name}> holds no link`);
      }
      assert.ok(!('href' in e.attrs) && !('src' in e.attrs), `<${e.tag}> links nowhere`);
    }
    const text = bodyText(html);
    assert.ok(text.includes('<img src=x onerror=alert(1)>'), 'the input is shown as typed');
    assert.ok(text.includes('](javascript:alert(1)) [x](command:workbench.action.openSettings)'));
    assert.ok(text.includes('<b>model</b>'));
    assert.ok(text.includes('rtl ⟨U+202E⟩evil⟨U+202C⟩ end'), 'a bidi override is shown, not obeyed');
    assert.ok(!html.includes('\u202E'));
  });

  it('a vector without length (or NaN) has no similarity: a dashed empty cell and "–", never "NaN"', () => {
    const html = draw([
      [0, 0],
      [1, 0],
      [Number.NaN, 1],
    ]);
    const els = elements(html);
    assert.ok(!/NaN/.test(bodyText(html)));
    assert.deepEqual(rowsOf(html, 'inputs').slice(1), [
      ['1', 'input 1', '0.000'],
      ['2', 'input 2', '1.000'],
      ['3', 'input 3', '–'],
    ]);
    const matrix = rowsOf(html, 'matrix');
    assert.deepEqual(matrix[1], ['1 · input 1', '–', '–', '–']);
    assert.deepEqual(matrix[2], ['2 · input 2', '–', '1.000', '–']);
    const none = cells(els).filter((c) => /\bnone\b/.test(c.attrs.class));
    assert.equal(none.length, 8);
    assert.ok(none.every((c) => c.attrs['fill-opacity'] === undefined));
  });

  it('one input: its norm, no picture, and how to get one', () => {
    const html = draw([[1, 2, 2]], ['only one']);
    const els = elements(html);
    assert.equal(byId(els, 'title')?.text, '1 vector × 3 dimensions');
    assert.deepEqual(rowsOf(html, 'inputs').slice(1), [['1', 'only one', '3.000']]);
    assert.equal(els.filter((e) => e.tag === 'svg').length, 0);
    assert.match(bodyText(html), /Send two inputs or more to see how alike they are\./);
  });

  it(`up to ${MAX_SIMILARITY_INPUTS} inputs the matrix is drawn (values too small to write stay in the table); beyond, only the inputs`, () => {
    const vectors = (n: number) => Array.from({ length: n }, (_, i) => [1, i / n]);
    const fifty = draw(vectors(MAX_SIMILARITY_INPUTS));
    const els = elements(fifty);
    assert.equal(cells(els).length, MAX_SIMILARITY_INPUTS * MAX_SIMILARITY_INPUTS + 5, 'every pair and the legend');
    assert.equal(els.filter((e) => e.tag === 'text' && e.attrs.class === 'value').length, 0);
    assert.equal(rowsOf(fifty, 'matrix').length, MAX_SIMILARITY_INPUTS + 1);
    // The wide table scrolls in a region that the keyboard can reach.
    const region = els.find((e) => e.attrs.role === 'region' && e.attrs['aria-labelledby'] === 'matrix-heading');
    assert.equal(region?.attrs.tabindex, '0');
    assert.equal(byId(els, 'matrix-heading')?.text, 'Similarity of each pair');

    const more = draw(vectors(MAX_SIMILARITY_INPUTS + 1));
    const moreEls = elements(more);
    assert.equal(moreEls.filter((e) => e.tag === 'svg').length, 0);
    assert.ok(!more.includes('class="numbers matrix"'));
    assert.equal(rowsOf(more, 'inputs').length, MAX_SIMILARITY_INPUTS + 2);
    assert.match(bodyText(more), /The similarity matrix is drawn for 2 to 50 inputs\./);
  });

  it('a long input is cut in the table; the heat map labels it shorter still', () => {
    const long = `${'word '.repeat(200)}end`;
    const html = draw(two, [long, 'b']);
    const shown = rowsOf(html, 'inputs')[1][1];
    assert.equal(shown.length, INPUT_CHARS);
    assert.ok(shown.endsWith('…'));
    const labels = elements(html).filter((e) => e.tag === 'text' && e.attrs.class === 'label');
    assert.equal(labels[0].text, `1 · ${long.slice(0, 27)}…`);
  });

  it('cells grow more opaque from −1 to 1, and stay visible at −1', () => {
    assert.equal(cellOpacity(-1), 0.08);
    assert.equal(cellOpacity(-5), 0.08);
    assert.equal(cellOpacity(0), 0.54);
    assert.equal(cellOpacity(1), 1);
    assert.ok(cellOpacity(0.5) > cellOpacity(0.4));
  });
});
