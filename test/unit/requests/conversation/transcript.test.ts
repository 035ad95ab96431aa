import * as assert from 'node:assert/strict';
import { readConversation, type Turn } from '../../../../src/requests/conversation/core/turns';
import { RenderedTurns, renderMarkdown, transcriptHtml } from '../../../../src/requests/conversation/core/transcript';
import { HOSTILE } from '../../../server';
import { elements } from '../../helpers/html';

function turns(value: unknown): Turn[] {
  const r = readConversation(JSON.stringify(value));
  assert.ok(r.ok);
  return r.conversation.turns;
}

const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

describe('conversation transcript', () => {
  it('shows each turn as an article named by its number and role, in order', () => {
    const html = transcriptHtml(
      turns({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: 'd' },
          { role: 'user', content: 'Hi *there*' },
          { role: 'assistant', content: 'Hello **you**\n\n```js\nlet a = 1 < 2;\n```' },
          { role: 'critic', content: 'c' },
          { role: 'Odd Role', content: '' },
        ],
      }),
    );
    const articles = elements(html).filter((e) => e.tag === 'article');
    assert.deepEqual(
      articles.map((a) => a.attrs['aria-label']),
      [
        'Turn 1: System',
        'Turn 2: Developer',
        'Turn 3: User',
        'Turn 4: Assistant',
        'Turn 5: critic',
        'Turn 6: Odd Role',
      ],
    );
    assert.deepEqual(
      articles.map((a) => a.attrs.class),
      [
        'turn role-system',
        'turn role-developer',
        'turn role-user',
        'turn role-assistant',
        'turn role-critic',
        'turn role-other',
      ],
    );
    assert.ok(articles.every((a) => a.attrs.tabindex === '0' && a.attrs['aria-busy'] === undefined));
    // The user's text is text; the assistant's Markdown is rendered, its code as a code block.
    assert.ok(html.includes('Hi *there*'));
    assert.ok(elements(html).some((e) => e.tag === 'strong' && e.text === 'you'));
    const code = elements(html).find((e) => e.tag === 'code' && e.attrs.class === 'language-js');
    assert.equal(code?.text, 'let a = 1 < 2;\n');
    assert.ok(articles[5].text.includes('(empty)'));
  });

  it('shows tool calls and tool results as such', () => {
    const html = transcriptHtml(
      turns({
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', function: { name: 'lookup', arguments: '{"q":"<b>"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '42' },
        ],
      }),
    );
    const section = elements(html).find((e) => e.tag === 'section');
    assert.equal(section?.attrs['aria-label'], 'Tool call lookup');
    assert.ok(section?.text.includes('Tool call: lookup call_1'));
    assert.ok(section?.text.includes('{"q":"<b>"}'));
    assert.ok(!elements(html).some((e) => e.tag === 'b'));
    const result = elements(html).filter((e) => e.tag === 'article')[1];
    assert.equal(result.attrs['aria-label'], 'Turn 2: Tool result');
    assert.ok(result.text.includes('For call call_1'));
    assert.ok(result.text.includes('42'));
  });

  it('shows attached images as thumbnails, files by name, and no other image source', () => {
    const html = transcriptHtml(
      turns({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: PIXEL } },
              { type: 'image_url', image_url: { url: 'https://img.test/a.png' } },
              { type: 'image_url', image_url: { url: 'http://img.test/a.png' } },
              { type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2Zz4=' } },
              { type: 'input_file', file_id: 'file-7' },
            ],
          },
        ],
      }),
    );
    const images = elements(html).filter((e) => e.tag === 'img');
    assert.deepEqual(
      images.map((i) => [i.attrs.src, i.attrs.alt]),
      [
        [PIXEL, 'Image 1 of turn 1'],
        ['https://img.test/a.png', 'Image 2 of turn 1'],
      ],
    );
    assert.ok(html.includes('Image (not shown): http://img.test/a.png'));
    assert.ok(html.includes('File: file-7'));
  });

  it('renders service text as data: no raw HTML, no command or javascript links, no loaded images', () => {
    const hostile = [
      HOSTILE.commandLink,
      '<img src=x onerror=alert(1)>',
      '[js](javascript:alert(1))',
      '[ok](https://example.test/page)',
      '[plain](http://example.test/)',
      '![tracker](https://evil.test/pixel.png)',
    ].join('\n\n');
    const html = renderMarkdown(hostile);
    const els = elements(html);
    assert.ok(!els.some((e) => e.tag === 'img' || e.tag === 'script'));
    const hrefs = els.filter((e) => e.tag === 'a').map((e) => e.attrs.href);
    assert.ok(
      hrefs.every((h) => h === undefined || /^(https?:\/\/|#)/.test(h)),
      hrefs.join(' '),
    );
    assert.ok(hrefs.includes('https://example.test/page'));
    assert.ok(!hrefs.some((h) => h?.startsWith('command:') || h?.startsWith('javascript:')));
    const tracker = els.find((e) => e.tag === 'a' && e.text === '[image: tracker]');
    assert.equal(tracker?.attrs.href, 'https://evil.test/pixel.png', 'the image is a link');
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    // An image without alt text.
    assert.ok(renderMarkdown('![](https://x.test/i.png)').includes('[image: image]'));
  });

  it('adds the answer still arriving, marked busy, and the finished one not yet appended', () => {
    const base = turns({ messages: [{ role: 'user', content: 'q' }] });
    const streaming = transcriptHtml(base, { text: 'Part**ial**', toolCalls: [], streaming: true });
    const last = elements(streaming).filter((e) => e.tag === 'article')[1];
    assert.equal(last.attrs['aria-busy'], 'true');
    assert.equal(last.attrs['aria-label'], 'Turn 2: Assistant');
    assert.ok(last.text.includes('(arriving…)'));
    assert.ok(elements(streaming).some((e) => e.tag === 'strong' && e.text === 'ial'));
    const started = transcriptHtml(base, { text: '', toolCalls: [], streaming: true });
    assert.equal(elements(started).filter((e) => e.tag === 'article').length, 2);
    const done = transcriptHtml(base, {
      text: '',
      toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }],
      streaming: false,
    });
    const finished = elements(done).filter((e) => e.tag === 'article')[1];
    assert.equal(finished.attrs['aria-busy'], undefined);
    assert.equal(finished.attrs['aria-label'], 'Turn 2: Assistant (answer not yet in the payload)');
    assert.ok(finished.text.includes('Tool call: f'));
    // Nothing arrived and nothing is arriving: no extra turn.
    assert.equal(
      elements(transcriptHtml(base, { text: '', toolCalls: [], streaming: false })).filter((e) => e.tag === 'article')
        .length,
      1,
    );
  });

  it('keeps links to anchors and to http(s) addresses in any case', () => {
    const hrefs = elements(renderMarkdown('[top](#top) [up](HTTPS://EXAMPLE.TEST/A)'))
      .filter((e) => e.tag === 'a')
      .map((e) => e.attrs.href);
    assert.deepEqual(hrefs, ['#top', 'HTTPS://EXAMPLE.TEST/A']);
  });

  it('renders each answer once per transcript while it redraws, and starts over past its size', () => {
    const rendered = new RenderedTurns(2);
    const base = turns({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'one **a**' },
      ],
    });
    const first = transcriptHtml(base, { text: 'two', toolCalls: [], streaming: true }, rendered);
    assert.equal(rendered.size, 2);
    assert.equal(transcriptHtml(base, { text: 'two', toolCalls: [], streaming: true }, rendered), first);
    assert.equal(rendered.size, 2);
    assert.equal(rendered.render('one **a**'), '<div class="model-card"><p>one <strong>a</strong></p>&#10;</div>\n');
    rendered.render('three');
    assert.equal(rendered.size, 1, 'emptied when full, then the new one kept');
    assert.equal(rendered.render('three'), '<div class="model-card"><p>three</p>&#10;</div>\n');
  });

  it('says so when there are no turns', () => {
    assert.ok(transcriptHtml([]).includes('The conversation has no turns yet.'));
  });
});
