// A key the server echoes in event data must be removed wherever the chunks happen to split it.
import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { redactor } from '../../../src/api/redact';
import { readEventStream } from '../../../src/api/sse';

const KEY = 'ma-test-key-0123456789';

async function* pieces(text: string, cuts: number[]): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(at, cut);
    at = cut;
  }
}

async function read(text: string, cuts: number[], redact: (t: string) => string): Promise<string[]> {
  const out: string[] = [];
  for await (const ev of readEventStream(pieces(text, cuts), {
    redact,
    mapError: (e) => new ServiceError({ kind: 'network', message: String(e) }),
  })) {
    out.push(ev.data);
  }
  return out;
}

describe('event stream redaction', () => {
  const stream = `data: {"a":1}\n\ndata: clean é\n\n: comment\ndata: {"echo":"${KEY}"}\n\ndata: tail ${KEY}\ndata: second line\n\ndata: after\n\n`;
  const expected = ['{"a":1}', 'clean é', '{"echo":"[redacted]"}', 'tail [redacted]\nsecond line', 'after'];

  it('removes the key wherever one cut splits the stream', async () => {
    const redact = redactor([KEY]);
    const length = Buffer.byteLength(stream);
    for (let cut = 0; cut <= length; cut++) {
      assert.deepEqual(await read(stream, [cut], redact), expected, `cut at ${cut}`);
    }
  });

  it('removes the key when the stream arrives a byte at a time', async () => {
    const length = Buffer.byteLength(stream);
    assert.deepEqual(
      await read(
        stream,
        Array.from({ length }, (_, i) => i),
        redactor([KEY]),
      ),
      expected,
    );
  });

  it('removes every echoed form of the key from one event among many read in one chunk', async () => {
    const redact = redactor([KEY]);
    const forms = [
      KEY,
      Buffer.from(KEY).toString('base64'),
      Buffer.from(`user:${KEY}`).toString('base64url'),
      Buffer.from(KEY).toString('hex').toUpperCase(),
      KEY.replace(/-/g, '\\u002d'),
      KEY.split('').join('\u200b'),
      [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    ];
    for (const form of forms) {
      const data = ['{"a":1}', `{"echo":"${form}"}`, 'after'];
      const got = await read(data.map((d) => `data: ${d}\n\n`).join(''), [], redact);
      assert.equal(got.length, 3, form);
      assert.deepEqual([got[0], got[2]], ['{"a":1}', 'after'], form);
      assert.ok(!got[1].includes(form) && got[1].includes('[redacted]'), `${form} → ${got[1]}`);
    }
    // Escapes and references that stand for no key are left as they are.
    const clean = ['x&amp;y \\n', '{"a":"\\u00e9"}', 'z'];
    assert.deepEqual(await read(clean.map((d) => `data: ${d}\n\n`).join(''), [], redact), clean);
  });

  it('reads each event alone: a key split between two events changes neither', async () => {
    const half = KEY.length / 2;
    const data = ['one', KEY.slice(0, half), KEY.slice(half), 'two'];
    const text = data.map((d) => `data: ${d}\n\n`).join('');
    assert.deepEqual(await read(text, [], redactor([KEY])), data);
  });

  it('leaves a stream without the key as it is, and applies any redacting function', async () => {
    assert.deepEqual(await read('data: x\n\ndata: y\n\n', [3], redactor([KEY])), ['x', 'y']);
    const plain = (t: string) => t.split(KEY).join('[redacted]');
    assert.deepEqual(await read(stream, [20, 41], plain), expected);
  });
});
