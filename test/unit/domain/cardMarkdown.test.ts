import * as assert from 'node:assert/strict';
import { BLOCKED_LINK, plainTextAsMarkdown, sanitizeCardMarkdown } from '../../../src/domain/cardMarkdown';
import { HOSTILE } from '../../server';
import { elements } from '../helpers/html';

// The Markdown engine VS Code's preview uses: what it makes of the sanitized card is what a person sees.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options?: object) => { render(text: string): string };
const render = (md: string) => new MarkdownIt({ html: true, linkify: true }).render(md);

/** Every URL the rendered card would follow or load. */
function targets(md: string): string[] {
  return elements(`<body>${render(sanitizeCardMarkdown(md))}</body>`).flatMap((e) =>
    ['href', 'src', 'srcset', 'action', 'formaction']
      .map((a) => e.attrs[a])
      .filter((v): v is string => v !== undefined),
  );
}

const isSafe = (t: string) => t === BLOCKED_LINK || /^https:\/\//.test(t) || /^#[\w-]*$/.test(t);

describe('Model Card preview: sanitizing a fetched card', () => {
  it('keeps a normal card as it was written', () => {
    const card =
      '# Aurora 2\n\nSee [the paper](https://papers.example/aurora) and ![chart](https://img.example/c.png).\n\n```ts\nconst x: Array<string> = [];\n```\n\nUse `a < b` here.\n';
    assert.equal(sanitizeCardMarkdown(card), card);
    assert.deepEqual(targets(card), ['https://papers.example/aurora', 'https://img.example/c.png']);
  });

  const hostile: [string, string][] = [
    ['a command link', `[Settings](command:workbench.action.openSettings)`],
    ['a javascript: link', '[x](javascript:alert(1))'],
    ['a JavaScript: link in angle brackets', '[x](<JavaScript:alert(1)>)'],
    ['an entity-encoded scheme', '[x](&#99;ommand:workbench.action.openSettings)'],
    ['a backslash-escaped scheme', '[x](command\\:foo)'],
    ['a file: link', '[x](file:///etc/passwd)'],
    ['a vscode: link', '[x](vscode://ms-vscode.remote/x)'],
    ['a nested-bracket label', '[a [b] c](command:workbench.action.toggleZenMode)'],
    ['a label across lines', '[a\nb](command:workbench.action.toggleZenMode)'],
    ['a destination on the next line', '[x](\ncommand:workbench.action.toggleZenMode)'],
    ['a reference definition', '[x][r]\n\n[r]: command:workbench.action.openSettings'],
    ['a reference definition on the next line', '[x][r]\n\n[r]:\n  command:workbench.action.openSettings'],
    ['an autolink', '<command:workbench.action.openSettings>'],
    [
      'raw HTML',
      '<a href="command:workbench.action.openSettings">x</a><img src=x onerror=alert(1)><script>alert(1)</script>',
    ],
    ['an http image', '![x](http://img.example/tracker.png)'],
    ['a data: image', '![x](data:image/svg+xml;base64,PHN2Zz4=)'],
    ['an unbalanced code span hiding a link', '`` [x](command:workbench.action.toggleZenMode) `'],
    ['an escaped backtick hiding a link', '\\` [x](command:workbench.action.toggleZenMode) `'],
    [
      'a fence that is not one (backtick in its info string)',
      '``` a`b\n[x](command:workbench.action.toggleZenMode)\n```',
    ],
    ['the registry breakout link', `[Open](${HOSTILE.cardBreakout})`],
  ];
  for (const [what, md] of hostile) {
    it(`leaves ${what} pointing nowhere`, () => {
      const found = targets(md);
      assert.deepEqual(
        found.filter((t) => !isSafe(t)),
        [],
        `unsafe targets in ${JSON.stringify(render(sanitizeCardMarkdown(md)))}`,
      );
      const tags = elements(`<body>${render(sanitizeCardMarkdown(md))}</body>`).map((e) => e.tag);
      assert.ok(!tags.some((t) => ['script', 'iframe', 'object', 'embed', 'form', 'style'].includes(t)));
      for (const e of elements(`<body>${render(sanitizeCardMarkdown(md))}</body>`)) {
        assert.ok(!Object.keys(e.attrs).some((a) => a.startsWith('on')), `<${e.tag}> has no event handler`);
      }
    });
  }

  it('shows bidi overrides and zero-width characters as marks', () => {
    assert.equal(
      sanitizeCardMarkdown('invoice\u202etxt.exe zero\u200bwidth'),
      'invoice⟨U+202E⟩txt.exe zero⟨U+200B⟩width',
    );
  });

  it('shows plain text as a code block that its own backticks cannot close', () => {
    const md = plainTextAsMarkdown('a ```` b\n[x](command:foo)');
    assert.match(md, /^`{5}text\n/);
    assert.deepEqual(targets(md), []);
  });

  it('a code fence ends only at a line of the same character, at least as long, with nothing else on it', () => {
    const link = '[x](command:workbench.action.terminal.new)';
    const blocked = `[x](${BLOCKED_LINK})`;
    const inside = (open: string, close: string) =>
      sanitizeCardMarkdown(`${open}\n${link}\n${close}\n${link}`).split('\n').slice(1);
    // Closed: the link after the fence is prose again, and checked.
    assert.deepEqual(inside('```', '```'), [link, '```', blocked]);
    assert.deepEqual(inside('~~~', '  ~~~~  '), [link, '  ~~~~  ', blocked]);
    assert.deepEqual(inside('````', '`````'), [link, '`````', blocked]);
    // Not closed: shorter, another character, or text after the marker; the rest is still code.
    assert.deepEqual(inside('````', '```'), [link, '```', link]);
    assert.deepEqual(inside('```', '~~~'), [link, '~~~', link]);
    assert.deepEqual(inside('```', '``` js'), [link, '``` js', link]);
    // A backtick line with a backtick in its info string opens no fence; four spaces make it code, not a fence.
    assert.equal(sanitizeCardMarkdown(`\`\`\` a\`b\n${link}`), `\`\`\` a\`b\n${blocked}`);
    assert.equal(sanitizeCardMarkdown(`    \`\`\`\n${link}`), `    \`\`\`\n${blocked}`);
  });

  it('keeps anchors and https links, in inline links, autolinks and reference definitions; blocks the rest', () => {
    assert.equal(sanitizeCardMarkdown('[top](#intro-1) [x](#in%74ro)'), `[top](#intro-1) [x](${BLOCKED_LINK})`);
    assert.equal(sanitizeCardMarkdown('[a](  https://a.example/x  )'), '[a](https://a.example/x  )');
    assert.equal(sanitizeCardMarkdown('[a](<https://a.example/x>)'), '[a](<https://a.example/x>)');
    assert.equal(sanitizeCardMarkdown('[a](<https://a.example/x y>)'), `[a](${BLOCKED_LINK} y>)`);
    assert.equal(sanitizeCardMarkdown('<https://a.example/x> <b>bold</b>'), '<https://a.example/x> &lt;b>bold&lt;/b>');
    assert.equal(
      sanitizeCardMarkdown('[ref]: https://a.example\n   [r2]: <javascript:x>\n[]: javascript:y'),
      `[ref]: https://a.example\n   [r2]: ${BLOCKED_LINK}\n[]: javascript:y`,
    );
    assert.equal(sanitizeCardMarkdown('[a](https://a.example/?q=\\x&y)'), '[a](https://a.example/?q=\\x&y)');
    assert.equal(sanitizeCardMarkdown('[a](https://a.example\\@evil#x)'), `[a](${BLOCKED_LINK})`);
  });

  it('leaves inline code as written, for any length of backtick run', () => {
    assert.equal(sanitizeCardMarkdown('``a ` <b> ``'), '``a ` <b> ``');
    assert.equal(sanitizeCardMarkdown('`<b>` then <i>'), '`<b>` then &lt;i>');
  });
});
