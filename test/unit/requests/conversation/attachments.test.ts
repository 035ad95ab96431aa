import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import {
  attach,
  attachmentPart,
  readAttachment,
  sniffImage,
  type Attachment,
} from '../../../../src/requests/conversation/core/attachments';

const SPACES = { insertSpaces: true, tabSize: 2, eol: '\n' };
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0]);
const GIF = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]);
const WEBP = Uint8Array.from([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0]);
const MB = 1024 * 1024;

const image: Attachment = { kind: 'image', name: 'a.png', mime: 'image/png', base64: 'iVBORw==' };
const textFile: Attachment = { kind: 'text', name: 'notes.md', text: '# Notes' };

describe('conversation attachments', () => {
  it('knows the four image types by their first bytes', () => {
    assert.equal(sniffImage(PNG), 'image/png');
    assert.equal(sniffImage(JPEG), 'image/jpeg');
    assert.equal(sniffImage(GIF), 'image/gif');
    assert.equal(sniffImage(WEBP), 'image/webp');
    assert.equal(sniffImage(Uint8Array.from([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45])), undefined);
    assert.equal(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47])), undefined);
    assert.equal(sniffImage(new Uint8Array()), undefined);
  });

  it('reads an image as base64 of its bytes, whatever its name', () => {
    const r = readAttachment('photo.PNG', PNG, 4 * MB);
    assert.ok(r.ok);
    assert.deepEqual(r.attachment, {
      kind: 'image',
      name: 'photo.PNG',
      mime: 'image/png',
      base64: Buffer.from(PNG).toString('base64'),
    });
    const unnamed = readAttachment('capture', JPEG, 4 * MB);
    assert.ok(unnamed.ok && unnamed.attachment.kind === 'image' && unnamed.attachment.mime === 'image/jpeg');
  });

  it('reads UTF-8 text as text, without a byte order mark', () => {
    const r = readAttachment('notes.md', new TextEncoder().encode('\uFEFF# Notes ✓'), 4 * MB);
    assert.ok(r.ok);
    assert.deepEqual(r.attachment, { kind: 'text', name: 'notes.md', text: '# Notes ✓' });
  });

  it('refuses a file over the limit, a fake image, and a binary file, saying why', () => {
    const big = readAttachment('big.png', new Uint8Array(4 * MB + 1), 4 * MB);
    assert.match(
      big.ok ? '' : big.problem,
      /big\.png is 4 MB, over the limit of 4 MB \(modelAccess\.conversation\.maxAttachmentMegabytes\)/,
    );
    assert.ok(readAttachment('edge.txt', new Uint8Array(10).fill(65), 10).ok);
    const fake = readAttachment('fake.jpg', new TextEncoder().encode('hello'), 4 * MB);
    assert.match(fake.ok ? '' : fake.problem, /fake\.jpg is named as an image but is not/);
    const binary = readAttachment('data.bin', Uint8Array.from([1, 0, 2]), 4 * MB);
    assert.match(binary.ok ? '' : binary.problem, /data\.bin is neither an image .* nor UTF-8 text/);
    const latin1 = readAttachment('old.txt', Uint8Array.from([0x63, 0xe9, 0x20]), 4 * MB);
    assert.match(latin1.ok ? '' : latin1.problem, /neither an image/);
  });

  it('writes each part in its endpoint’s shape', () => {
    assert.deepEqual(attachmentPart(image, 'chat'), {
      type: 'image_url',
      image_url: { url: 'data:image/png;base64,iVBORw==' },
    });
    assert.deepEqual(attachmentPart(image, 'responses'), {
      type: 'input_image',
      image_url: 'data:image/png;base64,iVBORw==',
    });
    assert.deepEqual(attachmentPart(textFile, 'chat'), { type: 'text', text: 'notes.md:\n\n# Notes' });
    assert.deepEqual(attachmentPart(textFile, 'responses'), { type: 'input_text', text: 'notes.md:\n\n# Notes' });
  });

  describe('attach', () => {
    const CHAT = `// POST /v1/chat
{
  "messages": [
    {"role": "user", "content": "first"},
    {"role": "assistant", "content": "a"},
    {"role": "user", "content": "Describe this"} // keep
  ]
}`;

    it('makes the last user turn’s text the first part and adds the image', () => {
      const r = attach(CHAT, image, SPACES);
      assert.ok(r.ok);
      assert.deepEqual((parse(r.text) as { messages: { content: unknown }[] }).messages[2].content, [
        { type: 'text', text: 'Describe this' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
      ]);
      assert.ok(r.text.includes('} // keep'));
      assert.ok(r.text.startsWith('// POST /v1/chat\n{\n  "messages": [\n    {"role": "user", "content": "first"},'));
      assert.equal(r.cursor, r.change.offset + r.change.text.length);
    });

    it('attaches to the user turn under the cursor', () => {
      const r = attach(CHAT, textFile, { ...SPACES, cursor: CHAT.indexOf('first') });
      assert.ok(r.ok);
      assert.deepEqual((parse(r.text) as { messages: { content: unknown }[] }).messages[0].content, [
        { type: 'text', text: 'first' },
        { type: 'text', text: 'notes.md:\n\n# Notes' },
      ]);
      // Not an assistant turn: the last user turn instead.
      const onAnswer = attach(CHAT, textFile, { ...SPACES, cursor: CHAT.indexOf('"a"') });
      assert.ok(onAnswer.ok);
      assert.equal(
        ((parse(onAnswer.text) as { messages: { content: unknown }[] }).messages[2].content as unknown[]).length,
        2,
      );
    });

    it('appends to a content list, and fills an empty one', () => {
      const list =
        '{\n  "messages": [\n    {\n      "role": "user",\n      "content": [\n        {"type": "text", "text": "x"}\n      ]\n    }\n  ]\n}';
      const r = attach(list, image, SPACES);
      assert.ok(r.ok);
      assert.ok(
        r.text.includes(
          '{"type": "text", "text": "x"},\n        {\n          "type": "image_url",\n          "image_url": {\n            "url": "data:image/png;base64,iVBORw=="\n          }\n        }\n      ]',
        ),
      );
      const empty = attach('{"messages": [{"role": "user", "content": []}]}', image, SPACES);
      assert.ok(empty.ok);
      assert.deepEqual((parse(empty.text) as { messages: { content: unknown[] }[] }).messages[0].content.length, 1);
      const nullContent = attach('{"messages": [{"role": "user", "content": null}]}', image, SPACES);
      assert.ok(nullContent.ok);
      assert.deepEqual((parse(nullContent.text) as { messages: { content: unknown[] }[] }).messages[0].content, [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
      ]);
    });

    it('turns a Responses input string into a user item with parts', () => {
      const r = attach('// POST /v1/responses\n{"input": "What is this?"}', image, SPACES);
      assert.ok(r.ok);
      assert.deepEqual(parse(r.text), {
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this?' },
              { type: 'input_image', image_url: 'data:image/png;base64,iVBORw==' },
            ],
          },
        ],
      });
    });

    it('refuses a conversation without a user turn, a turn without content, and a bad payload', () => {
      const none = attach('{"messages": [{"role": "system", "content": "s"}]}', image, SPACES);
      assert.match(none.ok ? '' : none.problem, /no user turn/);
      const noContent = attach('{"messages": [{"role": "user"}]}', image, SPACES);
      assert.match(noContent.ok ? '' : noContent.problem, /has no "content"/);
      const bad = attach('// POST /v1/embeddings\n{"input": ["x"]}', image, SPACES);
      assert.match(bad.ok ? '' : bad.problem, /\/v1\/embeddings/);
    });
  });
});
