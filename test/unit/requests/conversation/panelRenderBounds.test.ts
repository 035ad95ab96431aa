// The conversation panel survives any answer: a code block the highlighter once recursed on per `#` or `-`,
// a renderer that fails (shown as plain text, the panel drawing on), and a long stream whose every redraw
// renders a bounded part of it, however long it grows.
import * as assert from 'node:assert/strict';
import { panelView } from '../../../../src/requests/conversation/core/panelView';
import { RENDER_LIMIT, RenderedAnswers, renderAnswer } from '../../../../src/requests/conversation/core/panelMarkdown';
import { highlight } from '../../../../src/requests/conversation/core/highlight';
import { bodyText, elements } from '../../helpers/html';

const chat = (answer: string) =>
  JSON.stringify({
    model: 'm',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: answer },
    ],
  });

/** A renderer that counts what it is given (and renders it for real). */
function counting(): { render: (text: string) => string; calls: number; chars: number } {
  const c = {
    calls: 0,
    chars: 0,
    render: (text: string) => {
      c.calls++;
      c.chars += text.length;
      return renderAnswer(text);
    },
  };
  return c;
}

describe('conversation panel: any answer renders', function () {
  this.timeout(20_000);

  for (const [what, line, lang] of [
    ['#', '#'.repeat(5000), 'c'],
    ['#', '#'.repeat(5000), ''],
    ['-', '-'.repeat(5000), 'js'],
    ['# and -', '#-'.repeat(5000), 'text'],
  ] as const) {
    it(`a 5,000-character line of ${what} in a \`${lang}\` code block renders, its text whole`, () => {
      const html = renderAnswer(`Look:\n\n\`\`\`${lang}\n${line}\n\`\`\`\n`);
      assert.equal(elements(html).find((e) => e.tag === 'pre')?.text, `${line}\n`);
      assert.equal(highlight(line, lang), line, 'not a comment there: plain characters');
      const v = panelView(chat(`\`\`\`${lang}\n${line}\n\`\`\``), new RenderedAnswers());
      assert.ok(bodyText(`<body>${v.pieces[1].html}</body>`).includes(line));
    });
  }

  it('still colours comments where `#` and `--` start them', () => {
    assert.match(highlight('x = 1  # note', 'python'), /<span class="tok-comment"># note<\/span>/);
    assert.match(highlight('SELECT 1 -- note', 'sql'), /<span class="tok-comment">-- note<\/span>/);
    assert.ok(!highlight('a -- b', 'js').includes('tok-comment'));
  });

  it('an answer the renderer fails on is shown as plain text, and the panel draws on', () => {
    const failing = new RenderedAnswers(1000, () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const answer = '**bold** and `code` <b>x</b>';
    const v = panelView(chat(answer), failing);
    const html = v.pieces[1].html;
    const plain = elements(html).find((e) => e.attrs.class === 'plain');
    assert.equal(plain?.text, answer, 'the answer as written');
    assert.ok(bodyText(`<body>${html}</body>`).includes('could not be formatted; it is shown as plain text'));
    assert.ok(!elements(html).some((e) => e.tag === 'b'), 'never as markup');
    assert.ok(!html.includes('RangeError') && !html.includes('Maximum call stack'), 'no raw error');
    // The growing answer too: a redraw while it arrives, then the arrived one.
    const arriving = panelView(chat(answer), failing, { text: 'Part *one*', toolCalls: [], streaming: true });
    assert.equal(elements(arriving.pieces[2].html).find((e) => e.attrs.class === 'plain')?.text, 'Part *one*');
    const arrived = panelView(chat(answer), failing, { text: 'Done', toolCalls: [], streaming: false });
    assert.equal(elements(arrived.pieces[2].html).find((e) => e.attrs.class === 'plain')?.text, 'Done');
  });

  it('a 16 MB arriving answer: each redraw renders at most RENDER_LIMIT characters, its end, saying so', () => {
    const line = 'A line of the answer, with **some** Markdown in it.\n';
    const big = line.repeat(Math.ceil((16 * 1024 * 1024) / line.length)) + 'THE END';
    const r = counting();
    const rendered = new RenderedAnswers(1000, r.render);
    for (let redraw = 0; redraw < 3; redraw++) {
      const before = r.chars;
      const text = big.slice(0, big.length - (2 - redraw) * 1000);
      const v = panelView(chat('Hi'), rendered, { text, toolCalls: [], streaming: true });
      const drawn = r.chars - before;
      assert.ok(drawn > 0 && drawn <= RENDER_LIMIT, `redraw ${redraw} rendered ${drawn} characters`);
      const shown = bodyText(`<body>${v.pieces[2].html}</body>`);
      assert.match(shown, /The first [\d,]+ characters are not shown while the answer arrives/);
      assert.ok(shown.length < RENDER_LIMIT * 2, 'what the page receives is bounded too');
    }
    assert.ok(
      bodyText(
        `<body>${panelView(chat('Hi'), rendered, { text: big, toolCalls: [], streaming: true }).pieces[2].html}</body>`,
      ).includes('THE END'),
      'the end of what arrived is what shows',
    );
    // The caller may have read only the stream's end already: the count it left out is said too.
    const tail = panelView(chat('Hi'), rendered, { text: 'the end', hidden: 5000, toolCalls: [], streaming: true });
    assert.match(bodyText(`<body>${tail.pieces[2].html}</body>`), /The first 5,?000 characters are not shown/);
  });

  it('a 2 MB arrived answer: its first part rendered once, the rest shown as plain text', () => {
    const line = 'Another line, `code` and _emphasis_.\n';
    const big = line.repeat(Math.ceil((2 * 1024 * 1024) / line.length)) + 'LAST WORDS';
    const r = counting();
    const rendered = new RenderedAnswers(1000, r.render);
    const v = panelView(chat(big), rendered);
    assert.ok(r.chars > 0 && r.chars <= RENDER_LIMIT, `rendered ${r.chars} characters as Markdown`);
    const html = v.pieces[1].html;
    assert.match(
      bodyText(`<body>${html}</body>`),
      /The answer goes on for [\d,]+ more characters, shown as plain text/,
    );
    assert.ok(html.includes('LAST WORDS'), 'the whole answer is there');
    // Drawn again (the next redraw): nothing is rendered anew.
    const calls = r.calls;
    panelView(chat(big), rendered);
    assert.equal(r.calls, calls);
  });
});
