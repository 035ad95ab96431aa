// The matcher (issue 45): whole string literals and whole config values of each default language, never a
// substring of a word, comments left out, exact UTF-16 positions, and the issue's bad input: common words,
// regex specials and `{{…}}` ids, a minified line, 100,000 ids.
import * as assert from 'node:assert/strict';
import { makeIdLookup } from '../../../src/references/core/idLookup';
import { findModelReferences, isModelKey, isReferenceFile } from '../../../src/references/core/matcher';
import type { ModelReference } from '../../../src/references/core/types';

/** The ids, built for each call (not when the file loads: mutation testing only sees what a test runs). */
const ids = () =>
  makeIdLookup(['aurora-2', 'aurora-10', 'basalt-code-2', 'default', 'gpt', '{{model}}', 'a.b*c?(x)', 'ft:gpt:acme']);

/** The references as `line:character id` (`~nearest` for an unlisted one), and each range checked against the text. */
function found(text: string, file: string, lookup = ids()): string[] {
  const refs = findModelReferences(text, file, lookup);
  const lines = text.split('\n');
  return refs.map((r: ModelReference) => {
    assert.equal(lines[r.line].slice(r.character, r.character + r.length), r.id, `the range of ${r.id} holds it`);
    assert.equal(r.length, r.id.length);
    assert.equal(r.listed, r.nearest === undefined);
    return `${r.line}:${r.character} ${r.id}${r.listed ? '' : ` ~${r.nearest}`}`;
  });
}

describe('references: isReferenceFile (the default languages)', () => {
  const yes = [
    'a.py',
    'a.pyi',
    'src/a.ts',
    'a.tsx',
    'a.js',
    'a.mjs',
    'a.cjs',
    'a.jsx',
    'a.mts',
    'a.cts',
    'A.java',
    'a.go',
    'a.cs',
    'a.rb',
    'a.yaml',
    'a.yml',
    'a.json',
    'a.jsonc',
    'a.toml',
    '.env',
    '.env.local',
    'dir/.env.production',
    'app.env',
    'a.properties',
    'a.ipynb',
    'main.tf',
    'x.tfvars',
    'x.hcl',
    'C:\\code\\A.PY',
    'a.pyw',
  ];
  const no = [
    'a.md',
    'a.txt',
    'a.png',
    'Makefile',
    '.bashrc',
    'a.py.bak',
    'env',
    'a.envrc',
    'a.',
    '.gitignore',
    'a.toString',
  ];
  for (const f of yes) {
    it(`${f}: yes`, () => assert.equal(isReferenceFile(f), true));
  }
  for (const f of no) {
    it(`${f}: no`, () => assert.equal(isReferenceFile(f), false));
  }
});

describe('references: isModelKey', () => {
  it('a key naming a model, in any case and inside a longer name', () => {
    for (const k of ['model', 'MODEL', 'model_name', 'modelId', 'OPENAI_MODEL', 'self.model', 'llm.Model']) {
      assert.equal(isModelKey(k), true, k);
    }
    for (const k of [undefined, '', 'name', 'engine', 'mode', 'modl']) {
      assert.equal(isModelKey(k), false, String(k));
    }
  });
});

