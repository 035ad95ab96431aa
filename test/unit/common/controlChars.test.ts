// Control characters made visible for terminals and CI logs: the command line's output and Test Explorer's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { visibleControls } from '../../../src/common/controlChars';
import { tableAsText } from '../../../src/checks/core/resultsTable';
import { main } from '../../../src/cli/check';
import { startServer, type RunningServer } from '../../server';

/** Any control character but tab (and line feed where a report keeps it). */
const RAW = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('common/controlChars', function () {
  this.timeout(30_000);

  it('shows C0 (but tab), DEL, C1, U+2028/2029 and bidi controls as what they are', () => {
    assert.equal(visibleControls('\u001b[2K\rPASS'), '\u241b[2K\u240dPASS');
    assert.equal(visibleControls('a\tb'), 'a\tb');
    assert.equal(visibleControls('a\nb'), 'a\u240ab');
    assert.equal(visibleControls('a\nb\r', { keepLineFeed: true }), 'a\nb\u240d');
    assert.equal(
      visibleControls('\u007f\u0085\u009b\u2028\u2029\u202e'),
      '\u2421<U+0085><U+009B><U+2028><U+2029><U+202E>',
    );
    assert.equal(
      visibleControls('\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007'),
      '\u241b]8;;https://evil.example\u2407x\u241b]8;;\u2407',
    );
    for (let c = 0; c < 0x2070; c++) {
      const ch = String.fromCharCode(c);
      if (c !== 9) {
        assert.doesNotMatch(visibleControls(ch), RAW, `U+${c.toString(16)}`);
      }
    }
  });

  it("Test Explorer's results table: a cell's escape sequences are shown, not run", () => {
    const text = tableAsText({
      columns: ['row', 'first failed expectation'],
      rows: [['a\u001b[2K', 'x\u001b]52;c;aGk=\u0007\rPASS']],
    });
    assert.doesNotMatch(text.split('\n').join(''), RAW);
    assert.match(text, /x\u241b\]52;c;aGk=\u2407\u240dPASS/);
  });

  describe('model-access check prints no raw control character', () => {
    let server: RunningServer;
    let tmp: string;
    before(async () => {
      server = await startServer();
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-ctl-'));
    });
    after(async () => {
      await server.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('from an answer (echoed escape sequences) or a file name', async () => {
      const hostile =
        '\u001b[2K\r  PASS  forged.jsonc \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 \u001b]52;c;aGk=\u0007\u0085\u2028\r::error::x';
      const name = 'evil\u001b[2K\rname.jsonc';
      fs.writeFileSync(
        path.join(tmp, name),
        `// POST /v1/chat\n// @expect text contains "nowhere"\n${JSON.stringify({ model: 'aurora-1', messages: [{ role: 'user', content: hostile }] })}`,
      );
      const lines: string[] = [];
      const code = await main(['check', '.', '--junit', 'j.xml'], {
        env: { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys.acme },
        cwd: tmp,
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      assert.equal(code, 1, lines.join('\n'));
      const printed = lines.join('');
      assert.doesNotMatch(printed, RAW);
      assert.match(printed, /FAIL {2}evil\u241b\[2K\u240dname\.jsonc/);
      assert.match(printed, /actual: .*\u241b\[2K.*PASS.*\u241b\]8;;https:\/\/evil\.example\u2407/);
      const xml = fs.readFileSync(path.join(tmp, 'j.xml'), 'utf8');
      assert.doesNotMatch(xml.replace(/\n/g, ''), RAW);
    });
  });
});
