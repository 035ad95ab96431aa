import * as assert from 'node:assert/strict';
import { normalizeModel } from '../../../../src/api/models';
import type { ModelEntry } from '../../../../src/api/types';
import { changeCount, changesSummary, compareLists } from '../../../../src/domain/registry/changes';
import { changeMark, changesPage } from '../../../../src/domain/registry/changeText';
import type { DisplayText } from '../../../../src/common/text';

const m = (raw: Record<string, unknown>): ModelEntry => normalizeModel(raw) as ModelEntry;
const NOW = Date.UTC(2026, 10, 27);

describe('compareLists', () => {
  const before = [
    m({ id: 'atlas-3', family: 'atlas', version: '3', model_card_url: 'https://cards.example/atlas-3' }),
    m({ id: 'atlas-latest', family: 'atlas', version: '2' }),
    m({ id: 'lynx-1', family: 'lynx', version: '1' }),
    m({ id: 'solo', version: '1' }),
  ];
  const after = [
    m({ id: 'atlas-4', family: 'atlas', version: '4' }),
    m({ id: 'atlas-latest', family: 'atlas', version: '3' }),
    m({
      id: 'lynx-1',
      family: 'lynx',
      version: '1',
      lifecycle_status: 'deprecated',
      replacement: 'lynx-2',
      retirement_date: '2027-01-31',
    }),
    m({ id: 'solo', family: 'lynx', version: '1' }),
  ];
  const changes = compareLists(before, after);

  it('finds the added, gone, new version, lifecycle news and a family move, each once', () => {
    assert.deepEqual(
      changes.added.map((c) => c.id),
      ['atlas-4'],
    );
    assert.deepEqual(
      changes.gone.map((c) => c.id),
      ['atlas-3'],
    );
    assert.deepEqual(
      changes.updated.map((c) => [c.id, c.update]),
      [
        ['atlas-latest', { version: true, family: false, lifecycle: false }],
        ['lynx-1', { version: false, family: false, lifecycle: true }],
        ['solo', { version: false, family: true, lifecycle: false }],
      ],
    );
    assert.equal(changeCount(changes), 5);
    assert.deepEqual(changes.familiesWithNewMembers.sort(), ['atlas', 'lynx']);
  });

  it('says each change in a few words', () => {
    const marks = [...changes.byId.values()].map((c) => [c.id, changeMark(c, NOW)]);
    assert.deepEqual(marks, [
      ['atlas-4', 'new'],
      ['atlas-latest', 'version 2 → 3'],
      ['lynx-1', 'now retires 2027-01-31 · status “deprecated” · replaced by lynx-2'],
      ['solo', 'moved from Other'],
      ['atlas-3', 'gone'],
    ]);
  });

  it('summarizes with the day the list was seen', () => {
    assert.equal(
      changesSummary(changes, Date.UTC(2026, 10, 25, 12), NOW, 'en-GB'),
      '1 new · 3 updated · 1 gone since 25 Nov',
    );
  });

  it('lists the changes by family, with versions, lifecycle and card links', () => {
    const page = changesPage(changes, Date.UTC(2026, 10, 25, 12), NOW, 'Model registry changes' as DisplayText);
    assert.match(page, /^Model registry changes\n/);
    const atlas = page.indexOf('Family atlas');
    const lynx = page.indexOf('Family lynx');
    assert.ok(atlas > 0 && lynx > atlas, page);
    assert.match(page, /atlas-3 — gone\n {4}last seen: version 3\n {6}Model Card: https:\/\/cards\.example\/atlas-3/);
    assert.match(page, /atlas-latest — version 2 → 3\n {4}before: version 2\n {4}now: version 3/);
    assert.match(page, /Lifecycle: retires 2027-01-31 · status “deprecated” · replaced by lynx-2/);
  });

  it('shows registry text as text on the page', () => {
    const hostile = [m({ id: 'x\n[run](command:evil)', family: '$(alert)', version: '1' })];
    const page = changesPage(compareLists([], hostile), NOW, NOW, 'T' as DisplayText);
    assert.doesNotMatch(page, /\]\(command/);
    assert.doesNotMatch(page, /\$\(alert/);
    assert.doesNotMatch(page, /x\n\[run/);
  });

  it('computes nothing for empty lists', () => {
    assert.equal(changeCount(compareLists([], [])), 0);
  });
});
