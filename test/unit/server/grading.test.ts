// The local service's answers to the graders (a verdict in the strict format, word embeddings) and its
// scripted answers for repeats, over real HTTP.
import * as assert from 'node:assert/strict';
import { criterionNames, localVerdict, quotedParts, wordVector } from '../../server/grading';
import { startServer } from '../../server';
import { judgeRequest } from '../../../src/checks/core/judgePrompt';

async function post(url: string, key: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, unknown>;
}

const content = (r: Record<string, unknown>) =>
  (r.choices as Array<{ message: { content: string } }>)[0].message.content;

describe('local service: grading', () => {
  it('answers a judge request with a strict verdict: pass when every name of the criterion is in the answer', async () => {
    const s = await startServer();
    try {
      const pass = await post(
        s.url,
        s.keys.acme,
        '/v1/chat',
        judgeRequest('aurora-1', 'The answer names Paris', 'Paris, of course.'),
      );
      assert.deepEqual(JSON.parse(content(pass)), { verdict: 'pass', reason: 'The answer mentions Paris.' });
      const fail = await post(
        s.url,
        s.keys.acme,
        '/v1/chat',
        judgeRequest('aurora-1', 'Names "New York" and Oslo', 'Oslo.'),
      );
      assert.deepEqual(JSON.parse(content(fail)), { verdict: 'fail', reason: 'The answer does not mention New York.' });
      // Anything else is answered as before.
      const usual = await post(s.url, s.keys.acme, '/v1/chat', {
        model: 'aurora-1',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.match(content(usual), /^Hello! I am a demo model/);
    } finally {
      await s.close();
    }
  });

  it('scripts: chat answers in turn, judge answers in turn; word embeddings on request', async () => {
    const s = await startServer({
      grading: { chatScript: ['A', 'B'], judgeScript: ['nonsense'], embeddings: 'words' },
    });
    try {
      const ask = () =>
        post(s.url, s.keys.acme, '/v1/chat', { model: 'aurora-1', messages: [{ role: 'user', content: 'q' }] });
      assert.deepEqual([content(await ask()), content(await ask()), content(await ask())], ['A', 'B', 'A']);
      assert.equal(content(await post(s.url, s.keys.acme, '/v1/chat', judgeRequest('aurora-1', 'X', 'y'))), 'nonsense');
      const e = await post(s.url, s.keys.acme, '/v1/embeddings', {
        model: 'cirrus-embed-1',
        input: ['Paris is big', 'big Paris is'],
      });
      const [a, b] = (e.data as Array<{ embedding: number[] }>).map((d) => d.embedding);
      assert.equal(a.length, 256);
      assert.deepEqual(a, b);
    } finally {
      await s.close();
    }
  });

  it('reads the quoted criterion and answer, and the names a criterion asks for', () => {
    assert.deepEqual(quotedParts('Criterion:\n"""\nc\n"""\n\nAnswer:\n""""\na\n"""\n""""'), ['c', 'a\n"""']);
    assert.deepEqual(quotedParts('"""\nunclosed'), []);
    assert.deepEqual(criterionNames('The answer names Paris and "the Seine", not Lyon'), [
      'the Seine',
      'Paris',
      'Lyon',
    ]);
    assert.deepEqual(criterionNames('the answer is polite'), []);
    assert.equal(JSON.parse(localVerdict({ messages: [{ role: 'user', content: 'no quotes' }] })).verdict, 'fail');
  });

  it('word vectors: unit length, equal for the same words in any order and case', () => {
    const v = wordVector('Paris paris river', 16);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    assert.deepEqual(wordVector('river PARIS Paris', 16), v);
    assert.deepEqual(wordVector('', 4), [0, 0, 0, 0]);
  });
});
