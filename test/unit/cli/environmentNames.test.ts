// Environment keys and secret headers are bound to one environment's URL, never to a normalized name another
// environment of the same file can share (issue 44): `staging eu`, `staging-eu` and `Staging_EU` all read
// MODEL_ACCESS_API_KEY_STAGING_EU, and MODEL_ACCESS_SECRET_X_ORG_TOKEN would go to every environment that lists
// X-Org-Token. Against real local services, through model-access check.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../src/cli/check';
import { keyForEnvironment, secretHeaderVariable, secretHeadersFor } from '../../../src/cli/keys';
import type { Environment } from '../../../src/domain/environments';
import { startServer, type RunningServer } from '../../server';

const environment = (name: string, baseUrl: string, secretHeaders: string[] = []): Environment => ({
  name,
  baseUrl,
  source: 'user',
  headers: {},
  secretHeaders,
  variables: {},
  shorthand: false,
});

describe('cli/keys: keys and secret headers by URL, not by a normalized name', function () {
  this.timeout(30_000);

  it('refuses names that read the same key variable at different URLs, naming them and the way out', () => {
    const list = [
      environment('staging eu', 'https://a.example'),
      environment('staging-eu', 'https://b.example'),
      environment('Staging_EU', 'https://c.example'),
      environment('prod', 'https://p.example'),
    ];
    const env = { MODEL_ACCESS_API_KEY_STAGING_EU: 'staging-key-98765', MODEL_ACCESS_API_KEY_PROD: 'prod-key-123456' };
    for (const e of list.slice(0, 3)) {
      const r = keyForEnvironment(e, env, undefined, list);
      assert.ok('problem' in r, e.name);
      assert.match(
        r.problem,
        /the environments "[^"]+", "[^"]+" and "[^"]+" are at different URLs but all read MODEL_ACCESS_API_KEY_STAGING_EU .*so it is sent to none of them: rename them/,
      );
    }
    assert.deepEqual(keyForEnvironment(list[3], env, undefined, list), {
      key: 'prod-key-123456',
      variable: 'MODEL_ACCESS_API_KEY_PROD',
    });
    // The same service under two spellings is no clash: the key goes to one place.
    const same = [environment('staging eu', 'https://a.example/'), environment('Staging-EU', 'https://a.example')];
    assert.ok('key' in keyForEnvironment(same[0], env, undefined, same));
  });

  it('sends MODEL_ACCESS_SECRET_<HEADER> only when one service lists the header; else each its own value', () => {
    const a = environment('staging', 'https://a.example', ['X-Org-Token']);
    const b = environment('evil', 'https://evil.example', ['X-Org-Token']);
    const shared = { [secretHeaderVariable('X-Org-Token')]: 'org-secret-1234' };
    assert.deepEqual(secretHeadersFor(a, shared, [a]), { secrets: { 'X-Org-Token': 'org-secret-1234' } });
    for (const e of [a, b]) {
      const r = secretHeadersFor(e, shared, [a, b]);
      assert.ok('problem' in r);
      assert.match(
        r.problem,
        new RegExp(
          `all send the secret header X-Org-Token, at different URLs, so MODEL_ACCESS_SECRET_X_ORG_TOKEN is sent to none of them: set MODEL_ACCESS_SECRET_X_ORG_TOKEN_${e.name.toUpperCase()}`,
        ),
      );
    }
    const own = { ...shared, MODEL_ACCESS_SECRET_X_ORG_TOKEN_STAGING: 'staging-secret-77' };
    assert.deepEqual(secretHeadersFor(a, own, [a, b]), { secrets: { 'X-Org-Token': 'staging-secret-77' } });
    assert.ok('problem' in secretHeadersFor(b, own, [a, b]));
    assert.equal(secretHeaderVariable('x-org.token', 'staging eu'), 'MODEL_ACCESS_SECRET_X_ORG_TOKEN_STAGING_EU');
  });

  describe('model-access check against three local services', () => {
    const key = 'ma-home-key-4c1b2a7e9d';
    const stagingKey = 'ma-staging-key-71b3c9';
    const secret = 'org-secret-value-55aa77';
    let servers: RunningServer[];
    let tmp: string;
    before(async () => {
      servers = await Promise.all([key, stagingKey, stagingKey].map((k) => startServer({ keys: { acme: k } })));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-env-names-'));
      servers.forEach((s) => s.clearRecords());
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    function write(environments: unknown[], pins: string[]): void {
      fs.writeFileSync(path.join(tmp, 'settings.json'), JSON.stringify({ 'modelAccess.environments': environments }));
      pins.forEach((pin, i) =>
        fs.writeFileSync(
          path.join(tmp, `p${i}.jsonc`),
          `// POST /v1/chat\n// @env ${pin}\n// @expect status 200\n{ "model": "aurora-1", "messages": [{ "role": "user", "content": "hi" }] }`,
        ),
      );
    }

    async function run(extra: Record<string, string>) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['check', '.', '--environments', 'settings.json'], {
        env: { MODEL_ACCESS_BASE_URL: servers[0].url, MODEL_ACCESS_API_KEY: key, ...extra },
        cwd: tmp,
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    it('`staging eu`, `staging-eu` and `Staging_EU` at three URLs: the key goes to none, each says why', async () => {
      write(
        [
          { name: 'staging eu', baseUrl: servers[1].url },
          { name: 'staging-eu', baseUrl: servers[2].url },
          { name: 'Staging_EU', baseUrl: `${servers[0].url}/elsewhere` },
        ],
        ['staging eu', 'staging-eu', 'Staging_EU'],
      );
      const r = await run({ MODEL_ACCESS_API_KEY_STAGING_EU: stagingKey });
      assert.equal(r.code, 2, r.out + r.err);
      for (const s of servers) {
        assert.equal(s.received().length, 0, `${s.url} was sent something`);
      }
      assert.equal(r.out.match(/all read MODEL_ACCESS_API_KEY_STAGING_EU/g)?.length, 3, r.out);
      assert.match(r.out, /"staging eu", "staging-eu" and "Staging_EU"|"staging-eu", "staging eu" and "Staging_EU"/);
      assert.ok(!`${r.out}${r.err}`.includes(stagingKey));
    });

    it('a secret header listed by two environments goes to neither, until each has its own value', async () => {
      write(
        [
          { name: 'staging', baseUrl: servers[1].url, headers: { 'X-Org-Token': '{{secret}}' } },
          { name: 'evil', baseUrl: servers[2].url, headers: { 'X-Org-Token': '{{secret}}' } },
        ],
        ['staging', 'evil'],
      );
      const keys = { MODEL_ACCESS_API_KEY_STAGING: stagingKey, MODEL_ACCESS_API_KEY_EVIL: stagingKey };
      const r = await run({ ...keys, MODEL_ACCESS_SECRET_X_ORG_TOKEN: secret });
      assert.ok(
        [...servers[1].received(), ...servers[2].received()].every((q) => q.headers['x-org-token'] === undefined),
        'the secret went to an environment that shares the header',
      );
      assert.equal(servers[2].received().length, 0, 'the second environment was contacted');
      assert.equal(servers[1].received().length, 0, 'the first environment was contacted');
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(
        r.out + r.err,
        /"staging" and "evil" all send the secret header X-Org-Token, at different URLs, so MODEL_ACCESS_SECRET_X_ORG_TOKEN is sent to none of them: set MODEL_ACCESS_SECRET_X_ORG_TOKEN_(STAGING|EVIL)/,
      );

      const own = await run({
        ...keys,
        MODEL_ACCESS_SECRET_X_ORG_TOKEN: secret,
        MODEL_ACCESS_SECRET_X_ORG_TOKEN_STAGING: 'staging-own-9',
      });
      assert.equal(own.code, 2, own.out + own.err);
      assert.equal(servers[1].lastReceived('/v1/chat', 'POST').headers['x-org-token'], 'staging-own-9');
      assert.ok(servers[2].received().every((q) => q.headers['x-org-token'] === undefined));
      assert.ok(!`${own.out}${own.err}`.includes(secret) && !`${own.out}${own.err}`.includes('staging-own-9'));
    });
  });
});
