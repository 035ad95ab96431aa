// The command line's key goes only to its own service: an environments file (a repository's settings.json) that
// pins a payload to another URL gets no MODEL_ACCESS_API_KEY there; that environment needs its own key.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../src/cli/check';
import { environmentKeyVariable, keyForEnvironment } from '../../../src/cli/keys';
import type { Environment } from '../../../src/domain/environments';
import { startServer, type RunningServer } from '../../server';

const environment = (name: string, baseUrl: string): Environment => ({
  name,
  baseUrl,
  source: 'user',
  headers: {},
  secretHeaders: [],
  variables: {},
  shorthand: false,
});

describe('cli/keys: which key each environment gets', function () {
  this.timeout(30_000);

  it('MODEL_ACCESS_API_KEY serves its origin and path prefix only; an own key serves its environment', () => {
    const env = { MODEL_ACCESS_API_KEY: 'main-key-123456', MODEL_ACCESS_API_KEY_STAGING_EU: 'staging-key-98765' };
    const base = 'https://gw.example/team-a';
    assert.deepEqual(keyForEnvironment(environment('prod', 'https://gw.example/team-a/v1'), env, base), {
      key: 'main-key-123456',
      variable: 'MODEL_ACCESS_API_KEY',
    });
    for (const url of [
      'https://gw.example/team-b',
      'https://gw.example/team-ab',
      'https://evil.example/team-a',
      'http://gw.example/team-a',
    ]) {
      const r = keyForEnvironment(environment('other', url), env, base);
      assert.ok('problem' in r, url);
      assert.match(
        r.problem,
        /is not the service of MODEL_ACCESS_API_KEY \(https:\/\/gw\.example\/team-a\).*set MODEL_ACCESS_API_KEY_OTHER/,
      );
    }
    assert.deepEqual(keyForEnvironment(environment('staging eu', 'https://elsewhere.example'), env, base), {
      key: 'staging-key-98765',
      variable: 'MODEL_ACCESS_API_KEY_STAGING_EU',
    });
    const none = keyForEnvironment(environment('x', 'https://gw.example/team-a'), env, undefined);
    assert.ok('problem' in none && /has no key: set MODEL_ACCESS_API_KEY_X/.test(none.problem));
    assert.equal(environmentKeyVariable('staging-2.eu'), 'MODEL_ACCESS_API_KEY_STAGING_2_EU');
  });

  describe('model-access check with a second environment on another port', () => {
    let home: RunningServer;
    let other: RunningServer;
    let tmp: string;
    const key = 'ma-home-key-4c1b2a7e9d';
    const otherKey = 'ma-other-key-77aa11bb';
    before(async () => {
      home = await startServer({ keys: { acme: key } });
      other = await startServer({ keys: { acme: otherKey } });
    });
    after(async () => {
      await home.close();
      await other.close();
    });
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-keys-'));
      home.clearRecords();
      other.clearRecords();
      fs.writeFileSync(
        path.join(tmp, 'settings.json'),
        JSON.stringify({ 'modelAccess.environments': [{ name: 'other', baseUrl: other.url }] }),
      );
      const payload = (pin: string) =>
        `// POST /v1/chat\n${pin}// @expect status 200\n{ "model": "aurora-1", "messages": [{ "role": "user", "content": "hi" }] }`;
      fs.writeFileSync(path.join(tmp, 'home.jsonc'), payload(''));
      fs.writeFileSync(path.join(tmp, 'pinned.jsonc'), payload('// @env other\n'));
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    async function run(extra: Record<string, string> = {}) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['check', '.', '--environments', 'settings.json', '--junit', 'j.xml'], {
        env: { MODEL_ACCESS_BASE_URL: home.url, MODEL_ACCESS_API_KEY: key, ...extra },
        cwd: tmp,
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      });
      return { code, out: out.join('\n'), err: err.join('\n'), xml: fs.readFileSync(path.join(tmp, 'j.xml'), 'utf8') };
    }

    it("without the other environment's key: nothing reaches it, that payload cannot run (exit 2), the rest runs", async () => {
      const r = await run();
      assert.equal(r.code, 2, r.out + r.err);
      assert.equal(other.received().length, 0, 'the other service was contacted');
      assert.ok(home.received('/v1/chat', 'POST').length === 1, "the payload for the key's own service ran");
      assert.match(
        r.out,
        /FAIL {2}pinned\.jsonc:2 {2}the environment other \(http:\/\/127\.0\.0\.1:\d+\) is not the service of MODEL_ACCESS_API_KEY/,
      );
      assert.match(r.out, /PASS {2}home\.jsonc/);
      assert.match(r.err, /could not run/);
      assert.match(r.xml, /set MODEL_ACCESS_API_KEY_OTHER to its own key/);
    });

    it('with MODEL_ACCESS_API_KEY_OTHER: each service gets its own key, and neither key is printed', async () => {
      const r = await run({ MODEL_ACCESS_API_KEY_OTHER: otherKey });
      assert.equal(r.code, 0, r.out + r.err);
      // Each service accepted the request: it carried that service's key (the other key is refused with 401).
      assert.equal(other.lastReceived('/v1/chat', 'POST').organization, 'acme');
      assert.equal(home.lastReceived('/v1/chat', 'POST').organization, 'acme');
      assert.equal(other.received().filter((q) => q.status === 401).length, 0);
      for (const text of [r.out, r.err, r.xml]) {
        assert.ok(!text.includes(key) && !text.includes(otherKey));
      }
    });
  });
});
