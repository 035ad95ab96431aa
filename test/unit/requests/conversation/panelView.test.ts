import * as assert from 'node:assert/strict';
import { panelView } from '../../../../src/requests/conversation/core/panelView';
import { RenderedAnswers, renderAnswer } from '../../../../src/requests/conversation/core/panelMarkdown';
import { readPageMessage } from '../../../../src/requests/conversation/core/panelProtocol';
import { oneChange } from '../../../../src/requests/conversation/core/textDiff';
import { highlight } from '../../../../src/requests/conversation/core/highlight';
import { clean } from '../../../../src/common/text';
import { HOSTILE } from '../../../server';
import { bodyText, elements } from '../../helpers/html';

const CHAT = JSON.stringify({
  model: 'm',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Show <b>code</b>' },
    { role: 'assistant', content: '### JSON\n\nHere:\n\n```js\nconst a = "x"; // note\n```\n\n---\n' },
  ],
});

function view(
  text: string,
  ...rest: Parameters<typeof panelView> extends [string, RenderedAnswers, ...infer R] ? R : never
) {
  return panelView(text, new RenderedAnswers(), ...rest);
}

function buttons(html: string): string[] {
  return elements(html)
    .filter((e) => e.tag === 'button')
    .map((e) => e.attrs['aria-label'] ?? e.text);
}

