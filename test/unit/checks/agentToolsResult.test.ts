// A tool's result (src/checks/agentTools/core/result.ts): every secret the host knows is out of it, in any field
// and any echoed form, and service text is one safe line per line, capped.
import * as assert from 'node:assert/strict';
import { Redactor } from '../../../src/api/redact';
import { errorResult, okResult, serviceText } from '../../../src/checks/agentTools/core/result';

const KEY = 'sk-live/ab+cd"ef\\gh-0123456789';

describe('checks/agentTools results', () => {
  const redactor = new Redactor();
  redactor.add(KEY);

  it('takes the key out of every field, nested or in a list, and out of the JSON text as a whole', () => {
    const r = okResult(
      { a: `x ${KEY} y`, list: [KEY, { deep: `${KEY}${KEY}` }], n: 3, none: undefined },
      redactor.removeSecrets,
    );
    assert.ok(!r.text.includes(KEY));
    assert.ok(!r.text.includes(JSON.stringify(KEY).slice(1, -1)), 'the key in its JSON-escaped form');
    const read = JSON.parse(r.text);
    assert.equal(read.n, 3);
    assert.match(read.a, /^x \[redacted\] y$/);
    assert.equal(read.list[0], '[redacted]');
    assert.ok(!('none' in read));
  });

  it('says an error in one line, the key out of it, marked as an error', () => {
    const r = errorResult(`the service said: bad key ${KEY}\nsecond line`, redactor.removeSecrets);
    assert.equal(r.isError, true);
    assert.equal(r.text, 'Error: the service said: bad key [redacted] second line');
  });

  it('keeps a card’s lines, each made safe, and cuts it at the cap saying so', () => {
    const text = serviceText('# Title\n\nSee [x](command:evil) \u202Egnp.exe\n' + 'long line\n'.repeat(50), 120);
    const lines = text.split('\n');
    assert.equal(lines[0], '# Title');
    assert.equal(lines[2], 'See [x] (command:evil) gnp.exe');
    assert.equal(lines.at(-1), '… (cut here)');
    assert.ok(text.length <= 120 + 20);
  });
});
