import * as assert from 'node:assert/strict';
import { checkCardLink, describeLink, MAX_CARD_URL_LENGTH, rawCardLink } from '../../../src/api/linkSafety';

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

  it('says why each link is refused, and accepts a link with spaces around it', () => {
    const reason = (link: unknown) => {
      const check = checkCardLink(link);
      return check.ok ? `opened ${check.url}` : check.reason;
    };
    const notAbsolute = 'The Model Card link is not an absolute URL and was not opened.';
    assert.equal(reason('  https://cards.example/x  '), 'opened https://cards.example/x');
    assert.equal(reason(''), 'The model has no Model Card link.');
    assert.equal(reason(' \t '), 'The model has no Model Card link.');
    assert.equal(
      reason('https:cards.example/https://x'),
      'The Model Card link is not an absolute http(s) URL and was not opened.',
    );
    assert.equal(reason(7), 'The model has no Model Card link.');
    assert.equal(reason('/relative/card'), notAbsolute);
    assert.equal(reason('see https://cards.example'), notAbsolute);
    assert.equal(reason('1https://cards.example'), notAbsolute);
    assert.equal(
      reason('VSCODE://x'),
      'The Model Card link uses the "vscode:" scheme; only http and https links are opened.',
    );
    assert.equal(
      reason('https:cards.example'),
      'The Model Card link is not an absolute http(s) URL and was not opened.',
    );
    assert.equal(
      reason('https://cards.example/a b'),
      'The Model Card link contains spaces or control characters and was not opened.',
    );
    assert.equal(reason('https://exa[mple.com/'), 'The Model Card link is not a valid URL and was not opened.');
    assert.equal(
      reason('https://user@cards.example/'),
      'The Model Card link carries a user name or password and was not opened.',
    );
    assert.equal(
      reason('https://:secret@cards.example/'),
      'The Model Card link carries a user name or password and was not opened.',
    );
    const longest = `https://cards.example/${'a'.repeat(MAX_CARD_URL_LENGTH - 22)}`;
    assert.equal(longest.length, MAX_CARD_URL_LENGTH);
    assert.equal(reason(` ${longest} `), `opened ${longest}`);
    assert.equal(
      reason(`${longest}a`),
      `The Model Card link is longer than ${MAX_CARD_URL_LENGTH} characters and was not opened.`,
    );
  });

  it('names only the scheme of a refused link in the log', () => {
    assert.equal(describeLink(' Command:workbench.action.x?%5B%5D'), 'command:');
    assert.equal(describeLink('/relative/card'), 'relative');
    assert.equal(describeLink('see command:x'), 'relative');
    assert.equal(describeLink(undefined), 'none');
  });

  it('prefers a field named for the card, then url, link, href or docs, and only text', () => {
    assert.equal(rawCardLink({ url: 'https://u', modelCard: 'https://c' }), 'https://c');
    assert.equal(rawCardLink({ docs: 'https://d' }), 'https://d');
    assert.equal(rawCardLink({ doc: 'https://d' }), 'https://d');
    assert.equal(rawCardLink({ url_template: 'https://t', documentation_url: 'https://d', card: 7 }), undefined);
    assert.equal(rawCardLink(null), undefined);
    assert.equal(rawCardLink('https://c'), undefined);
  });
});