describe('references: findModelReferences in code', () => {
  it('Python: "…", \'…\', triple quotes and prefixes; # comments left out; unlisted neighbours named', () => {
    const py = [
      'client.chat(model="aurora-2")',
      'x = \'basalt-code-2\'  # "aurora-10"',
      '# model="aurora-2"',
      'doc = """aurora-10"""',
      'y = r\'aurora-2\' + f"aurora-3"',
      "z = '''aurora-2",
      "'''",
    ].join('\n');
    assert.deepEqual(found(py, 'app.py'), [
      '0:19 aurora-2',
      '1:5 basalt-code-2',
      '3:9 aurora-10',
      '4:6 aurora-2',
      '4:20 aurora-3 ~aurora-2',
    ]);
  });

  it('TypeScript/JavaScript: quotes and template literals without ${…}; // and /* */ comments left out', () => {
    const ts = [
      'const a = \'aurora-2\'; const b = "aurora-10";',
      'const c = `basalt-code-2`; const d = `${v}aurora-2`;',
      '// "aurora-2"',
      '/* "aurora-2"',
      '   "aurora-10" */ const e = "aurora-2";',
      'const url = "https://x//aurora-2"; const f = `aurora-2`;',
    ].join('\n');
    assert.deepEqual(found(ts, 'a.ts'), [
      '0:11 aurora-2',
      '0:33 aurora-10',
      '1:11 basalt-code-2',
      '4:29 aurora-2',
      '5:46 aurora-2',
    ]);
  });

  it('Java, Go, C#, Ruby and HCL strings; Go raw strings; Ruby and HCL # comments', () => {
    assert.deepEqual(found('String m = "aurora-2"; // "aurora-10"', 'A.java'), ['0:12 aurora-2']);
    assert.deepEqual(found('m := `aurora-2`\nn := "aurora-10"', 'a.go'), ['0:6 aurora-2', '1:6 aurora-10']);
    assert.deepEqual(found('var m = @"aurora-2";', 'a.cs'), ['0:10 aurora-2']);
    assert.deepEqual(found("m = 'aurora-2' # 'aurora-10'\nn = \"basalt-code-2\"", 'a.rb'), [
      '0:5 aurora-2',
      '1:5 basalt-code-2',
    ]);
    assert.deepEqual(found('model = "aurora-2" # "aurora-10"\n// "aurora-10"\n/* "aurora-10" */', 'main.tf'), [
      '0:9 aurora-2',
    ]);
  });

  it('JSON/JSONC: values and keys (maps keyed by model), comments left out; TOML strings and # comments', () => {
    const json =
      '{\n  "model": "aurora-2", // "aurora-10"\n  "aurora-10": {"x": 1},\n  /* "basalt-code-2" */ "m": ["basalt-code-2"]\n}';
    assert.deepEqual(found(json, 'c.jsonc'), ['1:12 aurora-2', '2:3 aurora-10', '3:31 basalt-code-2']);
    const toml = 'model = "aurora-2" # "aurora-10"\nother = \'basalt-code-2\'\nlong = """aurora-10"""';
    assert.deepEqual(found(toml, 'p.toml'), ['0:9 aurora-2', '1:9 basalt-code-2', '2:10 aurora-10']);
  });

  it('never a substring: an id inside a longer literal, a word or a path is no reference', () => {
    const text = [
      'a = "use aurora-2 now"',
      'b = "aurora-2-mini-preview-x"',
      'c = aurora_2 + "xaurora-2x-y"',
      'd = "models/aurora-2"',
      'aurora-2 = 1',
      'e = "aurora-2 "',
    ].join('\n');
    assert.deepEqual(found(text, 'a.py'), []);
    assert.deepEqual(found('model: models/aurora-2\nx: aurora-2-mini-preview-x\n', 'a.yaml'), []);
  });

  it('a common word that is an id ("default", "gpt") is a reference only as the value of a model-ish key', () => {
    const py = [
      'x = "default"',
      'print("gpt")',
      'client(model="default")',
      'MODEL_NAME = "gpt"',
      "self.model = 'default'",
      'opts = {"model": "gpt"}',
      'mode = "default"',
    ].join('\n');
    assert.deepEqual(found(py, 'a.py'), ['2:14 default', '3:14 gpt', '4:14 default', '5:18 gpt']);
    assert.deepEqual(found('{"name": "default", "model": "default"}', 'a.json'), ['0:30 default']);
    assert.deepEqual(found('const m = { model: "gpt", kind: "gpt" };', 'a.ts'), ['0:20 gpt']);
    assert.deepEqual(found('mode: default\nmodel: default\nlist:\n  - gpt\n', 'a.yaml'), ['1:7 default']);
    assert.deepEqual(found('MODE=default\nLLM_MODEL=default\n', '.env'), ['1:10 default']);
    // And no "did you mean" for a word, or towards a word, away from such a key.
    assert.deepEqual(found('a = "defaults"\nb = "gpu"\nc = "gpt4"\nmodel = "gpu"', 'a.py'), ['3:9 gpu ~gpt']);
  });

  it('ids with regex specials and {{…}} are looked up as they are, never as patterns', () => {
    const text =
      'a = "a.b*c?(x)"\nb = "aXb*c?(x)"\nc = "{{model}}"\nd = "a.b*c?(x)y"\ne = "abbbc?(x)"\nf = "{{model}}}"';
    assert.deepEqual(found(text, 'a.py'), [
      '0:5 a.b*c?(x)',
      '1:5 aXb*c?(x) ~a.b*c?(x)',
      '2:5 {{model}}',
      '3:5 a.b*c?(x)y ~a.b*c?(x)',
      '5:5 {{model}}} ~{{model}}',
    ]);
    // Unquoted, `{{model}}` is a YAML flow map, not a value.
    assert.deepEqual(found('x: {{model}}\ny: "{{model}}"\n', 'a.yaml'), ['1:4 {{model}}']);
  });

  it('a template literal with ${…} is no whole value, even when its text is an id', () => {
    const lookup = makeIdLookup(['${model}-1', 'm-2']);
    assert.deepEqual(found('const a = `${model}-1`; const b = `m-2`; const c = "${model}-1";', 'a.ts', lookup), [
      '0:35 m-2',
      '0:52 ${model}-1',
    ]);
  });

  it('an unlisted literal with white space, or two edits away, is no candidate', () => {
    assert.deepEqual(found('a = "aurora 2"\nb = "aurora-345"\nc = "auror-3"', 'a.py'), []);
  });

  it('columns count UTF-16 code units (an emoji before the literal), CRLF lines, and a text without ids', () => {
    assert.deepEqual(found('x = "😀" + "aurora-2"\r\ny = "aurora-10"\r\n', 'a.py'), ['0:12 aurora-2', '1:5 aurora-10']);
    assert.deepEqual(found('model: aurora-2\r\nother: "aurora-10"\r\n', 'a.yml'), ['0:7 aurora-2', '1:8 aurora-10']);
    assert.deepEqual(findModelReferences('x = "aurora-2"', 'a.py', makeIdLookup([])), []);
    assert.deepEqual(findModelReferences('', 'a.py', ids()), []);
  });

  it('a file of another language (an include glob) is read for its "…" and \'…\' strings', () => {
    assert.deepEqual(found('x = "aurora-2" # \'aurora-10\'', 'a.sh'), ['0:5 aurora-2', '0:18 aurora-10']);
  });

  it('a one-line minified bundle of 1 MB is read in well under a second', () => {
    const line = 'var a="x",b=function(){return"aurora-2"};'.repeat(25_000);
    const started = performance.now();
    const refs = findModelReferences(line, 'bundle.js', ids());
    assert.equal(refs.length, 25_000);
    assert.equal(refs[24_999].character, 24_999 * 41 + 30);
    assert.ok(performance.now() - started < 2000);
  });
});

