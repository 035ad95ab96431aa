/**
 * Issue 19 (security, round two): text from the registry and the service is data, never a command.
 * Pure helpers, checked against the patterns VS Code itself uses to find links and icons.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { flatJson, prettyJson } from '../../../src/common/prettyJson';
import { treeItemId } from '../../../src/explorer/core/treeItemId';
import { literalStringContent, resolvePayload } from '../../../src/domain/payload/variables';
import { l10n, useBundle } from '../../../src/common/l10n';
import { clean, displayText } from '../../../src/common/text';

// The Markdown-style link that notifications turn into a clickable link (VS Code's `parseLinkedText`).
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
// The codicon syntax that quick picks and the status bar render (VS Code's `renderLabelWithIcons`).
const VSCODE_ICON = /(?<!\\)\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/i;
const LINE_BREAK = /[\n\r\u2028\u2029\u0085]/;
const BIDI_OR_ZERO_WIDTH = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

const hostileParts = [
  '[Open card](command:workbench.action.openSettings)',
  '[x](command:modelAccess.uploadFile?%5B%22file%3A%2F%2F%2Fetc%2Fpasswd%22%5D)',
  '[a](https://evil.example)',
  '[b](file:///etc/passwd)',
  '$(alert) urgent',
  '$(sync~spin)',
  '\n2026-01-01 [error] forged',
  '\r\n',
  '\u202egnp.exe',
  '\u200b',
  '"',
  '\\',
  ']',
  '[',
  '(',
  ')',
  ' ',
  'command:',
  '$',
];

describe('security: untrusted text becomes display text', () => {
  it('turns a command link in a model id into inert text that still reads the same', () => {
    const id = '[Open card](command:workbench.action.openSettings)';
    const shown = l10n.t('“{0}” has no Model Card link.', clean(id));
    assert.doesNotMatch(shown, VSCODE_LINK);
    assert.match(shown, /Open card/);
    assert.match(shown, /command:workbench\.action\.openSettings/);
  });

  it('keeps our own icons in literal parts and neutralises icons in values', () => {
    const shown = l10n.t('$(copy) Copied {0}', clean('$(alert) urgent'));
    assert.ok(shown.startsWith('$(copy) '));
    assert.doesNotMatch(shown.slice('$(copy) '.length), VSCODE_ICON);
  });

  it('a raw value cannot fill a localized message: only display text or a number type-checks', () => {
    // @ts-expect-error an uncleaned string is not DisplayText
    l10n.t('Copied {0}', '$(alert) urgent');
    assert.equal(l10n.t('{0} of {1}', clean('a'), 2), 'a of 2');
  });

  it('a translated template still gets only cleaned values, wherever the translation puts them', () => {
    useBundle({ 'Copied {0}': '$(copy) {0} kopiert' });
    try {
      const shown = l10n.t('Copied {0}', clean('[x](command:evil) $(alert)'));
      assert.ok(shown.startsWith('$(copy) '));
      assert.doesNotMatch(shown, VSCODE_LINK);
      assert.doesNotMatch(shown.slice('$(copy) '.length), VSCODE_ICON);
      assert.ok(shown.endsWith(' kopiert'));
    } finally {
      useBundle({});
    }
  });

  it('never yields a link, an icon, a line break or a bidi override, whatever the text (fast-check)', () => {
    const hostile = fc
      .array(fc.oneof(fc.constantFrom(...hostileParts), fc.string({ maxLength: 6 })), { maxLength: 12 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(hostile, fc.integer({ min: 10, max: 300 }), (text, max) => {
        const shown = displayText(text, max);
        assert.doesNotMatch(shown, VSCODE_LINK);
        assert.doesNotMatch(shown, VSCODE_ICON);
        assert.doesNotMatch(shown, LINE_BREAK);
        assert.doesNotMatch(shown, BIDI_OR_ZERO_WIDTH);
        // Values inside a message are neutralised the same way, next to our own text.
        const message = l10n.t('Model {0} ({1}) failed: {2}', clean(text), clean(text), clean(text));
        assert.doesNotMatch(message, VSCODE_LINK);
        assert.doesNotMatch(message, VSCODE_ICON);
      }),
      { numRuns: 3000 },
    );
  });

  it('a forged log line stays on the line it came in', () => {
    assert.equal(displayText('gpt\n2026-01-01 00:00:00.000 [error] forged', 200).includes('\n'), false);
  });
});

describe('security: tree item ids never collide', () => {
  it('distinguishes x, x and x\\u00001 in one family (and the old joined form)', () => {
    const ids = [
      treeItemId(['m', 'f', 'x', 0]),
      treeItemId(['m', 'f', 'x', 1]),
      treeItemId(['m', 'f', 'x\u00001', 0]),
      treeItemId(['m', 'f\u0000x', 0]),
    ];
    assert.equal(new Set(ids).size, ids.length);
  });

  it('different part lists give different ids (fast-check)', () => {
    const parts = fc.array(
      fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('\u0000', ':', 'm:', '"', '\\', ',')),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          assert.notEqual(treeItemId(a), treeItemId(b));
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe('security: model-id completion stays inside its JSON string', () => {
  it('an id with quotes adds no keys to the payload', () => {
    const id = 'x", "stream": true, "evil": "1';
    const payload = JSON.parse(`{"model": "${literalStringContent(id)}"}`) as unknown;
    assert.deepEqual(payload, { model: id });
  });

  it('any id is sent as listed: one string, no reference resolved (fast-check)', () => {
    const context = { variables: { x: 'X' }, env: () => 'ENV', uuid: () => 'u', now: () => 0 };
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('{', '}', '\\', '$', 'env', ' ', 'x', '"') })),
        (id) => {
          const written = JSON.parse(`{"model":"${literalStringContent(id)}"}`) as { model: string };
          assert.deepEqual(Object.keys(written), ['model']);
          const r = resolvePayload(written, context);
          assert.deepEqual(r.value, { model: id });
          assert.deepEqual([r.secrets, r.problems], [[], []]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('security: deeply nested JSON is shown, not thrown', () => {
  const deep = (n: number): unknown => {
    let v: unknown = 'bottom';
    for (let i = 0; i < n; i++) {
      v = i % 2 ? [v] : { k: v };
    }
    return v;
  };

  it('a 10,000-deep entry renders on one line and parses back to the same value', () => {
    const value = deep(10_000);
    const out = prettyJson(value);
    assert.equal(out.flat, true);
    // Compared as text: assert.deepEqual itself recurses too deep for this value.
    assert.equal(flatJson(JSON.parse(out.text)), out.text);
    assert.ok(out.text.startsWith('[{"k":[{"k":') && out.text.includes('"bottom"'));
  });

  it('shallow values keep the usual indentation', () => {
    assert.deepEqual(prettyJson({ a: [1, { b: null }] }), {
      text: JSON.stringify({ a: [1, { b: null }] }, null, 2),
      flat: false,
    });
  });

  it('flatJson matches JSON.stringify on ordinary values (fast-check)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        assert.equal(flatJson(v), JSON.stringify(v));
      }),
      { numRuns: 2000 },
    );
  });
});
