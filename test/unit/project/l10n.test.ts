// Localization: the manifest's visible strings come from package.nls.json, every message in src/ is in the
// bundle the build extracts (scripts/l10n.mjs), the lint rules catch text that bypasses l10n.t, and a
// pseudo-localized bundle reaches the pure modules' messages.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { ESLint } from 'eslint';
import { httpError, networkError } from '../../../src/api/errors';
import { classifyChatError } from '../../../src/chat/core/errors';
import { modelCount } from '../../../src/common/counts';
import { describeFailure } from '../../../src/domain/failure';
import { KeyMessages } from '../../../src/domain/keyMessages';
import { checkCardLink } from '../../../src/api/linkSafety';
import { describeEntry } from '../../../src/requests/send/core/historyEntries';
import { headerLine } from '../../../src/requests/answers/core/responseFormat';
import { l10n as displayL10n, useBundle } from '../../../src/common/l10n';
import { clean } from '../../../src/common/text';
import type { Ui } from '../../../src/platform/ui';
import { readNls, REPO_ROOT } from '../../harness/manifest';

const ROOT = REPO_ROOT;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = readNls();

/** Manifest fields people read (in the palette, settings, views, welcome content, walkthrough, extension page). */
const VISIBLE = new Set([
  'title',
  'category',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'name',
  'contextualTitle',
  'contents',
  'altText',
  'displayName',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
]);

/** [json path, string] of every visible string under `value`. */
function visibleStrings(value: unknown, at: string, visible = false): [string, string][] {
  if (typeof value === 'string') {
    return visible ? [[at, value]] : [];
  }
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => visibleStrings(v, `${at}[${i}]`, visible));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .filter(([k]) => !modelFacing(at, k))
      .flatMap(([k, v]) => visibleStrings(v, `${at}.${k}`, VISIBLE.has(k)));
  }
  return [];
}

/**
 * A language model tool's id and input schema are read by language models, not people (like its
 * modelDescription): English, kept equal to the MCP server's (test/unit/project/agentTools.test.ts).
 */
function modelFacing(at: string, key: string): boolean {
  return /\.languageModelTools\[\d+\]$/.test(at) && (key === 'name' || key === 'inputSchema');
}

/** The extraction `npm run l10n` does (a few seconds: made once for all tests here). */
let extraction: Promise<Record<string, unknown>> | undefined;
const extracted = () => (extraction ??= import('../../../scripts/l10n.mjs').then((m) => m.extract(ROOT)));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