describe('references: findModelReferences in config values', () => {
  it('YAML: plain and quoted values, keys, list items, flow lists, tags and anchors, ft:… ids with colons', () => {
    const yaml = [
      'model: aurora-2',
      'fallback: "basalt-code-2" # aurora-10',
      "other: 'aurora-10'",
      'models:',
      '  - aurora-2',
      '  - "aurora-10"',
      '  - - aurora-3',
      'list: [aurora-2, "basalt-code-2", \'aurora-10\', [x], gpt]',
      'tagged: !!str aurora-2',
      'anchored: &m aurora-10',
      'alias: *m',
      'aurora-2:',
      '  "aurora-10": x',
      'tuned: ft:gpt:acme',
      'url: http://aurora-2',
      '# model: aurora-2',
      'k: aurora-2 # aurora-10',
    ].join('\n');
    assert.deepEqual(found(yaml, 'c.yaml'), [
      '0:7 aurora-2',
      '1:11 basalt-code-2',
      '2:8 aurora-10',
      '4:4 aurora-2',
      '5:5 aurora-10',
      '6:6 aurora-3 ~aurora-2',
      '7:7 aurora-2',
      '7:18 basalt-code-2',
      '7:35 aurora-10',
      '8:14 aurora-2',
      '9:13 aurora-10',
      '11:0 aurora-2',
      '12:3 aurora-10',
      '13:7 ft:gpt:acme',
      '16:3 aurora-2',
    ]);
  });

  it('YAML: block scalars, document markers, directives, flow maps and unclosed quotes are passed over', () => {
    const yaml = [
      '%YAML 1.2',
      '---',
      'prompt: |',
      '  aurora-2',
      '  model: aurora-10',
      'next: >-',
      '    aurora-2',
      'after: aurora-10',
      'map: {model: aurora-2}',
      'open: "aurora-2',
      "'open: aurora-2",
      '"aurora-2"',
      '...',
      'tag: !only',
      'empty:',
      '- ',
    ].join('\n');
    assert.deepEqual(found(yaml, 'c.yml'), ['7:7 aurora-10', '11:1 aurora-2']);
  });

  it('.env: KEY=value, export, quotes, comments after a plain value', () => {
    const env = [
      'MODEL=aurora-2',
      'export FALLBACK="basalt-code-2"',
      "OTHER='aurora-10' # x",
      'PLAIN=aurora-10 # aurora-2',
      '# MODEL=aurora-2',
      'not a line aurora-2',
      'EMPTY=',
    ].join('\n');
    assert.deepEqual(found(env, '.env'), ['0:6 aurora-2', '1:17 basalt-code-2', '2:7 aurora-10', '3:6 aurora-10']);
  });

  it('.properties: =, : and space separators, quotes, # and ! comments', () => {
    const props = [
      'model=aurora-2',
      'fallback : basalt-code-2',
      'other aurora-10',
      'quoted="aurora-2"',
      '# model=aurora-2',
      '! model=aurora-2',
      'a.b\\:c = aurora-10   ',
      'lone',
    ].join('\n');
    assert.deepEqual(found(props, 'a.properties'), [
      '0:6 aurora-2',
      '1:11 basalt-code-2',
      '2:6 aurora-10',
      '3:8 aurora-2',
      '6:9 aurora-10',
    ]);
  });

  it('notebooks: the literals inside each line of a cell source, at their place in the .ipynb file', () => {
    const nb = JSON.stringify(
      {
        cells: [
          {
            cell_type: 'code',
            source: ['client(model="aurora-2")\n', "x = 'basalt-code-2'\n", 'y = "default"\n', 'model = "gpt"'],
          },
          { cell_type: 'markdown', source: ['aurora-10 is a model'] },
        ],
        metadata: { kernel: 'aurora-2' },
      },
      null,
      1,
    );
    const refs = findModelReferences(nb, 'n.ipynb', ids());
    const lines = nb.split('\n');
    assert.deepEqual(
      refs.map((r) => [r.id, lines[r.line].slice(r.character, r.character + r.length)]),
      [
        ['aurora-2', 'aurora-2'],
        ['basalt-code-2', 'basalt-code-2'],
        ['gpt', 'gpt'],
      ],
    );
  });
});

