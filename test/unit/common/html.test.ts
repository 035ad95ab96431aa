import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, escapeHtml, newNonce, page, revealInvisible } from '../../../src/common/html';
import { HOSTILE_STRINGS } from '../../server';
import { elements } from '../helpers/html';

/** A test title for a string: printable ASCII, everything else as \u escapes. */
const ascii = (s: string) =>
  JSON.stringify(s)
    .slice(0, 50)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A page with `value` in element content and in a double- and a single-quoted attribute. */
function probe(value: string): string {
  const v = escapeHtml(value);
  return page({
    title: 't',
    nonce: 'n0nce',
    cspSource: 'https://webview.test',
    body: `<p id="content">${v}</p><span id="dq" title="${v}">x</span><span id='sq' title='${v}'>y</span>`,
  });
}

describe('escapeHtml: the one way text reaches a webview', () => {
  const tricks = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><script>alert(1)</script>',
    "' onmouseover='alert(1)",
    '" onfocus="alert(1)" autofocus="',
    '</p><a href="javascript:alert(1)">x</a>',
    '<!--',
    '<![CDATA[x]]>',
    '&lt;script&gt;',
    '`${x}`',
    ...HOSTILE_STRINGS,
  ];

  for (const trick of tricks) {
    it(`keeps ${ascii(trick)} as text in content and in attributes`, () => {
      const els = elements(probe(trick));
      // Only the page's own elements exist: no script, image or link came from the value.
      assert.deepEqual(
        els
          .map((e) => e.tag)
          .filter((t) => !['html', 'head', 'meta', 'title', 'style', 'body', 'p', 'span'].includes(t)),
        [],
      );
      for (const e of els) {
        assert.ok(!Object.keys(e.attrs).some((a) => a.startsWith('on')), `no event handler attribute on <${e.tag}>`);
      }
      // The browser shows exactly the value (invisible characters as marks).
      const expected = revealInvisible(trick);
      assert.equal(els.find((e) => e.attrs.id === 'content')?.text, expected);
      assert.equal(els.find((e) => e.attrs.id === 'dq')?.attrs.title, expected);
      assert.equal(els.find((e) => e.attrs.id === 'sq')?.attrs.title, expected);
    });
  }

  it('shows bidi overrides and zero-width characters as visible marks instead of reordering text', () => {
    assert.equal(escapeHtml('invoice\u202Etxt.exe'), 'invoice⟨U+202E⟩txt.exe');
    assert.equal(escapeHtml('a\u200Bb\u2066c\u2069'), 'a⟨U+200B⟩b⟨U+2066⟩c⟨U+2069⟩');
    assert.equal(escapeHtml('line\u2028sep'), 'line⟨U+2028⟩sep');
  });

  it('replaces control characters but keeps line breaks and tabs', () => {
    assert.equal(escapeHtml('a\u0000b\u001b[31mc\nd\te\r\nf'), 'a\ufffdb\ufffd[31mc\nd\te\nf');
  });

  it('writes numbers and booleans and nothing for undefined or null', () => {
    assert.equal(escapeHtml(42), '42');
    assert.equal(escapeHtml(false), 'false');
    assert.equal(escapeHtml(undefined), '');
    assert.equal(escapeHtml(null), '');
  });

  it('pages carry a strict policy: nothing by default, scripts and styles only with the nonce', () => {
    const csp = contentSecurityPolicy('abc', 'https://webview.test');
    assert.match(csp, /^default-src 'none'; /);
    assert.match(csp, /script-src 'nonce-abc'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    const html = page({ title: 't', nonce: 'abc', cspSource: 'https://webview.test', body: '', script: 'x()' });
    const meta = elements(html).find((e) => e.attrs['http-equiv'] === 'Content-Security-Policy');
    assert.equal(meta?.attrs.content, csp);
    const scripts = elements(html).filter((e) => e.tag === 'script');
    assert.deepEqual(
      scripts.map((s) => s.attrs.nonce),
      ['abc'],
    );
    assert.notEqual(newNonce(), newNonce());
    assert.match(newNonce(), /^[A-Za-z0-9]{20,}$/);
  });

  it('the policy lets the webview load its own styles, fonts and https images, and nothing else', () => {
    assert.equal(
      contentSecurityPolicy('abc', 'https://webview.test'),
      "default-src 'none'; style-src https://webview.test 'nonce-abc'; script-src 'nonce-abc'; img-src https://webview.test https:; font-src https://webview.test",
    );
  });

  it('a page carries its own style after the shared one, and without a script adds nothing to the body', () => {
    const html = page({
      title: 't',
      nonce: 'abc',
      cspSource: 'c',
      body: '<p>only this</p>',
      style: '.mine { color: red; }',
    });
    const style = elements(html).find((e) => e.tag === 'style');
    assert.match(style?.text ?? '', /body \{[^]*\.mine \{ color: red; \}$/);
    assert.equal(style?.attrs.nonce, 'abc');
    assert.equal(
      elements(html)
        .find((e) => e.tag === 'body')
        ?.text.trim(),
      'only this',
    );
    assert.ok(!elements(page({ title: 't', nonce: 'abc', cspSource: 'c', body: '' })).some((e) => e.tag === 'script'));
  });

  it('marks a hidden character with at least four hex digits', () => {
    assert.equal(revealInvisible('a\u061cb'), 'a⟨U+061C⟩b');
    assert.equal(revealInvisible('\u2028'), '⟨U+2028⟩');
  });
});
