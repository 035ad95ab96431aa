// Reading modelAccess.environments: what becomes an environment, what is left out and said so, the
// baseUrl shorthand named after its host, the active one by name, and the shareable list without keys.
import * as assert from 'node:assert/strict';
import {
  activeEnvironment,
  findEnvironment,
  headerProblem,
  readEnvironments,
  shareableEnvironments,
} from '../../../src/domain/environments';

describe('domain/environments', () => {
  it('reads name, URL (trailing slashes dropped), headers and variables', () => {
    const { environments, problems } = readEnvironments(
      [
        {
          name: ' Staging ',
          baseUrl: 'https://staging.example.com/eu/',
          headers: { 'X-Project': 'search' },
          variables: { region: 'eu', n: 3, on: true },
        },
      ],
      'user',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(environments, [
      {
        name: 'Staging',
        baseUrl: 'https://staging.example.com/eu',
        source: 'user',
        headers: { 'X-Project': 'search' },
        secretHeaders: [],
        variables: { region: 'eu', n: '3', on: 'true' },
        shorthand: false,
      },
    ]);
  });

  it('leaves out entries without a name or URL, and a repeated name, saying which', () => {
    const { environments, problems } = readEnvironments(
      [
        { baseUrl: 'https://a' },
        { name: 'b' },
        'x',
        { name: 'A', baseUrl: 'https://a' },
        { name: 'a', baseUrl: 'https://b' },
      ],
      'user',
    );
    assert.deepEqual(
      environments.map((e) => e.name),
      ['A'],
    );
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'modelAccess.environments[0] has no name',
        'modelAccess.environments[1] (b) has no baseUrl',
        'modelAccess.environments[2] is not an object',
        'modelAccess.environments[4]: the name "a" is used twice; the first one counts',
      ],
    );
  });

  it('drops headers the extension sets itself or that could forge another header; keeps the rest', () => {
    const { environments, problems } = readEnvironments(
      [
        {
          name: 'gw',
          baseUrl: 'https://gw',
          headers: {
            Authorization: 'Bearer other',
            host: 'evil.example',
            'X-Ok': 'fine',
            'X-Split': 'a\r\nX-Injected: 1',
            'Bad Name': 'v',
            'X-Number': 5,
          },
        },
      ],
      'user',
    );
    assert.deepEqual(environments[0].headers, { 'X-Ok': 'fine' });
    assert.equal(problems.length, 5);
    assert.match(problems[0].message, /Authorization header is set by the extension itself/);
  });

  it('headerProblem accepts tokens with printable values only', () => {
    assert.equal(headerProblem('X-Org', 'acme team'), undefined);
    assert.match(headerProblem('Content-Type', 'text/plain') ?? '', /set by the extension/);
    assert.match(headerProblem('X-A', 'a\nb') ?? '', /line break/);
  });

  it('the baseUrl shorthand is one more environment, first, named after its host, unless listed already', () => {
    const listed = [{ name: 'host.example', baseUrl: 'https://other.example' }];
    const { environments } = readEnvironments(listed, 'user', {
      url: 'https://host.example:8443/api',
      source: 'workspace',
    });
    assert.deepEqual(
      environments.map((e) => [e.name, e.baseUrl, e.source, e.shorthand]),
      [
        ['host.example:8443', 'https://host.example:8443/api', 'workspace', true],
        ['host.example', 'https://other.example', 'user', false],
      ],
    );
    // The shorthand has nothing but its URL: no headers, no secret headers to wait for, no variables.
    assert.deepEqual([environments[0].headers, environments[0].secretHeaders, environments[0].variables], [{}, [], {}]);
    const same = readEnvironments([{ name: 'Prod', baseUrl: 'https://p.example/' }], 'user', {
      url: 'https://p.example',
      source: 'user',
    });
    assert.deepEqual(
      same.environments.map((e) => e.name),
      ['Prod'],
    );
  });

  it('a setting that is not a list is ignored with a problem', () => {
    const r = readEnvironments({ name: 'x' }, 'user');
    assert.deepEqual(r.environments, []);
    assert.match(r.problems[0].message, /not a list/);
  });

  it('the active environment is the remembered name (any case), else the first', () => {
    const { environments } = readEnvironments(
      [
        { name: 'One', baseUrl: 'https://1' },
        { name: 'Two', baseUrl: 'https://2' },
      ],
      'user',
    );
    assert.equal(activeEnvironment(environments, 'two')?.name, 'Two');
    assert.equal(activeEnvironment(environments, 'gone')?.name, 'One');
    assert.equal(activeEnvironment([], 'One'), undefined);
  });

  it('the shareable list has no shorthand and nothing but name, URL, headers and variables', () => {
    const { environments } = readEnvironments(
      [{ name: 'Two', baseUrl: 'https://2', headers: { 'X-A': 'a' }, variables: { v: '1' } }],
      'user',
      { url: 'https://1', source: 'user' },
    );
    assert.deepEqual(shareableEnvironments(environments), [
      { name: 'Two', baseUrl: 'https://2', headers: { 'X-A': 'a' }, variables: { v: '1' } },
    ]);
  });

  it('drops a variable with a bad name or a value that is not text, saying which; numbers and booleans become text', () => {
    const r = readEnvironments(
      [
        {
          name: ' Prod ',
          baseUrl: ' https://p.example// ',
          variables: { model: 'm1', 'max.tokens': 128, stream: false, $secret: 'x', 'a b': 'y', list: ['z'] },
        },
      ],
      'user',
    );
    assert.equal(r.environments[0].name, 'Prod');
    assert.equal(r.environments[0].baseUrl, 'https://p.example');
    assert.deepEqual(r.environments[0].variables, { model: 'm1', 'max.tokens': '128', stream: 'false' });
    assert.deepEqual(
      r.problems.map((p) => [p.index, p.message]),
      [
        [0, 'modelAccess.environments[0] (Prod): "$secret" is not a variable name'],
        [0, 'modelAccess.environments[0] (Prod): "a b" is not a variable name'],
        [0, 'modelAccess.environments[0] (Prod): the variable list is not a string'],
      ],
    );
  });

  it('a shorthand URL whose host names a listed environment gets a numbered name', () => {
    const listed = [
      { name: 'gw.example', baseUrl: 'https://gw.example/a' },
      { name: 'GW.example (2)', baseUrl: 'https://gw.example/b' },
    ];
    const { environments } = readEnvironments(listed, 'user', { url: 'https://gw.example/c', source: 'user' });
    assert.deepEqual(
      environments.map((e) => e.name),
      ['gw.example (3)', 'gw.example', 'GW.example (2)'],
    );
    // The same URL in another case or with a trailing slash is the listed one, not a second environment.
    const same = readEnvironments(listed, 'user', { url: 'HTTPS://GW.EXAMPLE/a// ', source: 'user' });
    assert.equal(same.environments.length, 2);
  });

  it('no setting at all is no problem; a header name in a problem is cut to 60 characters', () => {
    assert.deepEqual(readEnvironments(undefined, 'user'), { environments: [], problems: [] });
    assert.deepEqual(readEnvironments({}, 'user').problems, [
      { index: -1, message: 'modelAccess.environments is not a list; it was ignored' },
    ]);
    const long = `X ${'y'.repeat(100)}`;
    assert.equal(headerProblem(long, 'v'), `"${long.slice(0, 60)}" is not a valid header name`);
    assert.equal(headerProblem('X-Count', 3), 'the value of X-Count is not a string');
  });

  it('finds an environment by name in any case and with spaces around it; no name finds none', () => {
    const { environments } = readEnvironments(
      [
        { name: 'Prod', baseUrl: 'https://p' },
        { name: 'Staging', baseUrl: 'https://s' },
      ],
      'user',
    );
    assert.equal(findEnvironment(environments, ' staging ')?.baseUrl, 'https://s');
    assert.equal(findEnvironment(environments, undefined), undefined);
    assert.equal(findEnvironment(environments, 'dev'), undefined);
  });

  it('a header given as "{{secret}}" is a secret header: named, never a value; shared with its marker', () => {
    const { environments, problems } = readEnvironments(
      [
        {
          name: 'Gateway',
          baseUrl: 'https://gw.example/team-a',
          headers: { 'X-Org': 'acme', 'X-Org-Token': ' {{secret}} ', 'x-org': 'again', 'X-Literal': 'a {{secret}}' },
        },
      ],
      'user',
    );
    const [gw] = environments;
    assert.deepEqual(gw.headers, { 'X-Org': 'acme', 'X-Literal': 'a {{secret}}' });
    assert.deepEqual(gw.secretHeaders, ['X-Org-Token']);
    assert.deepEqual(
      problems.map((p) => p.message),
      ['modelAccess.environments[0] (Gateway): the x-org header is given twice; the first one counts'],
    );
    assert.deepEqual(shareableEnvironments(environments), [
      {
        name: 'Gateway',
        baseUrl: 'https://gw.example/team-a',
        headers: { 'X-Org': 'acme', 'X-Literal': 'a {{secret}}', 'X-Org-Token': '{{secret}}' },
      },
    ]);
    const onlySecret = readEnvironments(
      [{ name: 'S', baseUrl: 'https://s', headers: { 'X-T': '{{secret}}' } }],
      'user',
    );
    assert.deepEqual(shareableEnvironments(onlySecret.environments), [
      { name: 'S', baseUrl: 'https://s', headers: { 'X-T': '{{secret}}' } },
    ]);
  });

  it('a secret header given again in another case counts once, the first, and an environment without headers shares none', () => {
    const { environments, problems } = readEnvironments(
      [
        { name: 'A', baseUrl: 'https://a', headers: { 'X-Org-Token': '{{secret}}', 'x-org-token': '{{secret}}' } },
        { name: 'B', baseUrl: 'https://b', headers: { 'X-Key': '{{secret}}', 'X-KEY': 'plain' } },
        { name: 'C', baseUrl: 'https://c', headers: {} },
      ],
      'user',
    );
    assert.deepEqual(
      environments.map((e) => [e.name, e.secretHeaders, e.headers]),
      [
        ['A', ['X-Org-Token'], {}],
        ['B', ['X-Key'], {}],
        ['C', [], {}],
      ],
    );
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'modelAccess.environments[0] (A): the x-org-token header is given twice; the first one counts',
        'modelAccess.environments[1] (B): the X-KEY header is given twice; the first one counts',
      ],
    );
    assert.deepEqual(shareableEnvironments(environments).at(-1), { name: 'C', baseUrl: 'https://c' });
  });
});
