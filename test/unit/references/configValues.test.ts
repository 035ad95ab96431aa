// The values the config readers emit, exactly (value, offset, key): what the matcher then looks up whole.
import * as assert from 'node:assert/strict';
import { readConfigValues } from '../../../src/references/core/configValues';

type Syntax = 'yaml' | 'env' | 'properties';

/** Each value as `line:column value [key]`, its offset checked against the text. */
function values(text: string, syntax: Syntax): string[] {
  const out: string[] = [];
  readConfigValues(text, syntax, (v) => {
    assert.equal(text.slice(v.offset, v.offset + v.value.length), v.value, `the offset of ${v.value}`);
    const before = text.slice(0, v.offset);
    const line = before.split('\n').length - 1;
    const column = v.offset - (before.lastIndexOf('\n') + 1);
    out.push(`${line}:${column} ${v.value}${v.key !== undefined ? ` [${v.key}]` : ''}`);
  });
  return out;
}

describe('references: YAML values', () => {
  it('keys and values, plain and quoted, with comments, tabs and trailing spaces', () => {
    assert.deepEqual(values('model: m-1\nb: "m-2" # x\nc: \'m-3\'\nd:\tm-4\t# y\ne: m-5   \n', 'yaml'), [
      '0:0 model',
      '0:7 m-1 [model]',
      '1:0 b',
      '1:4 m-2 [b]',
      '2:0 c',
      '2:4 m-3 [c]',
      '3:0 d',
      '3:3 m-4 [d]',
      '4:0 e',
      '4:3 m-5 [e]',
    ]);
  });

  it('quoted values: an escaped quote inside "…", no escape inside \'…\', an unclosed quote is no value', () => {
    assert.deepEqual(values('a: "x\\"y"\nb: \'p\\\'\nc: "open\nd: \'\'\n', 'yaml'), [
      '0:0 a',
      '0:4 x\\"y [a]',
      '1:0 b',
      '1:4 p\\ [b]',
      '2:0 c',
      '3:0 d',
    ]);
  });

  it('quoted keys, followed by a colon and a space, a tab or the end of the line; a quoted scalar alone', () => {
    assert.deepEqual(values('"k 1": v-1\n\'k2\':\tv-2\n"k3":\n"only"\n"k4":x\n', 'yaml'), [
      '0:1 k 1',
      '0:7 v-1 [k 1]',
      '1:1 k2',
      '1:6 v-2 [k2]',
      '2:1 k3',
      '3:1 only',
      '4:1 k4',
    ]);
  });

  it('list items, nested dashes, a dash alone, a dash in a value', () => {
    assert.deepEqual(values('- m-1\n  - - m-2\n-\n- -m-3\n- k: m-4\n', 'yaml'), [
      '0:2 m-1',
      '1:6 m-2',
      '3:2 -m-3',
      '4:2 k',
      '4:5 m-4 [k]',
    ]);
  });

  it('flow lists: plain and quoted items, nesting and comments end them, an unclosed quote too', () => {
    assert.deepEqual(
      values('a: [m-1, "m-2" , \'m-3\',m-4 ]\nb: [x, [y], z]\nc: [m-5 # c\nd: ["m-6, m-7]\ne: [ , m-8]\n', 'yaml'),
      [
        '0:0 a',
        '0:4 m-1 [a]',
        '0:10 m-2 [a]',
        '0:18 m-3 [a]',
        '0:23 m-4 [a]',
        '1:0 b',
        '1:4 x [b]',
        '2:0 c',
        '2:4 m-5 # c [c]',
        '3:0 d',
        '4:0 e',
        '4:7 m-8 [e]',
      ],
    );
  });

  it('tags, anchors and aliases; flow maps; a key with a comment before its colon', () => {
    assert.deepEqual(values('a: !!str m-1\nb: &x m-2\nc: *x\nd: !t\ne: {k: v}\nf # g: h\nk:  # only\n', 'yaml'), [
      '0:0 a',
      '0:9 m-1 [a]',
      '1:0 b',
      '1:6 m-2 [b]',
      '2:0 c',
      '3:0 d',
      '4:0 e',
      '5:0 f',
      '6:0 k',
    ]);
  });

  it('block scalars: their lines are text until the indentation comes back, blank lines included', () => {
    assert.deepEqual(values('a: |\n  m-1\n\n  m-2\nb: m-3\n  c: >-\n    m-4\n  d: m-5\n', 'yaml'), [
      '0:0 a',
      '4:0 b',
      '4:3 m-3 [b]',
      '5:2 c',
      '7:2 d',
      '7:5 m-5 [d]',
    ]);
  });

  it('document markers, directives, comments and CRLF lines', () => {
    assert.deepEqual(values('%YAML 1.2\r\n---\r\n# a: b\r\nk: v\r\n...\r\n  # x\r\n', 'yaml'), ['3:0 k', '3:3 v [k]']);
  });
});

describe('references: .env values', () => {
  it('KEY=value with export, spaces, quotes and comments; other lines give nothing', () => {
    assert.deepEqual(
      values(
        'A=m-1\nexport B = "m-2"\n  C=\'m-3\' # c\nD=m-4 # d\nE=m-5\t# e\nF=\n# G=m-6\nnot=a line\n1H=x\nI.J-K=m-7\n',
        'env',
      ),
      [
        '0:2 m-1 [A]',
        '1:12 m-2 [B]',
        '2:5 m-3 [C]',
        '3:2 m-4 [D]',
        '4:2 m-5 [E]',
        '7:4 a line [not]',
        '9:6 m-7 [I.J-K]',
      ],
    );
  });
});

describe('references: .properties values', () => {
  it('=, : and white space as separators; quotes kept out; comments; trailing white space dropped', () => {
    assert.deepEqual(
      values(
        'a=m-1\nb : m-2\nc m-3\nd="m-4"\ne=\'m-5\'\nf="m-6\ng=" \n  # h=x\n ! i=y\nj\\:k=m-7 \t\nl=\nm=x\r\n',
        'properties',
      ),
      [
        '0:2 m-1 [a]',
        '1:4 m-2 [b]',
        '2:2 m-3 [c]',
        '3:3 m-4 [d]',
        '4:3 m-5 [e]',
        '5:2 "m-6 [f]',
        '6:2 " [g]',
        '9:5 m-7 [j\\:k]',
        '11:2 x [m]',
      ],
    );
  });
});
