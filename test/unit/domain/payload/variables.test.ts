// Variables in payloads: what a send carries, what is shown or kept (secrets as written), what cannot be
// resolved and why, and (fast-check) that any placement of braces in any text never throws and never loses text.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { withEndpoint } from '../../../../src/domain/payload/endpointHeader';
import {
  envAccess,
  openReferenceBefore,
  pinnedEnvironment,
  pinToEnvironment,
  referencesIn,
  resolvePayload,
  resolveModel,
  resolveString,
  splitTemplate,
  type VariableContext,
} from '../../../../src/domain/payload/variables';

const SECRET = 'sk-canary-0123456789';

function context(variables: Record<string, string> = {}, env: Record<string, string> = {}): VariableContext {
  let n = 0;
  return {
    variables,
    environment: 'staging',
    env: (name) => env[name],
    uuid: () => `uuid-${++n}`,
    now: () => 1_700_000_000_123,
  };
}

describe('domain/payload/variables', () => {
  describe('resolveString', () => {
    it('replaces environment variables, with spaces inside the braces allowed', () => {
      const r = resolveString('Hello {{name}} from {{ region }}!', context({ name: 'Ada', region: 'eu-west' }));
      assert.equal(r.sent, 'Hello Ada from eu-west!');
      assert.equal(r.shown, 'Hello Ada from eu-west!');
      assert.deepEqual(r.problems, []);
    });

    it('resolves references inside variable values (nesting), and says when a value refers to itself', () => {
      const ok = resolveString('{{greeting}}', context({ greeting: 'Hi {{name}}', name: 'Ada' }));
      assert.equal(ok.sent, 'Hi Ada');
      const loop = resolveString('{{a}}', context({ a: 'x{{b}}', b: '{{a}}' }));
      assert.equal(loop.problems.length, 1);
      assert.match(loop.problems[0].message, /refers to itself \(a → b → a\)/);
    });

    it('names an unknown variable and the environment it is missing from, and keeps it as written', () => {
      const r = resolveString('a {{missing}} b', context());
      assert.equal(r.sent, 'a {{missing}} b');
      assert.deepEqual(
        r.problems.map((p) => p.message),
        ['{{missing}} is not defined in environment staging'],
      );
    });

    it('sends $env values but shows and keeps the reference, and reports them as secrets', () => {
      const r = resolveString('Bearer {{$env TOKEN}}', context({}, { TOKEN: SECRET }));
      assert.equal(r.sent, `Bearer ${SECRET}`);
      assert.equal(r.shown, 'Bearer {{$env TOKEN}}');
      assert.deepEqual(r.secrets, [SECRET]);
    });

    it('keeps a variable whose value holds a secret as written in what is shown', () => {
      const r = resolveString(
        '{{auth}} {{plain}}',
        context({ auth: 'k={{$env TOKEN}}', plain: 'p' }, { TOKEN: SECRET }),
      );
      assert.equal(r.sent, `k=${SECRET} p`);
      assert.equal(r.shown, '{{auth}} p');
      assert.ok(!r.shown.includes(SECRET));
    });

    it('a payload from an untrusted workspace or outside the scratch folder reads only MODEL_ACCESS_* and allowed names', () => {
      const env: Record<string, string> = {
        AWS_SECRET_ACCESS_KEY: 'aws-canary',
        MODEL_ACCESS_TOKEN: 'own-canary',
        ALLOWED_ONE: 'allowed-canary',
      };
      const asked: string[] = [];
      for (const limited of ['untrusted', 'outsideScratch'] as const) {
        const ctx: VariableContext = {
          ...context({ nested: '{{$env AWS_SECRET_ACCESS_KEY}}' }),
          env: (name) => (asked.push(name), env[name]),
          envPolicy: { limited, allowed: new Set(['ALLOWED_ONE']) },
        };
        const r = resolvePayload(
          {
            a: '{{$env AWS_SECRET_ACCESS_KEY}}',
            b: '{{$env MODEL_ACCESS_TOKEN}}',
            c: '{{$env ALLOWED_ONE}}',
            d: '{{nested}}',
          },
          ctx,
        );
        assert.ok(!r.json.includes('aws-canary'), 'the refused value is not sent');
        // A refused reference stays as written, in what would be sent and in what is shown.
        assert.equal(JSON.parse(r.json).a, '{{$env AWS_SECRET_ACCESS_KEY}}');
        assert.equal(JSON.parse(r.shownJson).a, '{{$env AWS_SECRET_ACCESS_KEY}}');
        assert.deepEqual(JSON.parse(r.json).b, 'own-canary');
        assert.deepEqual(JSON.parse(r.json).c, 'allowed-canary');
        assert.ok(!JSON.parse(r.json).d.includes('aws-canary'), 'nor through a variable');
        assert.deepEqual(
          [...new Set(r.problems.map((p) => p.refusedEnv))],
          ['AWS_SECRET_ACCESS_KEY'],
          'refused, the name to allow given',
        );
        assert.match(
          r.problems[0].message,
          limited === 'untrusted'
            ? /not trusted, a payload reads only MODEL_ACCESS_\* environment variables unless you allow AWS_SECRET_ACCESS_KEY$/
            : /outside the scratch folder reads only MODEL_ACCESS_\* environment variables unless you allow AWS_SECRET_ACCESS_KEY$/,
        );
      }
      assert.ok(!asked.includes('AWS_SECRET_ACCESS_KEY'), 'a refused name is never even read');
      // The person's own scratch payload in a trusted window reads every name.
      const open = resolveString('{{$env AWS_SECRET_ACCESS_KEY}}', {
        ...context({}, env),
        envPolicy: { allowed: new Set() },
      });
      assert.equal(open.sent, 'aws-canary');
      assert.deepEqual(
        ['X', 'MODEL_ACCESS_X', 'Y'].map((n) => envAccess(n, { limited: 'untrusted', allowed: new Set(['Y']) })),
        ['refused', 'own', 'allowed'],
      );
      assert.equal(envAccess('X', undefined), 'open');
    });

    it('says which environment variable is not set, and which built-in does not exist', () => {
      const r = resolveString('{{$env NOPE}} {{$random}}', context());
      assert.deepEqual(
        r.problems.map((p) => p.message),
        [
          "{{$env NOPE}}: the environment variable NOPE is not set in VS Code's environment",
          '{{$random}}: there is no built-in $random (built-ins: $env NAME, $uuid, $timestamp)',
        ],
      );
    });

    it('fills $uuid and $timestamp (Unix seconds)', () => {
      const r = resolveString('{{$uuid}}/{{$uuid}}@{{$timestamp}}', context());
      assert.equal(r.sent, 'uuid-1/uuid-2@1700000000');
    });

    it('keeps an escaped \\{{ as literal braces, and leaves braces around non-names alone', () => {
      const r = resolveString('\\{{name}} and {{ not a name }} and {{}} and {x}', context({ name: 'Ada' }));
      assert.equal(r.sent, '{{name}} and {{ not a name }} and {{}} and {x}');
      assert.deepEqual(r.problems, []);
    });

    it('{{model}} is the model given, else an environment variable, else a problem', () => {
      const aurora = resolveModel('aurora-2', context());
      assert.equal(resolveString('{{model}}', context({ model: 'env-model' }), aurora).sent, 'aurora-2');
      assert.equal(resolveString('{{model}}', context({ model: 'env-model' })).sent, 'env-model');
      assert.match(resolveString('{{model}}', context()).problems[0].message, /no "model"/);
    });
  });

  describe('resolvePayload', () => {
    it('resolves strings at any depth and in keys; {{model}} is the payload model; JSON stays valid', () => {
      const value = {
        model: '{{m}}',
        input: [{ role: 'user', content: 'Use {{model}} in {{region}} "quoted" \\ back' }],
        metadata: { '{{keyName}}': '{{$uuid}}', n: 3 },
      };
      const r = resolvePayload(value, context({ m: 'aurora-2', region: 'eu', keyName: 'trace' }));
      assert.deepEqual(JSON.parse(r.json), {
        model: 'aurora-2',
        input: [{ role: 'user', content: 'Use aurora-2 in eu "quoted" \\ back' }],
        metadata: { trace: 'uuid-1', n: 3 },
      });
      assert.equal(r.shownJson, r.json, 'nothing secret: what is shown is what is sent, same $uuid');
    });

    it('keeps $env references in what is shown, and never the value', () => {
      const r = resolvePayload({ model: 'a', input: 'key {{$env TOKEN}}' }, context({}, { TOKEN: SECRET }));
      assert.equal(JSON.parse(r.json).input, `key ${SECRET}`);
      assert.equal(JSON.parse(r.shownJson).input, 'key {{$env TOKEN}}');
      assert.ok(!r.shownJson.includes(SECRET));
      assert.deepEqual(r.secrets, [SECRET]);
    });

    it("keeps an $env reference as written where it is an object's only value, at any depth", () => {
      const value = { auth: { bearer: '{{$env TOKEN}}' } };
      const r = resolvePayload(value, context({}, { TOKEN: SECRET }));
      assert.deepEqual(JSON.parse(r.json), { auth: { bearer: SECRET } });
      assert.deepEqual(JSON.parse(r.shownJson), value);
      assert.ok(!r.shownJson.includes(SECRET));
    });

    it('keeps $env references as written wherever they are: in arrays, nested objects and keys', () => {
      const value = {
        model: 'a',
        tags: ['plain', '{{$env TOKEN}}'],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'with {{$env TOKEN}}' }] }],
        headers: { '{{$env TOKEN}}': 'v' },
      };
      const r = resolvePayload(value, context({}, { TOKEN: SECRET }));
      assert.deepEqual(JSON.parse(r.json), {
        model: 'a',
        tags: ['plain', SECRET],
        messages: [{ role: 'user', content: [{ type: 'text', text: `with ${SECRET}` }] }],
        headers: { [SECRET]: 'v' },
      });
      assert.deepEqual(JSON.parse(r.shownJson), value);
      assert.ok(!r.shownJson.includes(SECRET));
    });

    it('reports each unknown variable once', () => {
      const r = resolvePayload({ a: '{{x}}', b: '{{x}} {{y}}' }, context());
      assert.deepEqual(
        r.problems.map((p) => p.reference),
        ['{{x}}', '{{y}}'],
      );
    });
  });

  describe('referencesIn', () => {
    it('finds references inside strings only, with their offsets', () => {
      const text = '// POST /v1/chat {{notme}}\n{"model": "{{model}}", "x": "a {{ b }}"} ';
      const refs = referencesIn(text);
      assert.deepEqual(
        refs.map((r) => [r.name, text.slice(r.offset, r.offset + r.length)]),
        [
          ['model', '{{model}}'],
          ['b', '{{ b }}'],
        ],
      );
    });
  });

  describe('pinnedEnvironment', () => {
    it('reads // @env NAME among the leading comment lines only', () => {
      assert.deepEqual(pinnedEnvironment('// POST /v1/chat\n// @env Staging EU\n{}'), { name: 'Staging EU', line: 1 });
      assert.equal(pinnedEnvironment('// POST /v1/chat\n{"a": 1}\n// @env prod'), undefined);
      assert.equal(pinnedEnvironment('{}'), undefined);
    });
  });

  describe('pinToEnvironment', () => {
    it('writes the // @env line that pinnedEnvironment reads back, above the payload kept whole', () => {
      const payload = '{\n  "model": "aurora-2"\n}';
      const pinned = pinToEnvironment(payload, 'Staging EU');
      assert.equal(pinned, `// @env Staging EU\n${payload}`);
      assert.deepEqual(pinnedEnvironment(withEndpoint(pinned!, '/v1/chat')), { name: 'Staging EU', line: 1 });
    });
    it('refuses a name the line cannot hold as it is', () => {
      for (const name of ['', 'two\nlines', 'a\rb', ' padded', 'padded ']) {
        assert.equal(pinToEnvironment('{}', name), undefined, JSON.stringify(name));
      }
    });
  });

  describe('openReferenceBefore', () => {
    it('sees an open {{ before the cursor, not a closed or escaped one', () => {
      assert.deepEqual(openReferenceBefore('"a {{reg', 8), { start: 5, typed: 'reg' });
      assert.deepEqual(openReferenceBefore('"{{$e', 5), { start: 3, typed: '$e' });
      assert.equal(openReferenceBefore('"{{a}} b', 8), undefined);
      assert.equal(openReferenceBefore('"\\{{a', 5), undefined);
    });
  });

  describe('properties', () => {
    const pieces = fc.array(
      fc.oneof(
        fc.string(),
        fc.constantFrom('{{', '}}', '{', '}', '\\', '$', ' ', 'env', 'name', '{{name}}', '{{$env HOME}}', '{{$uuid}}'),
      ),
      { maxLength: 30 },
    );

    it('splitting never throws and gives back the text (escapes aside)', () => {
      fc.assert(
        fc.property(pieces, (parts) => {
          const s = parts.join('');
          const joined = splitTemplate(s)
            .map((p) => ('literal' in p ? p.literal : p.ref.text))
            .join('');
          // Only an escape's backslash is dropped.
          assert.equal(joined, s.replace(/\\\{\{/g, '{{'));
        }),
      );
    });

    it('resolving with nothing defined never throws and loses no text: every problem is a reference kept as written', () => {
      fc.assert(
        fc.property(pieces, (parts) => {
          const s = parts.join('');
          const c: VariableContext = { variables: {}, env: () => undefined, uuid: () => 'U', now: () => 0 };
          const r = resolveString(s.replace(/\$(uuid|timestamp)/g, '$x'), c);
          assert.equal(r.sent, s.replace(/\$(uuid|timestamp)/g, '$x').replace(/\\\{\{/g, '{{'));
          assert.equal(r.shown, r.sent);
        }),
      );
    });

    it('in a JSON payload, any placement resolves to valid JSON holding the defined values, secrets only where sent', () => {
      const value = fc.string().filter((v) => !v.includes('{{') && !v.includes(SECRET));
      fc.assert(
        fc.property(pieces, value, (parts, v) => {
          const s = parts.join('');
          fc.pre(!/\$(uuid|timestamp)/.test(s));
          const r = resolvePayload({ model: 'm', input: s }, context({ name: v }, { HOME: SECRET }));
          const sent = JSON.parse(r.json) as { input: string };
          const shown = JSON.parse(r.shownJson) as { input: string };
          // The definition, written plainly with regular expressions over the escaped text.
          const expected = s
            .replace(/\\\{\{/g, '\u0000')
            .replace(/\{\{[ \t]*name[ \t]*\}\}/g, () => '\u0001')
            .replace(/\{\{[ \t]*model[ \t]*\}\}/g, 'm')
            .replace(/\{\{[ \t]*\$env[ \t]+HOME[ \t]*\}\}/g, SECRET)
            .replace(/\u0001/g, () => v)
            .replace(/\u0000/g, '{{');
          assert.equal(sent.input, expected);
          assert.ok(!shown.input.includes(SECRET));
        }),
      );
    });
  });

  describe('the pin and completion, at the edges', () => {
    it('finds the pin after blank lines, a byte-order mark and CRLF endings; stops at the first line that is not a comment', () => {
      assert.deepEqual(pinnedEnvironment('\uFEFF// POST /v1/chat\r\n\r\n  //@ENV   Prod EU  \r\n{}'), {
        name: 'Prod EU',
        line: 2,
      });
      assert.equal(pinnedEnvironment('x // @env Prod\n// @env Dev'), undefined);
      assert.equal(pinnedEnvironment('// note @env Prod'), undefined);
      assert.equal(pinnedEnvironment('// @envProd'), undefined);
      assert.equal(pinnedEnvironment('  \n\t\n'), undefined);
    });

    it('offers completion only inside an open reference before the cursor, not after an escape or a closed one', () => {
      assert.deepEqual(openReferenceBefore('{{mo', 4), { start: 2, typed: 'mo' });
      assert.deepEqual(openReferenceBefore('"{{a}} {{b', 10), { start: 9, typed: 'b' });
      assert.deepEqual(openReferenceBefore('"{{ $env', 8), { start: 3, typed: ' $env' });
      assert.equal(openReferenceBefore('"\\{{a', 5), undefined);
      assert.equal(openReferenceBefore('"{{a b', 6), undefined);
      assert.equal(openReferenceBefore('"x{{a"', 6), undefined);
      assert.equal(openReferenceBefore('"{{a}}"', 4)?.typed, 'a', 'only the text before the cursor counts');
      assert.equal(openReferenceBefore('"abc', 4), undefined);
    });

    it('finds references in strings only, at their offsets, including after escaped quotes', () => {
      const text = '{"a": "x {{model}}", "{{k}}": 1, /* {{c}} */ "\\"{{v}}"}';
      assert.deepEqual(
        referencesIn(text).map((r) => [r.name, r.offset, text.slice(r.offset, r.offset + r.length)]),
        [
          ['model', 9, '{{model}}'],
          ['k', 22, '{{k}}'],
          ['v', 48, '{{v}}'],
        ],
      );
    });
  });
});

describe('domain/payload/variables: what a person sees at the edges', () => {
  it('splitTemplate: only the pieces there are, no empty text between two references', () => {
    assert.deepEqual(
      splitTemplate('{{a}}{{b}}').map((p) => ('ref' in p ? p.ref.name : p.literal)),
      ['a', 'b'],
    );
    assert.deepEqual(splitTemplate('{{$uuid}}'), [{ ref: { kind: 'uuid', name: '$uuid', text: '{{$uuid}}' }, at: 0 }]);
    assert.deepEqual(splitTemplate('{{$timestamp}}')[0], {
      ref: { kind: 'timestamp', name: '$timestamp', text: '{{$timestamp}}' },
      at: 0,
    });
  });

  it('built-ins with a wrong argument, and $env without a name, are named in the message', () => {
    const problem = (s: string) => resolveString(s, context()).problems.map((p) => p.message);
    assert.deepEqual(problem('{{$env}}'), [
      '{{$env}}: there is no built-in $env (built-ins: $env NAME, $uuid, $timestamp)',
    ]);
    assert.deepEqual(problem('{{$uuid x}}'), [
      '{{$uuid x}}: there is no built-in $uuid x (built-ins: $env NAME, $uuid, $timestamp)',
    ]);
    const outside: VariableContext = { ...context(), environment: undefined };
    assert.deepEqual(
      resolveString('{{nope}}', outside).problems.map((p) => p.message),
      ['{{nope}} is not defined'],
    );
  });

  it('$timestamp and $uuid are shown as sent; two $uuid in one payload differ, and both passes agree', () => {
    const t = resolveString('{{$timestamp}}', context());
    assert.deepEqual([t.sent, t.shown], ['1700000000', '1700000000']);
    const r = resolvePayload({ model: 'm', a: '{{$uuid}}', b: '{{$uuid}}', at: '{{$timestamp}}' }, context());
    const sent = JSON.parse(r.json) as Record<string, string>;
    assert.deepEqual([sent.a, sent.b, sent.at], ['uuid-1', 'uuid-2', '1700000000']);
    assert.equal(r.shownJson, r.json, 'nothing secret: shown as sent');
  });

  it('{{model}} inside a variable is the payload’s model; inside the model itself it is not', () => {
    const r = resolvePayload({ model: 'm1', input: '{{greeting}}' }, context({ greeting: 'hi {{model}}' }));
    assert.deepEqual(JSON.parse(r.json), { model: 'm1', input: 'hi m1' });
    const own = resolvePayload({ model: '{{alias}}', input: 'x' }, context({ alias: '{{model}}' }));
    assert.deepEqual(
      own.problems.map((p) => p.message),
      ['{{model}}: the payload has no "model" to use'],
    );
  });

  it('variables nest up to 8 levels; a ninth is refused like a loop', () => {
    const chain = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, i + 1 < n ? `{{v${i + 1}}}` : 'end']));
    assert.deepEqual(resolveString('{{v0}}', context(chain(8))).sent, 'end');
    const deep = resolveString('{{v0}}', context(chain(9)));
    assert.equal(deep.problems.length, 1);
    assert.match(deep.problems[0].message, /^\{\{v8\}\} refers to itself \(v0 → v1 → .* → v8\)$/);
  });

  it('a payload that is not an object, null included, is resolved without a model', () => {
    for (const value of [null, 'text {{$uuid}}', 3, ['{{$timestamp}}']]) {
      const r = resolvePayload(value, context());
      assert.deepEqual(r.problems, [], JSON.stringify(value));
    }
  });

  it('referencesIn: each reference at its offset in the document, inside strings only', () => {
    const text = '// {{not}} a comment\n{ "a": "x {{one}}", "{{two}}": 1 }';
    assert.deepEqual(
      referencesIn(text).map((r) => [r.name, r.offset, r.length, text.slice(r.offset, r.offset + r.length)]),
      [
        ['one', text.indexOf('{{one}}'), 7, '{{one}}'],
        ['two', text.indexOf('{{two}}'), 7, '{{two}}'],
      ],
    );
  });

  it('// @env after blank lines of spaces is still among the leading comments', () => {
    assert.deepEqual(pinnedEnvironment('   \n\t\n// @env Staging\n{}'), { name: 'Staging', line: 2 });
  });
});