describe('conversation panel view', () => {
  it('renders answers as Markdown (no ### or fence left), user text as text, each turn named', () => {
    const v = view(CHAT);
    assert.ok(v.readable);
    assert.equal(v.pieces.length, 3);
    const html = v.pieces.map((p) => p.html).join('');
    const text = bodyText(`<body>${html}</body>`);
    assert.ok(!text.includes('###') && !text.includes('```'), text);
    assert.ok(text.includes('Show <b>code</b>'), 'the user’s markup shown as text');
    assert.ok(!elements(html).some((e) => e.tag === 'b'));
    assert.deepEqual(
      elements(html)
        .filter((e) => e.tag === 'article')
        .map((e) => e.attrs['aria-label']),
      ['Turn 1: System', 'Turn 2: User', 'Turn 3: Assistant'],
    );
    assert.ok(elements(html).some((e) => e.tag === 'h3' && e.text === 'JSON'));
  });

  it('shows a user turn as the words Send sends: a typed "{{French}}" without its escape, a reference as written', () => {
    const text = JSON.stringify({
      messages: [
        { role: 'user', content: 'And in \\{{French}}?' },
        { role: 'assistant', content: 'Oui.' },
        { role: 'user', content: 'Hi {{name}} and \\{{x}}' },
      ],
    });
    const html = view(text).pieces.map((p) => p.html);
    const plain = (i: number) => elements(html[i]).find((e) => e.attrs.class === 'plain')?.text;
    // Edit starts from this text, and writes it literally again: the file is unchanged by an unedited resend.
    assert.equal(plain(0), 'And in {{French}}?');
    assert.equal(plain(2), 'Hi {{name}} and \\{{x}}');
  });

  it('offers Copy and Fork on every turn, Edit on user turns, Regenerate on the last answer only', () => {
    const v = view(CHAT);
    assert.deepEqual(buttons(v.pieces[0].html), ['Copy turn 1', 'Fork from turn 1']);
    assert.deepEqual(buttons(v.pieces[1].html), ['Copy turn 2', 'Edit turn 2 and resend', 'Fork from turn 2']);
    assert.deepEqual(buttons(v.pieces[2].html), [
      'Copy code',
      'Copy turn 3',
      'Regenerate the answer',
      'Fork from turn 3',
    ]);
  });

  it('colours code from the theme, each block with a Copy button, the code kept as text', () => {
    const html = renderAnswer('```python\nx = "a<b"  # c\nif True: pass\n```');
    const spans = elements(html).filter((e) => e.tag === 'span');
    assert.deepEqual(
      spans.map((s) => [s.attrs.class, s.text]),
      [
        ['tok-string', '"a<b"'],
        ['tok-comment', '# c'],
        ['tok-keyword', 'if'],
        ['tok-literal', 'True'],
        ['tok-keyword', 'pass'],
      ],
    );
    assert.equal(elements(html).find((e) => e.tag === 'pre')?.text, 'x = "a<b"  # c\nif True: pass\n');
    assert.ok(elements(html).some((e) => e.tag === 'button' && e.attrs['data-action'] === 'copyCode'));
    // `#` is no comment in C: the directive keeps its words.
    assert.ok(!highlight('#include <x>', 'c').includes('tok-comment'));
  });

  it('shows answers as data: no command link, script or event handler gets through', () => {
    const hostile = `${HOSTILE.commandLink} <img src=x onerror=alert(1)> <script>alert(1)</script> [js](javascript:alert(1))`;
    const v = view(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: hostile },
        ],
      }),
    );
    const all = elements(v.pieces.map((p) => p.html).join(''));
    assert.ok(!all.some((e) => e.tag === 'script' || e.tag === 'img'));
    assert.ok(!all.some((e) => Object.keys(e.attrs).some((a) => a.startsWith('on'))));
    assert.ok(all.filter((e) => e.tag === 'a').every((a) => !/^(command|javascript):/i.test(a.attrs.href ?? '')));
  });

  it('hides the user turn nobody wrote yet: the message box is where it is written', () => {
    const v = view(
      JSON.stringify({
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'Write your prompt here.' },
        ],
      }),
    );
    assert.equal(v.pieces.length, 1);
  });

  it('renders what it can of unknown roles and parts, and names them as problems', () => {
    const v = view(
      JSON.stringify({
        messages: [
          { role: 'critic', content: 'too long' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hi' },
              { type: 'input_audio', data: 'AAAA' },
            ],
          },
        ],
      }),
    );
    assert.ok(v.readable);
    assert.equal(v.pieces.length, 2);
    assert.deepEqual(v.problems, [
      'Turn 1 has the unknown role "critic".',
      'Turn 2 has parts of unknown types: input_audio.',
    ]);
    assert.ok(v.pieces[0].html.includes('too long'));
  });

  it('says what is wrong with a payload it cannot read, and draws no turns from it', () => {
    const v = view('{ "messages": [ { "role": "user", ');
    assert.equal(v.readable, false);
    assert.equal(v.pieces.length, 0);
    assert.match(v.problems[0], /not valid JSON/);
  });

  it('shows the answer arriving, then a cut one with what arrived and Keep, an error with its ways out', () => {
    const arriving = view(CHAT, { text: 'Part', toolCalls: [], streaming: true });
    assert.equal(arriving.busy, true);
    const last = arriving.pieces.at(-1)?.html ?? '';
    assert.ok(last.includes('aria-busy="true"') && last.includes('Part'));
    assert.ok(!buttons(arriving.pieces[2].html).includes('Regenerate the answer'), 'no Regenerate while one arrives');

    const cut = view(CHAT, {
      text: 'Part of it',
      toolCalls: [],
      streaming: false,
      cut: clean('Cut: the service failed while the answer was arriving.'),
      error: { message: clean('POST /v1/chat: 503'), ways: [{ action: 'retry', title: clean('Retry') }] },
    });
    const piece = cut.pieces.at(-1)?.html ?? '';
    assert.ok(piece.includes('Part of it') && piece.includes('Cut: the service failed'));
    assert.deepEqual(buttons(piece), ['Retry', 'Keep what arrived as the answer']);
    assert.ok(elements(piece).some((e) => e.attrs.role === 'alert' && e.text.includes('503')));
  });

  it('says an answer kept in the file was cut, from its mark, and still offers its actions', () => {
    const text = `{"messages": [
  {"role": "user", "content": "q"},
  {
    // cut (cancelled): stopped before the answer was complete; this is what arrived
    "role": "assistant",
    "content": "Half"
  }
]}`;
    const rendered = new RenderedAnswers();
    const v = panelView(text, rendered);
    const html = v.pieces[1].html;
    assert.match(
      bodyText(`<body>${html}</body>`),
      /Assistant \(cut\)[\s\S]*Half[\s\S]*Cut: the answer was stopped before it was complete\./,
    );
    assert.deepEqual(buttons(html), ['Copy turn 2', 'Regenerate the answer', 'Fork from turn 2']);
    // The same turn without its mark (taken out by hand) is a plain answer again, in the next draw too.
    const plain = panelView(text.replace(/\/\/ cut[^\n]*\n/, ''), rendered).pieces[1].html;
    assert.ok(!/cut/i.test(bodyText(`<body>${plain}</body>`)), plain);
    assert.ok(!/\bcut\b/i.test(bodyText(`<body>${view(CHAT).pieces[2].html}</body>`)));
  });

  it('puts the raw exchange of an answer one click away: request, status, headers, body, time, usage', () => {
    const v = view(CHAT, undefined, (turn) =>
      turn.text.startsWith('### JSON')
        ? {
            request: '{"model":"m"}',
            endpoint: '/v1/chat',
            status: 200,
            statusText: 'OK',
            headers: { 'x-request-id': 'r1' },
            body: '{"choices":[]}',
            elapsedMs: 42,
            firstByteMs: 20,
            usage: { input: 3, output: 4, total: 7 },
            priced: { price: undefined, cost: undefined },
          }
        : undefined,
    );
    const html = v.pieces[2].html;
    // Tokens, cost and time are seen under the answer without opening anything; no price is said, not zero.
    assert.equal(
      elements(html).find((e) => e.attrs.class === 'answer-facts muted')?.text,
      '7 tokens (3 in, 4 out) · no price known · first byte 20 ms, last byte 42 ms',
    );
    assert.equal(
      v.totals,
      'This conversation: 1 request, 7 tokens (3 in, 4 out), cost unknown; 42 ms waiting for answers.',
    );
    const details = elements(html).find((e) => e.tag === 'details');
    assert.ok(details);
    for (const part of [
      'Raw exchange',
      'POST /v1/chat',
      '200 OK',
      'first byte 20 ms, last byte 42 ms',
      '7 tokens (3 in, 4 out)',
      'no price known',
      'x-request-id: r1',
      '{"model":"m"}',
      '{"choices":[]}',
    ]) {
      assert.ok(details.text.includes(part), part);
    }
    assert.ok(buttons(html).includes('Copy as Code…'));
  });

  it('reads only the messages it knows from the page', () => {
    assert.deepEqual(readPageMessage({ type: 'send', text: 'hi' }), { type: 'send', text: 'hi' });
    assert.equal(readPageMessage({ type: 'send' }), undefined);
    assert.equal(readPageMessage({ type: 'fork', turn: -1 }), undefined);
    assert.equal(readPageMessage({ type: 'run', command: 'x' }), undefined);
    assert.deepEqual(readPageMessage({ type: 'set', name: 'temperature', value: '0.5' }), {
      type: 'set',
      name: 'temperature',
      value: 0.5,
    });
    assert.deepEqual(readPageMessage({ type: 'set', name: 'maxTokens', value: '' }), {
      type: 'set',
      name: 'maxTokens',
      value: undefined,
    });
    assert.equal(readPageMessage({ type: 'set', name: 'maxTokens', value: '1.5' }), undefined);
    assert.equal(readPageMessage({ type: 'set', name: 'url', value: 'x' }), undefined);
  });

  it('makes one change of two texts', () => {
    assert.deepEqual(oneChange('abcXdef', 'abcYYdef'), { offset: 3, length: 1, text: 'YY' });
    assert.equal(oneChange('same', 'same'), undefined);
    assert.deepEqual(oneChange('aa', 'aaa'), { offset: 2, length: 0, text: 'a' });
  });
});
