import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BLOCKED_LINK,
  plainTextAsMarkdown,
  prepareCardSource,
  sanitizeCardMarkdown,
  sanitizeRenderedCard,
} from '../../../src/domain/cardMarkdown';
import { HOSTILE } from '../../server';
import { elements, type ParsedElement } from '../helpers/html';

// The Markdown engine VS Code's preview uses, with the preview's options: it renders the card for the
// sanitizer (as `markdown.api.render` does in VS Code), and it renders the document the sanitizer returns
// (as the preview does). What the second rendering holds is what a person sees.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options?: object) => { render(text: string): string };
const engine = new MarkdownIt({ html: true, linkify: true });
const render = (md: string) => engine.render(md);

/** The document the preview is given for a card. */
const previewOf = (md: string) => sanitizeCardMarkdown(md, render);
/** The elements the preview shows for a card (the page's own html/head/body left out). */
function shown(md: string): ParsedElement[] {
  return elements(`<body>${render(previewOf(md))}</body>`).filter((e) => !['html', 'head', 'body'].includes(e.tag));
}

/** What markdown-it makes of Markdown by itself (no raw HTML); anything else in the preview came from raw HTML. */
const MARKDOWN_TAGS = new Set(
  'p h1 h2 h3 h4 h5 h6 blockquote ul ol li pre code em strong s a img hr br table thead tbody tr th td'.split(' '),
);

/** Every way the shown card could reach further than a person expects; [] when it cannot. */
function problems(md: string): string[] {
  const out: string[] = [];
  const els = shown(md);
  if (els[0]?.tag !== 'div' || els[0].attrs.class !== 'model-card') {
    out.push('the card is not one HTML block in its wrapper');
  }
  for (const [i, e] of els.entries()) {
    if (i > 0 && !MARKDOWN_TAGS.has(e.tag)) {
      out.push(`raw HTML element <${e.tag}>`);
    }
    for (const [name, value] of Object.entries(e.attrs)) {
      if (name.startsWith('on') || name === 'style' || name === 'srcset' || name.endsWith('action')) {
        out.push(`<${e.tag} ${name}>`);
      }
      if (name === 'href' && !/^https:\/\//i.test(value) && !/^#/.test(value)) {
        out.push(`link to ${value}`);
      }
      if (name === 'src' && !/^https:\/\//i.test(value)) {
        out.push(`image from ${value}`);
      }
    }
  }
  return out;
}

