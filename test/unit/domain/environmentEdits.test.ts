import * as assert from 'node:assert/strict';
import {
  environmentNameProblem,
  environmentNames,
  withAddedEnvironment,
  withEditedEnvironment,
} from '../../../src/domain/environmentEdits';

describe('domain/environmentEdits: what Add and Edit Environment write', () => {
  const setting = [
    { name: 'Production', baseUrl: 'https://models.example.com', headers: { 'X-Team': 'a' }, variables: { v: '1' } },
    { name: 'Staging', baseUrl: 'https://staging.example.com', comment: 'kept as written' },
    'not an entry',
  ];

  it('refuses an empty name, a name in use (whatever its case) and a control character, saying why', () => {
    const taken = environmentNames(setting);
    assert.deepEqual(taken, ['Production', 'Staging']);
    assert.equal(environmentNameProblem('  ', taken), 'Enter a name, e.g. Production or Staging.');
    assert.equal(environmentNameProblem('staging ', taken), 'There is already an environment named staging.');
    assert.equal(environmentNameProblem('a\nb', taken), 'The name cannot hold a line break or control character.');
    assert.match(String(environmentNameProblem('x'.repeat(61), taken)), /under 60 characters/);
    assert.equal(environmentNameProblem('Local', taken), undefined);
  });

  it('lets an edited environment keep its own name (or change its case)', () => {
    const taken = environmentNames(setting);
    assert.equal(environmentNameProblem('STAGING', taken, 'Staging'), undefined);
    assert.equal(
      environmentNameProblem('Production', taken, 'Staging'),
      'There is already an environment named Production.',
    );
  });

  it('adds at the end and leaves every other entry as written', () => {
    const next = withAddedEnvironment(setting, { name: ' Local ', baseUrl: 'http://127.0.0.1:8080' });
    assert.deepEqual(next, [...setting, { name: 'Local', baseUrl: 'http://127.0.0.1:8080' }]);
    assert.equal(setting.length, 3, 'the value read from the settings is not changed in place');
    assert.deepEqual(withAddedEnvironment(undefined, { name: 'A', baseUrl: 'https://a.example' }), [
      { name: 'A', baseUrl: 'https://a.example' },
    ]);
  });

  it('renames and re-points one entry, keeping its headers, variables and unknown fields', () => {
    const next = withEditedEnvironment(setting, 'production', { name: 'Prod', baseUrl: 'https://eu.example.com' });
    assert.deepEqual(next?.[0], {
      name: 'Prod',
      baseUrl: 'https://eu.example.com',
      headers: { 'X-Team': 'a' },
      variables: { v: '1' },
    });
    assert.deepEqual(next?.slice(1), setting.slice(1));
    assert.equal(
      (setting[0] as { name: string }).name,
      'Production',
      'the value read from the settings is not changed in place',
    );
  });

  it('changes nothing when the entry is gone from the settings', () => {
    assert.equal(withEditedEnvironment(setting, 'Gone', { name: 'Gone', baseUrl: 'https://g.example' }), undefined);
    assert.equal(withEditedEnvironment(undefined, 'Gone', { name: 'Gone', baseUrl: 'https://g.example' }), undefined);
  });
});
