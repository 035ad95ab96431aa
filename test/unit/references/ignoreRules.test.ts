// .gitignore as gitignore(5) reads it, and the include/exclude globs of a scan.
import * as assert from 'node:assert/strict';
import { globMatcher, isIgnored, parseIgnoreFile, parseIgnoreLine } from '../../../src/references/core/ignoreRules';

/** Whether `path` is ignored by one .gitignore text at the root. */
const ignored = (text: string, path: string, folder = false) => isIgnored([parseIgnoreFile(text, '')], path, folder);

describe('references: .gitignore rules', () => {
  it('blank lines, comments and a lone slash or bang are no rules', () => {
    for (const line of ['', '   ', '# x', '/', '!', '\r']) {
      assert.equal(parseIgnoreLine(line), undefined, JSON.stringify(line));
    }
    assert.equal(parseIgnoreFile('# a\n\n*.log\n!keep.log\n', '').rules.length, 2);
  });

  it('a name without a slash matches at any depth, files and folders', () => {
    assert.equal(ignored('*.log', 'a.log'), true);
    assert.equal(ignored('*.log', 'deep/er/a.log'), true);
    assert.equal(ignored('*.log', 'a.log.txt'), false);
    assert.equal(ignored('build', 'x/build', true), true);
    assert.equal(ignored('build', 'x/build'), true);
    assert.equal(ignored('build', 'x/builds'), false);
    assert.equal(ignored('build', 'x/rebuild'), false);
  });

  it("a slash at the start or in the middle anchors to the file's folder", () => {
    assert.equal(ignored('/build', 'build', true), true);
    assert.equal(ignored('/build', 'x/build', true), false);
    assert.equal(ignored('doc/frotz', 'doc/frotz'), true);
    assert.equal(ignored('doc/frotz', 'a/doc/frotz'), false);
  });

  it('a trailing slash matches folders only', () => {
    assert.equal(ignored('out/', 'out', true), true);
    assert.equal(ignored('out/', 'out', false), false);
    assert.equal(ignored('out/', 'x/out', true), true);
  });

  it('* and ? stay within a segment; ** spans folders at the start, middle and end', () => {
    assert.equal(ignored('a/*.py', 'a/x.py'), true);
    assert.equal(ignored('a/*.py', 'a/b/x.py'), false);
    assert.equal(ignored('a?c', 'abc'), true);
    assert.equal(ignored('a?c', 'a/c'), false);
    assert.equal(ignored('**/gen', 'gen', true), true);
    assert.equal(ignored('**/gen', 'x/y/gen', true), true);
    assert.equal(ignored('a/**/b', 'a/b'), true);
    assert.equal(ignored('a/**/b', 'a/x/y/b'), true);
    assert.equal(ignored('a/**/b', 'xa/x/b'), false);
    assert.equal(ignored('a/**', 'a/x/y'), true);
    assert.equal(ignored('a/**', 'a', true), false);
    assert.equal(ignored('a**b', 'axxb'), true);
    assert.equal(ignored('a**b', 'ax/xb'), false);
  });

  it('[…] classes, negated with ! or ^; an unclosed [ is literal', () => {
    assert.equal(ignored('file[0-9].txt', 'file7.txt'), true);
    assert.equal(ignored('file[0-9].txt', 'filex.txt'), false);
    assert.equal(ignored('file[!0-9].txt', 'filex.txt'), true);
    assert.equal(ignored('file[^0-9].txt', 'file7.txt'), false);
    assert.equal(ignored('a[b', 'a[b'), true);
    assert.equal(ignored('a[]b', 'a[]b'), true);
  });

  it('! re-includes, the last match wins; \\ escapes a leading # or !, and regex specials are literal', () => {
    assert.equal(ignored('*.log\n!keep.log', 'keep.log'), false);
    assert.equal(ignored('*.log\n!keep.log', 'other.log'), true);
    assert.equal(ignored('!keep.log\n*.log', 'keep.log'), true);
    assert.equal(ignored('\\#notes', '#notes'), true);
    assert.equal(ignored('\\!bang', '!bang'), true);
    assert.equal(ignored('a+b(c).py', 'a+b(c).py'), true);
    assert.equal(ignored('a+b(c).py', 'aab(c).py'), false);
    assert.equal(ignored('\\*.py', '*.py'), true);
    assert.equal(ignored('\\*.py', 'x.py'), false);
  });

  it('** counts only as a whole segment; [!…] negates; a space inside a pattern stays', () => {
    assert.equal(ignored('d/**x', 'd/a/x'), false);
    assert.equal(ignored('d/**x', 'd/ax'), true);
    assert.equal(ignored('x**/y', 'x/a/y'), false);
    assert.equal(ignored('x**/y', 'xab/y'), true);
    assert.equal(ignored('file[!0-9].txt', 'file!.txt'), true);
    assert.equal(ignored('file[!0-9].txt', 'file3.txt'), false);
    assert.equal(ignored('[^a].py', 'a.py'), false);
    assert.equal(ignored('[^a].py', '^.py'), true);
    assert.equal(ignored('a b.py', 'a b.py'), true);
    assert.equal(ignored('a b.py', 'ab.py'), false);
  });

  it('trailing spaces are dropped unless escaped; CRLF files read the same', () => {
    assert.equal(ignored('a.py   ', 'a.py'), true);
    assert.equal(ignored('a\\ ', 'a '), true);
    assert.equal(ignored('a\\ ', 'a'), false);
    assert.equal(ignored('a.py\r\n!b.py\r\n', 'a.py'), true);
  });

  it('a nested .gitignore says nothing about paths outside its folder', () => {
    const files = [parseIgnoreFile('*.py', 'sub')];
    assert.equal(isIgnored(files, 'other/x.py', false), false);
    assert.equal(isIgnored(files, 'sub/x.py', false), true);
    assert.equal(isIgnored(files, 'sub', true), false);
  });

  it('a nested .gitignore applies below its folder, after its parents', () => {
    const files = [parseIgnoreFile('*.gen.py', ''), parseIgnoreFile('!keep.gen.py\n/local.py', 'sub')];
    assert.equal(isIgnored(files, 'sub/keep.gen.py', false), false);
    assert.equal(isIgnored(files, 'keep.gen.py', false), true);
    assert.equal(isIgnored(files, 'sub/local.py', false), true);
    assert.equal(isIgnored(files, 'local.py', false), false);
    assert.equal(isIgnored(files, 'subway/local.py', false), false);
    assert.equal(isIgnored(files, 'sub/deeper/local.py', false), false);
  });
});

