// No payload reads the command line's key or secret header values through {{$env}}, in any window, even when
// the person allowed the name: they would go into a body the service (or the payload's author) reads.
import * as assert from 'node:assert/strict';
import { envAccess, resolvePayload, type EnvPolicy } from '../../../src/domain/payload/variables';

describe('security: credential names are never readable by a payload', () => {
  const values: Record<string, string> = {
    MODEL_ACCESS_API_KEY: 'key-value-0001',
    MODEL_ACCESS_API_KEY_STAGING: 'key-value-0002',
    MODEL_ACCESS_SECRET_X_ORG_TOKEN: 'key-value-0003',
    model_access_api_key: 'key-value-0004',
    MODEL_ACCESS_BASE_URL: 'http://127.0.0.1:1',
  };
  const policies: (EnvPolicy | undefined)[] = [
    undefined,
    { limited: 'untrusted', allowed: new Set(Object.keys(values)) },
    { limited: 'outsideScratch', allowed: new Set() },
  ];

  for (const policy of policies) {
    it(`policy ${policy?.limited ?? 'open (a scratch file in a trusted window)'}`, () => {
      for (const name of Object.keys(values).filter((n) => n !== 'MODEL_ACCESS_BASE_URL')) {
        const r = resolvePayload(
          { messages: [{ role: 'user', content: `{{$env ${name}}}` }] },
          { variables: {}, env: (n) => values[n], envPolicy: policy, uuid: () => '', now: () => 0 },
        );
        assert.ok(!r.json.includes(values[name]), `${name} was read`);
        assert.deepEqual(r.secrets, []);
        assert.match(r.problems[0]?.message ?? '', /never reads .*holds a key or a secret header/);
        assert.equal(r.problems[0].refusedEnv, undefined, 'no way to allow it');
        assert.equal(envAccess(name, policy), 'never');
      }
      const base = resolvePayload('{{$env MODEL_ACCESS_BASE_URL}}', {
        variables: {},
        env: (n) => values[n],
        envPolicy: policy,
        uuid: () => '',
        now: () => 0,
      });
      assert.equal(base.value, values.MODEL_ACCESS_BASE_URL);
    });
  }
});
