import * as assert from 'node:assert/strict';
import { readinessLine, type EnvironmentReadiness } from '../../../src/domain/environmentReadiness';
import type { DisplayText } from '../../../src/common/text';

const host = 'gw.example' as DisplayText;
const base: EnvironmentReadiness = {
  key: { scope: 'https://gw.example', source: 'secretStorage' },
  host,
  headers: 0,
  secretHeaders: [],
};

describe('domain/environmentReadiness: the Switch Environment line', () => {
  it('says whether the key is set, and for which scope', () => {
    assert.equal(readinessLine(base), 'API key: stored key for https://gw.example');
    assert.equal(readinessLine({ ...base, key: 'missing' }), 'No API key for gw.example yet');
    assert.equal(readinessLine({ ...base, key: 'unknown' }), 'API key unknown');
  });

  it('says the key comes from MODEL_ACCESS_API_KEY when it is the environment fallback, not a stored key', () => {
    assert.equal(
      readinessLine({ ...base, key: { scope: 'https://gw.example', source: 'environment' } }),
      'API key: key from MODEL_ACCESS_API_KEY',
    );
  });

  it('counts the plain headers', () => {
    assert.equal(readinessLine({ ...base, headers: 1 }), 'API key: stored key for https://gw.example · 1 header');
    assert.equal(readinessLine({ ...base, headers: 3 }), 'API key: stored key for https://gw.example · 3 headers');
  });

  it('names each secret header that has no value yet; when all have one, says how many', () => {
    const secret = (name: string, set: boolean) => ({ name, set });
    assert.equal(
      readinessLine({ ...base, key: 'missing', headers: 1, secretHeaders: [secret('X-Org-Token', false)] }),
      'No API key for gw.example yet · 1 header · secret header X-Org-Token not set',
    );
    assert.equal(
      readinessLine({ ...base, secretHeaders: [secret('X-A', false), secret('X-B', true), secret('X-C', false)] }),
      'API key: stored key for https://gw.example · secret headers X-A, X-C not set',
    );
    assert.equal(
      readinessLine({ ...base, secretHeaders: [secret('X-A', true)] }),
      'API key: stored key for https://gw.example · 1 secret header set',
    );
    assert.equal(
      readinessLine({ ...base, secretHeaders: [secret('X-A', true), secret('X-B', true)] }),
      'API key: stored key for https://gw.example · 2 secret headers set',
    );
  });

  it('shows registry-like names as text: a header name cannot become a link or an icon', () => {
    const line = readinessLine({ ...base, secretHeaders: [{ name: '$(alert)[x](command:evil)', set: false }] });
    assert.ok(!line.includes('](command:'), line);
    assert.ok(!line.includes('$(alert)'), line);
  });
});
