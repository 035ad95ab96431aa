import * as assert from 'node:assert/strict';
import { checkCardLink, rawCardLink } from '../../../src/explorer/core/linkSafety';

describe('Model Card link safety', () => {
  it('accepts absolute http and https links', () => {
    assert.deepEqual(checkCardLink('https://cards.example/acme/aurora-1'), {
      ok: true,
      url: 'https://cards.example/acme/aurora-1',
    });
    assert.equal(checkCardLink('http://cards.example/x?y=1#z').ok, true);
  });

  for (const link of [
    'command:workbench.action.terminal.new',
    'command:modelAccess.setApiKey?%5B%22x%22%5D',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'vscode://ms-vscode.remote-server/x',
    'vscode-insiders://x',
    'data:text/html,<script>alert(1)</script>',
    'ftp://cards.example/x',
    '//cards.example/x',
    '/relative/card',
    'https:cards.example',
    'https://user:pass@cards.example/x',
    'https://cards.example/a b',
    'https://cards.example/\u202egnp.exe',
    ' \n ',
    `https://cards.example/${'a'.repeat(5000)}`,
  ]) {
    it(`refuses ${JSON.stringify(link.slice(0, 60))}`, () => {
      const check = checkCardLink(link);
      assert.equal(check.ok, false);
      assert.ok(!check.ok && check.reason.length > 0);
    });
  }

  it('refuses non-strings', () => {
    assert.equal(checkCardLink(undefined).ok, false);
    assert.equal(checkCardLink(42).ok, false);
  });

  it('finds the card link in a raw entry to explain a refusal', () => {
    assert.equal(rawCardLink({ id: 'x', model_card_url: 'command:evil' }), 'command:evil');
    assert.equal(rawCardLink({ id: 'x', url: 'file:///x' }), 'file:///x');
    assert.equal(rawCardLink(['x']), undefined);
  });
});