describe('references: findModelReferences with 100,000 models', () => {
  it('finds the same references as with 3 ids, in about the same time', function () {
    this.timeout(60_000);
    const many = Array.from({ length: 100_000 }, (_, i) => `vendor-${i % 97}/model-${i}`);
    const big = makeIdLookup([...many, 'aurora-2', 'aurora-10', 'basalt-code-2']);
    const small = makeIdLookup(['aurora-2', 'aurora-10', 'basalt-code-2']);
    const file = Array.from(
      { length: 5000 },
      (_, i) => `x${i} = call("aurora-2", 'label-${i}', "some text ${i}")`,
    ).join('\n');
    const time = (ids: typeof big) => {
      const t = performance.now();
      const refs = findModelReferences(file, 'a.py', ids);
      return { ms: performance.now() - t, n: refs.length };
    };
    const fastest = (ids: typeof big) => [time(ids), time(ids), time(ids)].sort((a, b) => a.ms - b.ms)[0];
    const s = fastest(small);
    const b = fastest(big);
    assert.equal(s.n, 5000);
    assert.equal(b.n, 5000);
    assert.ok(b.ms < s.ms * 10 + 50, `3 ids: ${s.ms.toFixed(1)} ms; 100,000 ids: ${b.ms.toFixed(1)} ms`);
    assert.deepEqual(found(`m = "${many[77_777]}"\nn = "${many[77_777]}x"`, 'a.py', big), [
      `0:5 ${many[77_777]}`,
      `1:5 ${many[77_777]}x ~${many[77_777]}`,
    ]);
  });
});
