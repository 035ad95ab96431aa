// CHANGELOG.md ships in the VSIX and is the Marketplace's "Changelog" tab: it is written for the people who use
// the extension, in Keep a Changelog form (CONTRIBUTING.md, "Changelog"). What only developers notice — tests,
// benchmarks, mutation testing, code layout — belongs in commit messages.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const changelog = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
const lines = changelog.split('\n');

const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

/** Words that only a developer of the extension would care about. */
const DEVELOPER_ONLY =
  /\b(mutation|mutants?|stryker|benchmarks?|npm run bench|e2e|end-to-end tests?|unit tests?|integration (tests?|suite)|code layout|refactor(ed|ing)?|eslint|prettier)\b/i;

describe('CHANGELOG for users', () => {
  it('has an Unreleased section first, then versions with their dates', () => {
    const versions = lines.filter((l) => l.startsWith('## '));
    assert.equal(versions[0], '## [Unreleased]');
    for (const v of versions.slice(1)) {
      assert.match(v, /^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/, `"${v}" is "## [x.y.z] - YYYY-MM-DD"`);
    }
  });

  it('groups changes under Added, Changed, Deprecated, Removed, Fixed or Security, once each per version', () => {
    let seen: string[] = [];
    for (const line of lines) {
      if (line.startsWith('## ')) {
        seen = [];
      } else if (line.startsWith('### ')) {
        const name = line.slice(4);
        assert.ok(SECTIONS.includes(name), `"${line}" is one of ${SECTIONS.join(', ')}`);
        assert.ok(!seen.includes(name), `"${line}" appears once per version`);
        seen.push(name);
      } else if (line.startsWith('#### ')) {
        assert.fail(`"${line}": no deeper headings; one line per change`);
      }
    }
  });

  it('says each change in one line, under a section', () => {
    let section = '';
    for (const [i, line] of lines.entries()) {
      if (line.startsWith('#')) {
        section = line;
      } else if (line.startsWith('- ')) {
        assert.ok(section.startsWith('### '), `line ${i + 1} is under a ### section`);
        const next = lines[i + 1] ?? '';
        assert.ok(!/^\s+\S/.test(next), `line ${i + 1}: a change takes one line (the next is a continuation)`);
      }
    }
  });

  it('has no line only a developer of the extension would notice', () => {
    const found = lines.filter((l) => l.startsWith('- ') && DEVELOPER_ONLY.test(l));
    assert.deepEqual(found, [], 'developer-only changes belong in commit messages');
  });

  it('recognizes a developer-only line', () => {
    for (const line of [
      '- Mutation testing: survivors triaged',
      '- End-to-end tests: 2 minutes instead of 11',
      '- Benchmarks: every figure as median',
      '- Code layout (no change in behaviour)',
    ]) {
      assert.match(line, DEVELOPER_ONLY);
    }
    assert.doesNotMatch('- Checks: `// @expect` lines make a payload a test in Test Explorer', DEVELOPER_ONLY);
  });
});