describe('Model Card preview: sanitizing a fetched card', () => {
  it('shows a normal card as markdown-it renders it: the same elements, text and links', () => {
    const card = [
      '# Aurora 2',
      '',
      'See [the paper](https://papers.example/aurora "Paper") and ![chart](https://img.example/c.png).',
      '',
      '> Quoted **bold** and _em_, ~~gone~~.',
      '',
      '1. one',
      '2. two',
      '',
      '| a | b |',
      '|:--|--:|',
      '| 1 | 2 |',
      '',
      '```ts',
      'const x: Array<string> = [];',
      '',
      'x.push("a & b");',
      '```',
      '',
      'Use `a < b` here. [Top](#aurora-2)',
      '',
      '---',
    ].join('\n');
    const direct = elements(`<body>${render(card)}</body>`).filter((e) => !['html', 'head', 'body'].includes(e.tag));
    const viaPreview = shown(card).slice(1);
    const summary = (els: ParsedElement[]) =>
      els.map((e) => ({ tag: e.tag, text: e.text, href: e.attrs.href, src: e.attrs.src, title: e.attrs.title }));
    assert.deepEqual(summary(viaPreview), summary(direct));
    assert.deepEqual(problems(card), []);
    // The table's alignment is kept as an attribute, not a style.
    assert.deepEqual(
      viaPreview.filter((e) => e.tag === 'th').map((e) => e.attrs.align),
      ['left', 'right'],
    );
    // The code block keeps its blank line and its `<`, inside the one line the document is.
    assert.equal(viaPreview.find((e) => e.tag === 'pre')?.text, 'const x: Array<string> = [];\n\nx.push("a & b");\n');
    assert.equal(previewOf(card).split('\n').length, 2, 'one line and the final newline');
  });

  // The three inputs that went through the former sanitizer, which cleaned the Markdown source with patterns.
  const bypasses: [string, string][] = [
    ['a reference definition inside a block quote', '[Settings][r]\n\n> [r]: command:workbench.action.openSettings'],
    ['a reference definition inside a list item', '[Open][v]\n\n- [v]: vscode://ms-vscode.remote/x'],
    [
      'a backtick inside a link target, hiding raw HTML, a data: image and a vscode: link',
      '[a](https://a.example/`) <div style="position:fixed;inset:0;background:red">cover</div> ' +
        '![x](data:image/svg+xml;base64,PHN2Zz4=) <img src=x onerror=alert(1)> [v](vscode://ms-vscode.remote/x) `',
    ],
  ];
  for (const [what, md] of bypasses) {
    it(`leaves ${what} inert: no link but https or #anchor, no raw HTML, no style`, () => {
      assert.deepEqual(problems(md), [], JSON.stringify(render(previewOf(md))));
    });
  }

  it('shows raw HTML as the text that was written', () => {
    const els = shown('Before <b>bold</b> <!-- note --> <script>alert(1)</script> after');
    assert.equal(els.length, 2, 'the wrapper and one paragraph');
    assert.equal(els[1].text, 'Before <b>bold</b> <!-- note --> <script>alert(1)</script> after');
    assert.equal(shown('```\n<div>\n```')[2].text, '<div>\n');
  });

  const hostile: [string, string][] = [
    ['a command link', `[Settings](command:workbench.action.openSettings)`],
    ['a javascript: link', '[x](javascript:alert(1))'],
    ['a JavaScript: link in angle brackets', '[x](<JavaScript:alert(1)>)'],
    ['an entity-encoded scheme', '[x](&#99;ommand:workbench.action.openSettings)'],
    ['a backslash-escaped scheme', '[x](command\\:foo)'],
    ['a file: link', '[x](file:///etc/passwd)'],
    ['a vscode: link', '[x](vscode://ms-vscode.remote/x)'],
    ['a protocol-relative link', '[x](//evil.example/x)'],
    ['a link with credentials', '[x](https://user:pass@evil.example/)'],
    ['a nested-bracket label', '[a [b] c](command:workbench.action.toggleZenMode)'],
    ['a label across lines', '[a\nb](command:workbench.action.toggleZenMode)'],
    ['a destination on the next line', '[x](\ncommand:workbench.action.toggleZenMode)'],
    ['a reference definition', '[x][r]\n\n[r]: command:workbench.action.openSettings'],
    ['a reference definition on the next line', '[x][r]\n\n[r]:\n  command:workbench.action.openSettings'],
    ['an autolink', '<command:workbench.action.openSettings>'],
    ['a bare vscode: URL', 'vscode://ms-vscode.remote/x'],
    [
      'raw HTML',
      '<a href="command:workbench.action.openSettings">x</a><img src=x onerror=alert(1)><script>alert(1)</script>',
    ],
    ['an HTML block', '<div style="position:fixed">\n\n[x](command:a)\n\n</div>'],
    ['an http image', '![x](http://img.example/tracker.png)'],
    ['a data: image', '![x](data:image/svg+xml;base64,PHN2Zz4=)'],
    ['an unbalanced code span hiding a link', '`` [x](command:workbench.action.toggleZenMode) `'],
    ['an escaped backtick hiding a link', '\\` [x](command:workbench.action.toggleZenMode) `'],
    [
      'a fence that is not one (backtick in its info string)',
      '``` a`b\n[x](command:workbench.action.toggleZenMode)\n```',
    ],
    ['a blank line inside a fence (the block must not end there)', '```\na\n\n[x](command:a) <b>x</b>\n```'],
    ['a carriage return from an entity', 'a&#13;&#13;[x](command:a)'],
    ['the stand-in character itself', '\ue000b>x\ue000/b> [x](command:a)'],
    ['the registry breakout link', `[Open](${HOSTILE.cardBreakout})`],
  ];
  for (const [what, md] of hostile) {
    it(`leaves ${what} inert`, () => {
      assert.deepEqual(problems(md), [], JSON.stringify(render(previewOf(md))));
    });
  }

  it('points a refused link nowhere and keeps its text; an image that may not load shows its description', () => {
    const link = shown('[Settings](command:workbench.action.openSettings)').find((e) => e.tag === 'a');
    assert.deepEqual([link?.attrs.href, link?.text], [BLOCKED_LINK, 'Settings']);
    const els = shown('![tracking pixel](http://img.example/t.png)');
    assert.ok(!els.some((e) => e.tag === 'img'));
    assert.equal(els[1].text, '[tracking pixel]');
  });

  it('keeps https links, anchors and an ordered list start; drops what the allow-list does not name', () => {
    const els = shown('[a](https://a.example/x?q=1&r=2) [top](#intro-1)\n\n3. three');
    assert.deepEqual(
      els.filter((e) => e.tag === 'a').map((e) => e.attrs.href),
      ['https://a.example/x?q=1&r=2', '#intro-1'],
    );
    assert.equal(els.find((e) => e.tag === 'ol')?.attrs.start, '3');
    // What a renderer plugin could write: kept elements lose unknown attributes; unknown elements go.
    const html = sanitizeRenderedCard(
      '<p data-line="1" class="code-line x" dir="auto" onclick="a()" style="color:red">t<font color=red>f</font></p>',
    );
    assert.equal(html, '<div class="model-card"><p class="x" dir="auto">tf</p></div>\n');
    assert.equal(
      sanitizeRenderedCard('<p>a<math><mi>x</mi></math>b<svg><a href="https://x.example">s</a></svg></p>'),
      '<div class="model-card"><p>ab</p></div>\n',
    );
  });

  it('reads `<` that forms no tag as text', () => {
    assert.equal(
      sanitizeRenderedCard('a < b <3 <a href=x'),
      '<div class="model-card">a &lt; b &lt;3 &lt;a href=x</div>\n',
    );
  });

  it('shows bidi overrides and zero-width characters as marks, also where the card spells them as entities', () => {
    assert.equal(prepareCardSource('invoice\u202etxt.exe zero\u200bwidth'), 'invoice⟨U+202E⟩txt.exe zero⟨U+200B⟩width');
    assert.equal(shown('invoice&#x202e;txt.exe')[1].text, 'invoice⟨U+202E⟩txt.exe');
  });

  it('property: random Markdown never yields a link but https/#anchor, raw HTML, a style or a handler', () => {
    const destinations = [
      'command:workbench.action.openSettings',
      'vscode://ms-vscode.remote/x',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:x',
      '&#106;avascript:x',
      'data:text/html,<b>x</b>',
      'data:image/png;base64,AAAA',
      'file:///etc/passwd',
      'http://plain.example/',
      'https://ok.example/a_b',
      '//evil.example/',
      '#anchor',
      'https://u:p@evil.example/',
      'command\\:x',
      '<command:x>',
      'https://a.example/`',
    ];
    const pieces = [
      ...destinations,
      ...destinations.map((d) => `[t](${d})`),
      ...destinations.map((d) => `![i](${d})`),
      ...destinations.map((d) => `[r]: ${d}\n`),
      ...destinations.map((d) => `<${d}>`),
      '[t][r]',
      '[r]',
      '[',
      ']',
      '(',
      ')',
      ' ',
      'word',
      '\n',
      '\n\n',
      '> ',
      '- ',
      '1. ',
      '# ',
      '    ',
      '```',
      '```js\n',
      '~~~',
      '`',
      '``',
      '\\',
      '*',
      '_',
      '|',
      '|--|\n',
      '&#99;',
      '&amp;',
      '&lt;',
      '<b>',
      '</b>',
      '<div style="position:fixed;inset:0">',
      '</div>',
      '<img src=x onerror=alert(1)>',
      '<a href="command:x">',
      '</a>',
      '<script>alert(1)</script>',
      '<style>*{display:none}</style>',
      '<!--',
      '-->',
      '<span',
      ' style="x"',
      '>',
      '\u202e',
      '\r',
      '\ue000',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const md = parts.join('');
        assert.deepEqual(problems(md), [], JSON.stringify(md));
      }),
      { seed: 27, numRuns: 3000 },
    );
  });

  it('shows plain text as a code block that its own backticks cannot close', () => {
    const md = plainTextAsMarkdown('a ```` b\n[x](command:foo)');
    assert.match(md, /^`{5}text\n/);
    const els = elements(`<body>${render(md)}</body>`);
    assert.ok(!els.some((e) => e.tag === 'a'));
  });
});

describe('Model Card preview: what the allow-list keeps of a card', () => {
  /** The one element of a card's first paragraph with this tag, as the preview shows it. */
  const first = (md: string, tag: string) => shown(md).find((e) => e.tag === tag);
  const hrefOf = (md: string) => first(md, 'a')?.attrs.href;

  it("shows the card's own stand-in character as the replacement character, and `<` as itself", () => {
    assert.equal(shown('a\ue000b<c')[1].text, 'a\ufffdb<c');
  });

  it('keeps `<` in a link address, a link title and an image description', () => {
    assert.equal(hrefOf('[x](https://a.example/a<b)'), 'https://a.example/a%3Cb');
    assert.equal(first('[x](https://a.example/ "a<b")', 'a')?.attrs.title, 'a<b');
    assert.equal(shown('![a<b](http://img.example/i.png)')[1].text, '[a<b]');
  });

  it('keeps a link title as written, punctuation and all', () => {
    assert.equal(first('[x](https://a.example/ "Paper, 2024: see §2!")', 'a')?.attrs.title, 'Paper, 2024: see §2!');
  });

  it('refuses a link that names a user or password (it reads as one site and goes to another)', () => {
    for (const address of [
      'https://user:pass@evil.example/',
      'https://good.example@evil.example/',
      'https://:pass@evil.example/',
    ]) {
      assert.equal(hrefOf(`[x](${address})`), BLOCKED_LINK, address);
    }
    assert.equal(hrefOf('[x](https://evil.example/@good.example)'), 'https://evil.example/@good.example');
  });

  it('refuses a relative link (it would open a file beside the card) and an address no browser can read', () => {
    assert.equal(hrefOf('[x](other.md#top)'), BLOCKED_LINK);
    assert.equal(hrefOf('[x](https://a.example:99999/)'), BLOCKED_LINK);
    assert.equal(hrefOf('[x](#top)'), '#top');
  });

  it('keeps a table cell alignment in body cells as in header cells', () => {
    const els = shown('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |');
    assert.deepEqual(
      els.filter((e) => e.tag === 'td').map((e) => e.attrs.align),
      ['left', 'center', 'right'],
    );
  });

  it('keeps an ordered list that starts past 9', () => {
    assert.equal(first('12. twelve\n13. thirteen', 'ol')?.attrs.start, '12');
  });
});

describe('Model Card preview: the allow-list on HTML a renderer plugin could write', () => {
  /** The sanitized card without its wrapper. */
  const inner = (html: string) => {
    const out = sanitizeRenderedCard(html);
    assert.ok(out.startsWith('<div class="model-card">') && out.endsWith('</div>\n'), out);
    return out.slice('<div class="model-card">'.length, -'</div>\n'.length);
  };
  const hrefOf = (html: string) => elements(inner(html)).find((e) => e.tag === 'a')?.attrs.href;
  const titleOf = (html: string) => elements(inner(html)).find((e) => e.tag === 'abbr')?.attrs.title;

  it('reads character references in a link address as a browser does', () => {
    // Decimal, hexadecimal with x or X, with or without the final semicolon.
    for (const written of [
      '&#104;ttps://a.example/',
      '&#x68;ttps://a.example/',
      '&#X68;ttps://a.example/',
      '&#104ttps://a.example/',
      'https&#58;//a.example/',
    ]) {
      const link = `<a href="${written}">x</a>`;
      assert.equal(elements(link).find((e) => e.tag === 'a')?.attrs.href, 'https://a.example/', 'the browser');
      assert.equal(hrefOf(link), 'https://a.example/', written);
    }
  });

  it('refuses javascript: however the scheme is spelt: case, entities, tabs and newlines inside it', () => {
    for (const tag of [
      '<A HREF=JavaScript:alert(1)>',
      '<a href="&#106;avascript:alert(1)">',
      '<a href="&#x6A;avascript:alert(1)">',
      '<a href="&#106avascript:alert(1)">',
      '<a href="java&#x09;script:alert(1)">',
      '<a href="java&#10;script:alert(1)">',
      '<a href="java\tscript:alert(1)">',
      "<a href='java\nscript:alert(1)'>",
      '<a href="  javascript:alert(1)">',
    ]) {
      assert.equal(inner(`${tag}x</a>`), `<a href="${BLOCKED_LINK}">x</a>`, tag);
    }
  });

  it('refuses an address with white space, a control or an invisible character in it', () => {
    for (const address of [
      ' https://a.example/',
      'https://a.example/ x',
      'https://a.exa\tmple/',
      'https://a.example/\u0001',
      'https://a.example/&#x202e;gpj.exe',
    ]) {
      assert.equal(hrefOf(`<a href="${address}">x</a>`), BLOCKED_LINK, JSON.stringify(address));
    }
  });

  it('refuses a link whose address holds a character reference this module cannot read', () => {
    // A browser would read `&copy;` as ©; the address is not what the check saw, so it goes.
    assert.equal(hrefOf('<a href="https://a.example/?x=1&copy;">x</a>'), BLOCKED_LINK);
    assert.equal(hrefOf('<a href="https://a.example/?x=1&amp;y=2">x</a>'), 'https://a.example/?x=1&y=2');
    // The same in a class list: no attribute rather than a wrong one.
    assert.equal(inner('<p class="a&foo;">t</p>'), '<p>t</p>');
  });

  it('reads character references in a title as a browser does, an impossible one as U+FFFD', () => {
    for (const [written, read] of [
      ['a&#x10FFFF;b', 'a\u{10ffff}b'],
      ['a&#x110000;b&#0;c', 'a\ufffdb\ufffdc'],
    ]) {
      const abbr = `<abbr title="${written}">x</abbr>`;
      assert.equal(elements(abbr).find((e) => e.tag === 'abbr')?.attrs.title, read, 'the browser');
      assert.equal(titleOf(abbr), read, written);
    }
  });

  it('keeps class names as names, and each of them', () => {
    assert.equal(inner('<p class="note  wide x!y !z w! -ok">t</p>'), '<p class="note wide -ok">t</p>');
  });

  it('keeps dir, align and start only with the values they can have', () => {
    assert.equal(
      inner('<p dir="RTL">a</p><p dir="sideways">b</p><p dir="xrtl">c</p><p dir="rtlx">d</p>'),
      '<p dir="RTL">a</p><p>b</p><p>c</p><p>d</p>',
    );
    assert.equal(
      inner('<td align="center">a</td><td align="justify">b</td><td align="xleft">c</td><td align="leftx">d</td>'),
      '<td align="center">a</td><td>b</td><td>c</td><td>d</td>',
    );
    assert.equal(
      inner('<ol start="12"></ol><ol start="3x"></ol><ol start="x3"></ol><ol start="1234567890"></ol>'),
      '<ol start="12"></ol><ol></ol><ol></ol><ol></ol>',
    );
  });

  it('writes no attribute that is empty, has no value or was refused', () => {
    assert.equal(inner('<p class id title="" dir="up">t</p>'), '<p>t</p>');
    assert.equal(inner('<a title>x</a>'), '<a>x</a>');
  });

  it("takes a cell's alignment from its style only for table cells, however the style is spaced", () => {
    assert.equal(inner('<td style=" text-align : right ; ">1</td>'), '<td align="right">1</td>');
    assert.equal(inner('<th style="TEXT-ALIGN:Center">1</th>'), '<th align="center">1</th>');
    // A style after other attributes, or an id that reads like a style.
    assert.equal(inner('<td style="text-align:left" class="n">1</td>'), '<td class="n" align="left">1</td>');
    assert.equal(inner('<td id="text-align:left">1</td>'), '<td id="text-align:left">1</td>');
    // The cell's own align wins, and is written once; a paragraph takes no alignment at all.
    assert.equal(inner('<td align="left" style="text-align:right">1</td>'), '<td align="left">1</td>');
    assert.equal(inner('<p style="text-align:center">t</p>'), '<p>t</p>');
  });

  it('shows an image that may not load as its description, or as nothing without one', () => {
    assert.equal(inner('<p><img alt="diagram"></p>'), '<p>[diagram]</p>');
    assert.equal(inner('<p>a<img src="http://img.example/t.png">b</p>'), '<p>ab</p>');
    assert.equal(inner('<p>a<img src="http://img.example/t.png" alt>b</p>'), '<p>ab</p>');
    assert.equal(inner('<p>a<img src="http://img.example/t.png" alt="x &foo; y">b</p>'), '<p>ab</p>');
    assert.equal(
      inner('<p><img src="https://img.example/c.png" alt="chart"></p>'),
      '<p><img src="https://img.example/c.png" alt="chart"></p>',
    );
  });

  it('keeps `>` in text a renderer left unescaped', () => {
    assert.equal(inner('<p>a > b</p>'), '<p>a &gt; b</p>');
  });

  it('drops executable and foreign content whole, and nothing after it', () => {
    // A `<` inside it that forms no tag, a child left open or self-closed, the same element nested.
    assert.equal(inner('<p>x<script>if (a < b) alert(1)</script>y</p>'), '<p>xy</p>');
    assert.equal(inner('<p>a<svg><path d="M0"/><g><rect></svg>b</p>'), '<p>ab</p>');
    assert.equal(inner('<p>a<svg><svg></svg>hidden</svg>b</p>'), '<p>ab</p>');
    assert.equal(inner('<p>a<SCRIPT>alert(1)</Script>b</p>'), '<p>ab</p>');
    // An end tag with no start hides nothing.
    assert.equal(inner('<p>a</script>b</p><p>c</p>'), '<p>ab</p><p>c</p>');
  });

  it('writes no end tag for an element that has none', () => {
    assert.equal(inner('<p>a<br>b</br>c<hr></hr></p>'), '<p>a<br>bc<hr></p>');
  });

  it('keeps what the allow-list names, lowercased, whatever the quoting', () => {
    assert.equal(
      inner('<A HREF=\'https://a.example/\' TITLE=plain>x</A><Abbr Title="t">y</Abbr>'),
      '<a href="https://a.example/" title="plain">x</a><abbr title="t">y</abbr>',
    );
  });
});