describe('localization', () => {
  describe('manifest (package.json + package.nls.json)', () => {
    const shown = [
      ...visibleStrings(pkg.contributes, 'contributes'),
      ...visibleStrings(pkg.capabilities, 'capabilities'),
    ];

    it('finds the visible strings it checks (commands, settings, views, welcome, walkthrough, capabilities)', () => {
      const where = new Set(shown.map(([at]) => at.split(/[.[]/)[1]));
      for (const part of [
        'commands',
        'configuration',
        'views',
        'viewsWelcome',
        'walkthroughs',
        'untrustedWorkspaces',
      ]) {
        assert.ok(where.has(part), `no visible strings found under ${part}`);
      }
    });

    it('every visible string is a %key% placeholder', () => {
      const plain = shown.filter(([, s]) => !/^%[^%\s]+%$/.test(s)).map(([at, s]) => `${at}: ${s.slice(0, 60)}`);
      assert.deepEqual(plain, [], 'move these strings into package.nls.json and use %key% in package.json');
    });

    it('every %key% exists in package.nls.json, and package.nls.json has no unused key', () => {
      const used = new Set([...JSON.stringify(pkg).matchAll(/"%([^%"\s]+)%"/g)].map((m) => m[1]));
      const missing = [...used].filter((k) => !(k in nls));
      const unused = Object.keys(nls).filter((k) => !used.has(k));
      assert.deepEqual(missing, [], 'keys used in package.json but missing from package.nls.json');
      assert.deepEqual(unused, [], 'keys in package.nls.json that package.json does not use');
      for (const [key, text] of Object.entries(nls)) {
        assert.ok(typeof text === 'string' && text.trim() !== '', `${key} is empty`);
      }
    });

    it('points VS Code at l10n/ and ships the manifest strings and the translations in the VSIX', () => {
      assert.equal(pkg.l10n, './l10n');
      const shipped = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n');
      assert.ok(shipped.includes('!package.nls.json'), '.vscodeignore must let package.nls.json in');
      // VS Code reads l10n/bundle.l10n.<language>.json, and nothing for English: the source bundle stays out.
      assert.ok(shipped.includes('!l10n/bundle.l10n.*.json'), '.vscodeignore must let the translations in');
      assert.ok(!shipped.includes('!l10n/bundle.l10n.json'), 'the English source bundle is never read');
      const scripts = pkg.scripts as Record<string, string>;
      assert.match(scripts.package, /npm run l10n && .*vsce package/, 'npm run package makes the bundle first');
      assert.match(scripts.build, /npm run l10n/, 'npm run build makes the bundle');
    });
  });

  describe('messages in src/', () => {
    /** The literal message of every `l10n.t(…)` call, read with a plain scan (independent of l10n-dev). */
    const calls: { file: string; message?: string }[] = [];
    // The wrappers themselves call the runtime's t with a variable.
    const wrappers = ['src/common/l10n.ts', 'src/common/plainL10n.ts', 'src/platform/l10n.ts'];
    for (const file of sources(path.join(ROOT, 'src')).filter((f) => !wrappers.includes(path.relative(ROOT, f)))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")?/g)) {
        calls.push({
          file: path.relative(ROOT, file),
          message: m[1] === undefined ? undefined : (new Function(`return ${m[1]};`)() as string),
        });
      }
    }

    it('every l10n.t call has a string literal as its message', () => {
      assert.ok(calls.length > 200, `only ${calls.length} l10n.t calls found`);
      assert.deepEqual(
        calls.filter((c) => c.message === undefined).map((c) => c.file),
        [],
        'l10n.t needs a literal first argument, or the bundle misses the message',
      );
    });

    it('the bundle extracted by @vscode/l10n-dev (scripts/l10n.mjs) holds exactly the messages of src/', async function () {
      // Extraction parses all of src/ with TypeScript: over a minute when the setup runs beside it on two cores.
      this.timeout(180_000);
      const inBundle = new Set(Object.keys(await extracted()));
      const found = new Set(calls.map((c) => c.message as string));
      const missed = [...found].filter((m) => !inBundle.has(m));
      const extra = [...inBundle].filter((m) => !found.has(m));
      assert.deepEqual(missed, [], 'messages in src/ that the extraction does not see (not in the bundle)');
      assert.deepEqual(extra, [], 'messages extracted that the scan does not see');
    });

    it('with a pseudo-localized bundle, the texts of the pure modules are translated', async function () {
      this.timeout(60000);
      const pseudo = getL10nPseudoLocalized(
        (await extracted()) as Parameters<typeof getL10nPseudoLocalized>[0],
      ) as Record<string, string>;
      const kinds = ['unauthorized', 'network', 'timeout', 'config', 'insecure', 'aborted', 'invalidResponse', 'x'];
      const texts: Record<string, () => string> = {
        ...Object.fromEntries(kinds.map((kind) => [`failure ${kind}`, () => describeFailure({ kind }).message])),
        'failure 403': () => describeFailure({ kind: 'unauthorized', status: 403 }).message,
        'failure 500 with a request id': () => describeFailure({ kind: 'http', status: 500, requestId: 'r1' }).message,
        'failure detail': () =>
          describeFailure({ kind: 'http', status: 500, serverMessage: 'x', requestId: 'r' }).detail,
        'refused connection': () => networkError({ code: 'ECONNREFUSED' }, 'https://h', 'connect').message,
        'HTTP error': () => httpError({ status: 502, headers: {}, body: '', host: 'https://h' }).message,
        'card link refused': () => {
          const check = checkCardLink('javascript:alert(1)');
          return check.ok ? '' : check.reason;
        },
        'chat error 404': () => classifyChatError({ status: 404, message: 'x' }).message.slice(2),
        'key saved': () => KeyMessages.keySaved('https://h', 2),
        'response header': () => headerLine({ method: 'POST', endpoint: '/v1/chat', startedAt: 0, cancelled: true }),
        'history entry': () => describeEntry({ endpoint: '/v1/chat', at: '', payload: '', summary: '', id: '1' }),
        'model count': () => modelCount(3),
      };
      const english = Object.fromEntries(Object.entries(texts).map(([what, text]) => [what, text()]));
      useBundle(pseudo);
      try {
        for (const [what, text] of Object.entries(texts)) {
          const shown = text();
          assert.notEqual(shown, english[what], `${what}: “${shown}” is not localized`);
          assert.doesNotMatch(
            shown,
            /\b(the|service|was|is|not|answer|model|cancelled)\b/i,
            `${what}: “${shown}” has English left`,
          );
        }
      } finally {
        useBundle({});
      }
    });
  });

  describe('guards', () => {
    it('ESLint rejects text that bypasses l10n.t (src/ rules in eslint.config.mjs)', async function () {
      this.timeout(60000);
      const eslint = new ESLint({ cwd: ROOT });
      const bad: Record<string, string> = {
        'a computed message (not extracted)':
          "import { l10n } from '../platform/l10n';\nconst m = 'x';\nexport const a = l10n.t(m);\n",
        'an English literal made display text':
          "import { displayText } from '../common/text';\nexport const a = displayText('Hello there');\n",
        'an English template made display text':
          "import { clean } from '../common/text';\nexport const a = clean(`Hello there`);\n",
        'a literal cast to DisplayText':
          "import type { DisplayText } from '../common/text';\nexport const a = 'Hello' as DisplayText;\n",
        'a literal title': "export const options = { title: 'Filter Models' };\n",
        'a literal tooltip': "export function f(o: { tooltip?: string }) {\n  o.tooltip = 'Hello';\n}\n",
        'vscode.l10n without the typed wrapper':
          "import * as vscode from 'vscode';\nexport const a = vscode.l10n.t('Hello');\n",
        '@vscode/l10n without the typed wrapper':
          "import * as l10n from '@vscode/l10n';\nexport const a = l10n.t('Hello');\n",
      };
      for (const [what, code] of Object.entries(bad)) {
        const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, 'src/explorer/probe.ts') });
        assert.ok(
          result.messages.some((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports'),
          `not flagged: ${what}`,
        );
      }
      const good =
        "import { l10n } from '../platform/l10n';\nimport { clean } from '../common/text';\nexport const a = l10n.t('Hi {0}', clean('x'));\n";
      const [ok] = await eslint.lintText(good, { filePath: path.join(ROOT, 'src/explorer/probe.ts') });
      assert.deepEqual(ok.messages, []);
    });

    it('the types refuse English literals in the Ui and raw values in messages (checked by tsc)', () => {
      const ui = {} as Ui;
      const neverRun = (): void => {
        // @ts-expect-error a notification takes display text, not an English literal
        void ui.info('Plain English');
        // @ts-expect-error a button label is display text too
        void ui.warn(displayL10n.t('Saved.'), 'Open Settings');
        // @ts-expect-error a picker title is display text
        void ui.pick([], { title: 'Pick one' });
        // @ts-expect-error an uncleaned value cannot fill a placeholder
        void displayL10n.t('Uploaded {0}', 'file.txt');
        void ui.info(displayL10n.t('Uploaded {0}', clean('file.txt')));
      };
      assert.equal(typeof neverRun, 'function');
    });
  });
});
