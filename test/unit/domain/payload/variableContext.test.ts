import * as assert from 'node:assert/strict';
import { variableContext } from '../../../../src/domain/payload/variableContext';
import { resolveString } from '../../../../src/domain/payload/variables';

describe('variableContext: what {{…}} resolves against, for Send, checks and the command line', () => {
  const env = { name: 'staging', variables: { region: 'eu-west' } };

  it('resolves an environment variable by its name and says which environment lacks one', () => {
    const context = variableContext(env);
    assert.equal(resolveString('{{region}}', context).sent, 'eu-west');
    assert.match(resolveString('{{zone}}', context).problems[0].message, /staging/);
  });

  it('reads {{$env}} from the process environment unless the command line hands its own reader', () => {
    process.env.MODEL_ACCESS_TEST_VARIABLE_CONTEXT = 'from-process';
    try {
      assert.equal(
        resolveString('{{$env MODEL_ACCESS_TEST_VARIABLE_CONTEXT}}', variableContext(env)).sent,
        'from-process',
      );
      const cli = variableContext(env, {
        readEnv: (name) => ({ MODEL_ACCESS_TEST_VARIABLE_CONTEXT: 'from-cli' })[name],
      });
      assert.equal(resolveString('{{$env MODEL_ACCESS_TEST_VARIABLE_CONTEXT}}', cli).sent, 'from-cli');
    } finally {
      delete process.env.MODEL_ACCESS_TEST_VARIABLE_CONTEXT;
    }
  });

  it('keeps a name the policy refuses unread, as written', () => {
    process.env.SOME_TOKEN_FOR_THE_TEST = 'never-sent';
    try {
      const context = variableContext(env, { envPolicy: { limited: 'untrusted', allowed: new Set() } });
      const resolved = resolveString('{{$env SOME_TOKEN_FOR_THE_TEST}}', context);
      assert.equal(resolved.sent, '{{$env SOME_TOKEN_FOR_THE_TEST}}');
      assert.equal(resolved.problems[0].refusedEnv, 'SOME_TOKEN_FOR_THE_TEST');
    } finally {
      delete process.env.SOME_TOKEN_FOR_THE_TEST;
    }
  });

  it('gives a fresh id each time and no environment when none is active', () => {
    const context = variableContext(undefined);
    assert.notEqual(context.uuid(), context.uuid());
    assert.deepEqual(context.variables, {});
    assert.equal(context.environment, undefined);
  });
});
