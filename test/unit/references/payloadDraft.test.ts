// Try the Successor's payload made from code: the prompt is the longest text near the reference, and what is
// taken from the code or the registry is written literally (never a `{{…}}` the next Send resolves).
import * as assert from 'node:assert/strict';
import { parsePayload } from '../../../src/domain/payload/parse';
import { readEndpoint } from '../../../src/domain/payload/endpointHeader';
import { AROUND_LINES, draftPayload, FALLBACK_PROMPT, promptNear } from '../../../src/references/core/payloadDraft';

const PY = [
  'from acme import Client',
  'SYSTEM = "short"',
  'def summarise(text):',
  '    return Client().chat(',
  '        model="aurora-1",',
  '        prompt="Summarise the quarterly report in three short bullet points.",',
  '    )',
].join('\n');

describe('references: a payload made from the code around a reference', () => {
  it('takes the longest literal near the reference as the prompt, not the id or a short name', () => {
    assert.equal(promptNear(PY, 4, 'aurora-1'), 'Summarise the quarterly report in three short bullet points.');
  });

  it('reads Python triple quotes across lines and escaped quotes', () => {
    const text = ['PROMPT = """Explain', 'the "retry" policy', 'in two lines."""', 'MODEL = "aurora-1"'].join('\n');
    assert.equal(promptNear(text, 3, 'aurora-1'), 'Explain\nthe "retry" policy\nin two lines.');
    assert.equal(
      promptNear('x = "say \\"hi\\" to everyone please"\nm = "aurora-1"', 1, 'aurora-1'),
      'say "hi" to everyone please',
    );
  });

  it('looks only within the lines around the reference', () => {
    const far = ['p = "a prompt far above the reference line"', ...Array(AROUND_LINES + 5).fill(''), 'm = "aurora-1"'];
    assert.equal(promptNear(far.join('\n'), far.length - 1, 'aurora-1'), undefined);
  });

  it('writes a chat payload whose endpoint, model and prompt read back as they were', () => {
    const text = draftPayload({
      model: 'aurora-1',
      endpoint: '/v1/chat',
      prompt: 'Hello {{$env HOME}}',
      source: 'app.py:5',
    });
    assert.equal(readEndpoint(text), '/v1/chat');
    assert.match(text, /^\/\/ @expect status 200$/m);
    const parsed = parsePayload(text);
    assert.ok(parsed.ok);
    const body = parsed.value as { model: string; messages: { content: string }[] };
    assert.equal(body.model, 'aurora-1');
    assert.equal(body.messages[0].content, 'Hello \\{{$env HOME}}', 'a {{ from the code is the literal escape');
  });

  it('an embeddings model gets input; no prompt gives the fallback; a source never breaks the comment line', () => {
    const text = draftPayload({
      model: 'e{{x}}',
      endpoint: '/v1/embeddings',
      prompt: undefined,
      source: 'a.py:1\n{"model":1}',
    });
    const parsed = parsePayload(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, { model: 'e\\{{x}}', input: FALLBACK_PROMPT });
    assert.equal(text.split('\n').filter((l) => l.startsWith('{')).length, 1);
  });
});
