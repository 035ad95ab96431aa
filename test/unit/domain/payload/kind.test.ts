import * as assert from 'node:assert/strict';
import { isInside, isPayloadDocument, scratchOrigin } from '../../../../src/domain/payload/kind';

describe('requests: what a payload is', () => {
  const scratch = {
    scheme: 'file',
    path: '/home/u/.config/Code/User/globalStorage/model-access-team.model-access/scratch',
  };
  const doc = (languageId: string, p: string, firstLine: string, scheme = 'file') => ({
    languageId,
    uri: { scheme, path: p },
    firstLine,
  });

  it('scratch files are payloads, with or without the header', () => {
    assert.ok(isPayloadDocument(doc('jsonc', `${scratch.path}/chat-20250101-120000.jsonc`, '{'), scratch));
    assert.ok(
      isPayloadDocument(doc('jsonc', `${scratch.path}/chat-20250101-120000.jsonc`, '// POST /v1/chat'), scratch),
    );
  });

  it('any JSON document whose first line records one of the endpoints is a payload', () => {
    assert.ok(isPayloadDocument(doc('json', '/home/u/project/request.json', '// POST /v1/responses'), scratch));
    assert.ok(isPayloadDocument(doc('jsonc', 'Untitled-1', '//post v1/embeddings', 'untitled'), scratch));
  });

  it("a project's package.json, settings and other JSON are not payloads", () => {
    assert.ok(!isPayloadDocument(doc('json', '/home/u/project/package.json', '{'), scratch));
    assert.ok(
      !isPayloadDocument(
        doc('jsonc', '/home/u/.config/Code/User/settings.json', '// POST is not a header here'),
        scratch,
      ),
    );
    assert.ok(
      !isPayloadDocument(doc('json', '/home/u/project/a.json', '// POST /v1/files'), scratch),
      'not an endpoint payloads are sent to',
    );
    assert.ok(!isPayloadDocument(doc('json', '/home/u/project/a.json', '{ "x": 1 } // POST /v1/chat'), scratch));
  });

  it('only JSON languages, and only inside the scratch folder itself', () => {
    assert.ok(!isPayloadDocument(doc('plaintext', '/home/u/project/notes.txt', '// POST /v1/chat'), scratch));
    assert.ok(
      !isPayloadDocument(doc('jsonc', `${scratch.path}-old/chat.jsonc`, '{'), scratch),
      'a sibling folder with the same prefix',
    );
    assert.ok(
      !isPayloadDocument(doc('jsonc', `${scratch.path}/chat.jsonc`, '{', 'vscode-remote'), scratch),
      'another scheme',
    );
    assert.ok(isInside({ scheme: 'file', path: '/a/b/c' }, { scheme: 'file', path: '/a/b/' }));
    assert.ok(!isInside({ scheme: 'file', path: '/a/b' }, { scheme: 'file', path: '/a/b' }));
  });

  it("a scratch file is the person's own unless its name says its text was copied in (issue 44)", () => {
    const folder = { scheme: 'file', path: '/g/scratch' };
    const at = (path: string, scheme = 'file') => scratchOrigin({ scheme, path }, folder);
    assert.equal(at('/g/scratch/chat-20260101-000000.jsonc'), 'own');
    assert.equal(at('/g/scratch/chat-20260101-000000.copied.jsonc'), 'copied');
    assert.equal(at('/g/scratch/chat-20260101-000000-2.COPIED.JSON'), 'copied');
    // "copied" elsewhere in the name is no mark.
    assert.equal(at('/g/scratch/copied.chat.jsonc'), 'own');
    assert.equal(at('/repo/chat.copied.jsonc'), 'outside');
    assert.equal(at('/g/scratch-x/chat.jsonc'), 'outside');
    assert.equal(at('/g/scratch/chat.jsonc', 'untitled'), 'outside');
  });
});
