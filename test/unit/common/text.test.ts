import * as assert from 'node:assert/strict';
import { displayText, hostOf } from '../../../src/common/text';
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

  it('text of exactly the limit is whole; null is empty; links and icons are split apart', () => {
    assert.equal(displayText('x'.repeat(200)), 'x'.repeat(200));
    assert.equal(displayText('x'.repeat(201)), `${'x'.repeat(199)}…`);
    assert.equal(displayText(null), '');
    assert.equal(displayText(42), '42');
    assert.equal(displayText('[run](command:evil) $(alert)'), '[run] (command:evil) $\u2060(alert)');
  });

  it('a host for display, or the neutralised text when it is not a URL', () => {
    assert.equal(hostOf('https://gw.example:8443/v1'), 'gw.example:8443');
    assert.equal(hostOf('not a url\nsecond line'), 'not a url second line');
  });
});

// Counted nouns in messages: "1 entry", never "1 entries". Localized messages come in pairs, one for 1 and
// one for any other count (src/common/counts.ts), since VS Code's l10n has no plural rules.
describe('messages: counted nouns', () => {
  it('no message in src/ writes `${count} nouns` (log lines included)', () => {
    // A count interpolated right before a plural noun ("${n} entries") reads "1 entries" for one. Constants
    // (ALL_CAPS, or a member of an ALL_CAPS object, never 1) may stay as they are.
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
                if (!/^[A-Z][A-Z0-9_]*(\.[A-Za-z0-9_]+)?(\s*\/.*)?$/.test(m[1].trim())) {
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
