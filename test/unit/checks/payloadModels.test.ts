import * as assert from 'node:assert/strict';
import { normalizeModel } from '../../../src/api/models';
import type { ModelEntry } from '../../../src/api/types';
import { changedModels, payloadChanges, payloadModels } from '../../../src/checks/core/payloadModels';
import { compareLists } from '../../../src/domain/registry/changes';
import type { VariableContext } from '../../../src/domain/payload/variables';

const m = (raw: Record<string, unknown>): ModelEntry => normalizeModel(raw) as ModelEntry;
const VARS: VariableContext = { variables: { tier: 'mini' }, env: () => undefined, uuid: () => 'u', now: () => 0 };
const chat = (model: unknown, lines: string[] = []) =>
  `// POST /v1/chat\n${lines.map((l) => `${l}\n`).join('')}// @expect status 200\n${JSON.stringify({ model, messages: [] })}\n`;

describe('checks/payloadModels: the models a payload goes to, before sending', () => {
  const deps = (files: Record<string, string> = {}, models: string[] = []) => ({
    variables: VARS,
    readText: (p: string) => files[p],
    models,
    maxRows: 1000,
  });

  it('the payload’s model; the run’s --model models instead when given', () => {
    assert.deepEqual(payloadModels(chat('atlas-3'), deps()), { models: ['atlas-3'] });
    assert.deepEqual(payloadModels(chat('atlas-3'), deps({}, ['b', 'a', 'b'])), { models: ['b', 'a'] });
  });

  it('variables resolved as the run resolves them: the environment’s, each dataset row’s', () => {
    assert.deepEqual(payloadModels(chat('atlas-{{tier}}'), deps()), { models: ['atlas-mini'] });
    const rows = { 'rows.jsonl': '{"m":"x-1"}\n{"m":"x-2"}\n{"m":"x-1"}\n' };
    assert.deepEqual(payloadModels(chat('{{m}}', ['// @each rows.jsonl']), deps(rows)), { models: ['x-1', 'x-2'] });
  });

  it('a model not known in advance says why (the caller runs the payload)', () => {
    assert.match((payloadModels(chat(undefined), deps()) as { unknown: string }).unknown, /names no model/);
    assert.match((payloadModels(chat('{{nope}}'), deps()) as { unknown: string }).unknown, /variable without a value/);
    assert.match(
      (payloadModels(chat('{{m}}', ['// @each gone.jsonl']), deps()) as { unknown: string }).unknown,
      /dataset/,
    );
    assert.match((payloadModels('not a payload', deps()) as { unknown: string }).unknown, /cannot be read/);
  });
});

describe('checks/payloadModels: which payloads a registry change makes outdated', () => {
  const before = [
    m({ id: 'atlas-3', family: 'atlas', version: '3' }),
    m({ id: 'atlas-mini', family: 'atlas', version: '1' }),
    m({ id: 'bora-1', version: '1' }),
    m({ id: 'old-1' }),
    m({ id: 'calm-2', version: '2' }),
  ];
  const after = [
    m({ id: 'atlas-3', family: 'atlas', version: '4' }),
    m({ id: 'atlas-mini', family: 'atlas', version: '1' }),
    m({ id: 'bora-1', model_version: '1' }),
    m({ id: 'calm-2', version: '2', deprecated: true, successor: 'calm-3' }),
    m({ id: 'new-1' }),
  ];
  const found = { environment: 'Staging', changes: compareLists(before, after) };
  const STAGING: VariableContext = { ...VARS, variables: { tier: 'mini', pick: 'atlas-3' }, environment: 'Staging' };
  const deps = (files: Record<string, string> = {}) => ({
    // Only the environment that changed has variables here; `undefined` asks for the active one.
    variables: (pinned: string | undefined) =>
      pinned === undefined || /^staging$/i.test(pinned) ? STAGING : undefined,
    readText: (p: string) => files[p],
    maxRows: 1000,
  });
  const ids = (text: string, files?: Record<string, string>) =>
    payloadChanges(text, found, deps(files)).map((c) => c.id);

  it('a payload whose model has a new version, lifecycle news, is new or is gone; not one whose model is as it was', () => {
    assert.deepEqual(ids(chat('atlas-3')), ['atlas-3']);
    assert.deepEqual(payloadChanges(chat('atlas-3'), found, deps())[0].update, {
      version: true,
      family: false,
      lifecycle: false,
    });
    assert.deepEqual(payloadChanges(chat('calm-2'), found, deps())[0].update?.lifecycle, true);
    assert.deepEqual(ids(chat('new-1')), ['new-1']);
    assert.deepEqual(ids(chat('old-1')), ['old-1']);
    // A field written under another name is no change.
    assert.deepEqual(ids(chat('bora-1')), []);
    assert.deepEqual(ids(chat('atlas-mini')), []);
    assert.deepEqual(ids(chat('never-listed')), []);
  });

  it('resolves the model as a run would: the environment’s variables and each dataset row', () => {
    assert.deepEqual(ids(chat('atlas-{{tier}}')), []);
    assert.deepEqual(ids(chat('{{pick}}')), ['atlas-3']);
    const rows = { 'rows.jsonl': '{"m":"atlas-mini"}\n{"m":"calm-2"}\n{"m":"atlas-3"}\n' };
    assert.deepEqual(ids(chat('{{m}}', ['// @each rows.jsonl']), rows), ['calm-2', 'atlas-3']);
  });

  it('follows // @env: a payload pinned to the changed environment (any case) is affected, one pinned elsewhere not', () => {
    assert.deepEqual(ids(chat('atlas-3', ['// @env staging'])), ['atlas-3']);
    assert.deepEqual(ids(`// @env Production\n${chat('atlas-3')}`), []);
    // No such environment to read variables from: not known to be affected.
    const none = { ...deps(), variables: () => undefined };
    assert.deepEqual(payloadChanges(chat('atlas-3'), found, none), []);
  });

  it('no model, a variable without a value, an unreadable dataset or file: not affected, and never a throw', () => {
    assert.deepEqual(ids(chat(undefined)), []);
    assert.deepEqual(ids(chat('{{nope}}')), []);
    assert.deepEqual(ids(chat('{{m}}', ['// @each missing.jsonl'])), []);
    assert.deepEqual(ids('// POST /v1/chat\n// @expect status 200\n{ "model": "atlas-3", '), []);
    assert.deepEqual(ids('not a payload at all'), []);
    assert.deepEqual(ids(''), []);
    assert.deepEqual(ids(chat(42)), []);
    const throwing = {
      ...deps(),
      readText: (): string => {
        throw new Error('disk gone');
      },
    };
    assert.deepEqual(payloadChanges(chat('{{m}}', ['// @each rows.jsonl']), found, throwing), []);
  });

  it('changedModels: the changes among known models in the payload’s order, none for unknown ones', () => {
    assert.deepEqual(
      changedModels({ models: ['atlas-mini', 'new-1', 'atlas-3'] }, found.changes).map((c) => c.id),
      ['new-1', 'atlas-3'],
    );
    assert.deepEqual(changedModels({ unknown: 'it names no model' }, found.changes), []);
  });
});
