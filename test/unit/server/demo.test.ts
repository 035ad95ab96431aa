// The demo a newcomer meets (`npm run demo`): Model Cards that read like cards, answers that read like answers,
// embeddings where a paraphrase is close, and a registry with capabilities and lifecycle. Hostile text is
// hostile mode's only.
import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { request } from 'undici';
import { CARD_MARKER, loadRegistry, startServer, type RunningServer } from '../../server';
import { embed, generateText } from '../../server/generation';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('local Model Access Service: the demo', () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ localCards: true });
  });
  after(() => s.close());

  const fetchText = async (url: string) => {
    const res = await request(url);
    return { status: res.statusCode, type: String(res.headers['content-type']), text: await res.body.text() };
  };

  describe('Model Cards', () => {
    it('every demo model has a card with its facts, intended use, limitations, an evaluation table and a license', async () => {
      for (const model of s.registry.models) {
        const card = await fetchText(model.model_card_url);
        assert.equal(card.status, 200, model.id);
        assert.match(card.type, /^text\/markdown/);
        const headings = card.text.match(/^#{1,2} .+$/gm) ?? [];
        assert.deepEqual(
          headings,
          [`# ${model.id}`, '## Model details', '## Intended use', '## Limitations', '## Evaluation', '## License'],
          model.id,
        );
        assert.match(card.text, /\| Benchmark \| Score \|\n\| --- \| ---: \|\n(\| .+ \| \d+\.\d \|\n)+/, model.id);
        assert.ok(card.text.includes(CARD_MARKER), model.id);
      }
    });

    it('a card has no link, raw HTML or hidden character: only headings, text, lists and tables', async () => {
      const tokens = new MarkdownIt({ html: true, linkify: true }).parse(
        (await fetchText(s.registry.models[0].model_card_url)).text,
        {},
      );
      const kinds = new Set(tokens.flatMap((t) => [t.type, ...(t.children ?? []).map((c) => c.type)]));
      for (const kind of ['link_open', 'html_inline', 'html_block', 'image']) {
        assert.ok(!kinds.has(kind), `no ${kind}`);
      }
      assert.ok(kinds.has('table_open') && kinds.has('bullet_list_open') && kinds.has('heading_open'));
    });

    it('a deprecated model’s card says when it retires and what to use instead', async () => {
      const card = (await fetchText(`${s.url}/cards/aurora-1.md`)).text;
      assert.match(card, /\| Status \| Deprecated; retires on \d{4}-\d{2}-\d{2}; use aurora-2 instead \|/);
    });

    it('later versions of a family score higher on the same benchmark', async () => {
      const score = (text: string) => Number(/\| MMLU \(5-shot\) \| ([\d.]+) \|/.exec(text)?.[1]);
      const first = score((await fetchText(`${s.url}/cards/aurora-1.md`)).text);
      const later = score((await fetchText(`${s.url}/cards/aurora-2.md`)).text);
      assert.ok(later > first, `${later} > ${first}`);
    });

    it('the .html card is a web page of the same text, its model id escaped', async () => {
      const page = await fetchText(`${s.url}/cards/${encodeURIComponent('acme/sable-7b:q4_k_m')}.html`);
      assert.equal(page.status, 200);
      assert.match(page.type, /^text\/html/);
      assert.match(page.text, /<title>acme\/sable-7b:q4_k_m · Model Card<\/title>/);
      assert.match(page.text, /<h2>Intended use<\/h2>/);
      assert.match(page.text, /<table>/);
    });

    it('hostile cards are served only in hostile mode', async () => {
      const hostile = await startServer({ hostile: { cards: true } });
      try {
        const card = (await fetchText(`${hostile.url}/cards/aurora-2.md`)).text;
        assert.match(card, /command:/);
        assert.doesNotMatch((await fetchText(`${s.url}/cards/aurora-2.md`)).text, /command:|<img|\u202e/);
      } finally {
        await hostile.close();
      }
    });
  });

  describe('answers', () => {
    it('"What is the capital of France?" is answered with Paris', () => {
      assert.equal(generateText('aurora-2', 'What is the capital of France?'), 'The capital of France is Paris.');
    });

    it('sums are worked out', () => {
      assert.equal(generateText('basalt-code-2', 'What is 12 * 7?'), '12 * 7 = 84.');
      assert.equal(generateText('basalt-code-2', 'What is 1 / 0?'), '1 / 0 has no answer: you cannot divide by zero.');
    });

    it('anything else says plainly it is a demo, quoting the question', () => {
      const answer = generateText('kestrel-reasoner-1', 'Why is the sky blue?');
      assert.match(answer, /^This is kestrel-reasoner-1, a demo model on the local Model Access Service/);
      assert.match(answer, /You asked: "Why is the sky blue\?"\.$/);
    });

    it('asked for a paragraph, a story or a comparison, it writes one about the topic asked, long enough to Stop', () => {
      const cases: [string, RegExp][] = [
        ['Write a short paragraph about version pinning.', /with a short paragraph about version pinning\./],
        ['alpacas vs llamas', /with a comparison about alpacas vs llamas\./],
        ['Tell me a long story', /with a long story as you asked \("Tell me a long story"\)\./],
        ['Please explain, in a few sentences, why the sky is blue', /with an explanation about why the sky is blue\./],
      ];
      for (const [question, names] of cases) {
        const answer = generateText('aurora-2', question);
        assert.match(answer, names, question);
        const words = answer.split(/\s+/).length;
        assert.ok(words >= 100, `${question}: ${words} words stream for seconds at the demo's pace`);
      }
      // The template's own text is no request for a paragraph.
      assert.match(generateText('aurora-2', 'Write your prompt here.'), /You asked: "Write your prompt here\."\.$/);
    });

    // Over HTTP, as the demo is used: a conversation whose earlier turn asked something else.
    it('answers the last user message, never an earlier question: two questions, two fitting answers', async () => {
      const ask = async (path: '/v1/chat' | '/v1/responses', body: Record<string, unknown>) => {
        const res = await request(`${s.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.keys.acme}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'aurora-2', ...body }),
        });
        assert.equal(res.statusCode, 200);
        const json = (await res.body.json()) as {
          choices?: { message: { content: string } }[];
          output?: { content: { text: string }[] }[];
        };
        return json.choices?.[0].message.content ?? json.output?.[0].content[0].text ?? '';
      };
      const earlier = [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'What is 2 + 2?' },
        { role: 'assistant', content: '2 + 2 = 4.' },
      ];
      const paragraph = await ask('/v1/chat', {
        messages: [...earlier, { role: 'user', content: 'Write a short paragraph about version pinning.' }],
      });
      assert.match(paragraph, /^This is aurora-2, a demo model .* with a short paragraph about version pinning\./);
      assert.doesNotMatch(paragraph, /= 4/);
      const paris = await ask('/v1/chat', {
        messages: [...earlier, { role: 'user', content: 'What is the capital of France?' }],
      });
      assert.equal(paris, 'The capital of France is Paris.');
      const llamas = await ask('/v1/responses', {
        input: [
          { role: 'user', content: 'What is the capital of France?' },
          { role: 'assistant', content: 'The capital of France is Paris.' },
          { role: 'user', content: [{ type: 'input_text', text: 'alpacas vs llamas' }] },
        ],
      });
      assert.match(llamas, /with a comparison about alpacas vs llamas\./);
      assert.doesNotMatch(llamas, /Paris/);
    });
  });

  describe('embeddings', () => {
    const e = (text: string) => embed('cirrus-embed-2', text, 64);

    it('a paraphrase is close; an unrelated sentence is not', () => {
      const near = cosine(e('cat sat on the mat'), e('kitten rested on the rug'));
      const far = cosine(e('cat sat on the mat'), e('The stock market fell sharply today'));
      assert.ok(near > 0.7, `paraphrase ${near}`);
      assert.ok(far < 0.3, `unrelated ${far}`);
    });

    it('vectors are unit length, also for input with no words', () => {
      for (const text of ['', '???', 'one two three']) {
        assert.ok(Math.abs(Math.hypot(...e(text)) - 1) < 1e-4, JSON.stringify(text));
      }
    });
  });

  describe('registry', () => {
    it('models say what they can do, how much they read, and where they are in their lifecycle', () => {
      const statuses = new Set<unknown>();
      for (const model of loadRegistry().models) {
        const extra = model.extra ?? {};
        assert.equal(typeof extra.capabilities, 'object', model.id);
        statuses.add(extra.lifecycle_status);
        if (extra.lifecycle_status === 'deprecated') {
          assert.ok(extra.retirement_date && extra.replacement, `${model.id} retires and has a replacement`);
        }
      }
      assert.deepEqual([...statuses].sort(), ['deprecated', 'generally-available', 'preview']);
    });
  });
});