describe('references: include/exclude globs', () => {
  it('a glob without a slash matches a name at any depth; with one, from the root', () => {
    assert.equal(globMatcher('*.py')('a/b/c.py'), true);
    assert.equal(globMatcher('**/*.py')('c.py'), true);
    assert.equal(globMatcher('**/*.py')('a/c.py'), true);
    assert.equal(globMatcher('src/*.py')('src/c.py'), true);
    assert.equal(globMatcher('src/*.py')('x/src/c.py'), false);
    assert.equal(globMatcher('./src/')('src'), true);
    assert.equal(globMatcher('/src')('src'), true);
    assert.equal(globMatcher('vendor')('a/vendor'), true);
    assert.equal(globMatcher('vendor')('a/vendors'), false);
  });

  it('a leading ./ is the root, not a ./ anywhere; at most 64 alternatives', () => {
    assert.equal(globMatcher('x./y')('x./y'), true);
    assert.equal(globMatcher('x./y')('xy'), false);
    const many = globMatcher('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}');
    assert.equal(many('acegikm'), true);
    assert.equal(many('bdfhjln'), false);
  });

  it('{a,b} alternatives, nested too; an unclosed { is literal', () => {
    const m = globMatcher('**/*.{py,{ts,tsx}}');
    assert.equal(m('a.py'), true);
    assert.equal(m('a/b.ts'), true);
    assert.equal(m('a/b.tsx'), true);
    assert.equal(m('a/b.js'), false);
    assert.equal(globMatcher('a{b')('a{b'), true);
    assert.equal(globMatcher('{x,y}/z.py')('y/z.py'), true);
    assert.equal(globMatcher('{x,y}/z.py')('w/y/z.py'), false);
  });
});
