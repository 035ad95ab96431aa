import * as assert from 'node:assert/strict';
import { displayText, plural } from '../../../src/common/text';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

describe('display text', () => {
  it('neutralises control, bidi and zero-width characters and truncates', () => {
    assert.equal(displayText('a\u0000b\nc'), 'a\ufffdb c');
    assert.equal(displayText('evil\u202Egnp.exe\u200b'), 'evilgnp.exe');
    const long = displayText('x'.repeat(10_000), 50);
    assert.equal(long.length, 50);
    assert.ok(long.endsWith('…'));
    assert.equal(displayText(undefined), '');
  });
});

describe('messages: counted nouns', () => {
  it('plural() says 1 entry, 2 entries, 0 models', () => {
    assert.equal(plural(1, 'entry', 'entries'), '1 entry');
    assert.equal(plural(2, 'entry', 'entries'), '2 entries');
    assert.equal(plural(0, 'model'), '0 models');
    assert.equal(plural(1, 'model'), '1 model');
  });

  it('no message in src/ writes `${count} nouns` without plural()', () => {
    // A count interpolated right before a plural noun ("${n} entries") reads "1 entries" for one. Constants
    // (ALL_CAPS, never 1) may stay as they are.
    const nouns =
      'models|entries|events|pages|bytes|requests|files|items|tokens|characters|times|seconds|rows|families|results|matches|messages|parts|lines|chunks|retries|keys';
    const pattern = new RegExp(`\\$\\{([^}]+)\\}\\)? (?:more )?(?:${nouns})\\b`, 'g');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(file);
        } else if (file.endsWith('.ts')) {
          readFileSync(file, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              for (const m of line.matchAll(pattern)) {
                if (!/^[A-Z][A-Z0-9_]*(\s*\/.*)?$/.test(m[1].trim())) {
                  offenders.push(`${path.relative(process.cwd(), file)}:${i + 1}: ${m[0]}`);
                }
              }
            });
        }
      }
    };
    walk(path.join(__dirname, '..', '..', '..', 'src'));
    assert.deepEqual(offenders, []);
  });
});
