// Layers that only point down (docs/ARCHITECTURE.md): `npm run lint` refuses an upward or feature-to-feature
// import, and the real tree has no import circle (type imports and lazy requires included).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');

/** The messages ESLint reports for `code` as if it were the file `file` (relative to the repository). */
async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => `${m.ruleId ?? ''}: ${m.message}`);
}

const LAYER_RULE = '@typescript-eslint/no-restricted-imports';

describe('layers: lint refuses imports that point up or across', function () {
  // ESLint loads the TypeScript parser once per instance: slow on a busy machine.
  this.timeout(120_000);

  const refused: [string, string, string][] = [
    ['common → api', 'src/common/zzLayerProbe.ts', "import { normalizeInto } from '../api/models';"],
    ['api → domain', 'src/api/zzLayerProbe.ts', "import { describeFailure } from '../domain/failure';"],
    ['domain → platform', 'src/domain/zzLayerProbe.ts', "import type { Config } from '../platform/config';"],
    [
      'domain/payload → platform',
      'src/domain/payload/zzLayerProbe.ts',
      "import { createUi } from '../../platform/ui';",
    ],
    ['platform → a feature’s core', 'src/platform/zzLayerProbe.ts', "import { cardUrl } from '../explorer/core/x';"],
    ['platform → services', 'src/platform/zzLayerProbe.ts', "import type { Services } from '../services';"],
    ['services → a feature', 'src/services.ts', "import type { ModelsView } from './explorer/modelsView';"],
    ['a feature → the test API', 'src/setup/zzLayerProbe.ts', "import type { ModelAccessApi } from '../testApi';"],
  ];
  for (const [what, file, code] of refused) {
    it(`an upward import fails lint: ${what}`, async () => {
      // Linted as text: no file is written (services.ts is linted as if this were its text).
      const messages = await lint(file, `${code}\nexport const probe = 1;\n`);
      assert.ok(
        messages.some((m) => m.startsWith(LAYER_RULE) && m.includes('Imports point down')),
        `${what}: ${messages.join('; ') || 'nothing reported'}`,
      );
    });
  }

  it('a feature-to-feature import fails lint, from a feature module and from a core/', async () => {
    for (const [file, code] of [
      ['src/requests/zzLayerProbe.ts', "import { modelCard } from '../explorer/modelCard';"],
      ['src/chat/core/zzLayerProbe.ts', "import type { X } from '../../requests/payloads/core/templates';"],
      ['src/explorer/zzLayerProbe.ts', "import { canChat } from '../chat/core/modelInfo';"],
    ]) {
      const messages = await lint(file, `${code}\nexport const probe = 1;\n`);
      assert.ok(
        messages.some((m) => m.startsWith(LAYER_RULE) && m.includes('a feature never imports another')),
        `${file}: ${messages.join('; ') || 'nothing reported'}`,
      );
    }
  });

  it('imports that point down pass: a feature uses domain, platform, services and its own core/', async () => {
    const messages = await lint(
      'src/requests/zzLayerProbe.ts',
      [
        "import { environmentFromArg } from '../domain/commandArgs';",
        "import { readEndpoint } from '../domain/payload/endpointHeader';",
        "import type { Ui } from '../platform/ui';",
        "import type { Services } from '../services';",
        "import { parseCurl } from './code/core/curlImport';",
        "import { clean } from '../common/text';",
        'export const probe = [environmentFromArg, readEndpoint, parseCurl, clean] as const;',
        'export type Probe = [Ui, Services];',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      messages.filter((m) => m.startsWith(LAYER_RULE)),
      [],
    );
  });

  it('a room’s core/ inside a feature (src/requests/send/core/) is pure like a feature’s core/', async () => {
    const file = 'src/requests/send/core/zzLayerProbe.ts';
    for (const [what, code, expected] of [
      ['vscode', "import * as vscode from 'vscode';", 'VS Code API'],
      [
        'its room’s vscode-bound module',
        "import { RequestSender } from '../send';",
        'A core/ folder imports only pure',
      ],
      [
        'another room’s vscode-bound module',
        "import { Conversations } from '../../conversation/conversation';",
        'A core/',
      ],
      ['platform', "import { createUi } from '../../../platform/ui';", 'A core/'],
      [
        'another feature, even as a type',
        "import type { X } from '../../../chat/provider';",
        'a feature never imports another',
      ],
    ]) {
      const messages = await lint(file, `${code}\nexport const probe = 1;\n`);
      assert.ok(
        messages.some((m) => m.startsWith(LAYER_RULE) && m.includes(expected)),
        `${what}: ${messages.join('; ') || 'nothing reported'}`,
      );
    }
    const allowed = await lint(
      file,
      [
        "import type { ExchangeProgress } from '../exchange';",
        "import { readConversation } from '../../conversation/core/turns';",
        "import { clean } from '../../../common/text';",
        "import { parsePayload } from '../../../domain/payload/parse';",
        'export const probe = [readConversation, clean, parsePayload] as const;',
        'export type Probe = ExchangeProgress;',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      allowed.filter((m) => m.startsWith(LAYER_RULE)),
      [],
    );
  });

  it('the command line (src/cli) uses pure code only: the floors and the features’ core/, never vscode-bound code', async () => {
    for (const code of [
      "import * as vscode from 'vscode';",
      "import { ChecksSettings } from '../checks/settings';",
      "import type { Config } from '../platform/config';",
      "import type { Services } from '../services';",
    ]) {
      const messages = await lint('src/cli/zzLayerProbe.ts', `${code}\nexport const probe = 1;\n`);
      assert.ok(
        messages.some((m) => m.startsWith(LAYER_RULE)),
        `${code}: ${messages.join('; ') || 'nothing reported'}`,
      );
    }
    const allowed = await lint(
      'src/cli/zzLayerProbe.ts',
      [
        "import { ServiceClient } from '../api/client';",
        "import { readEnvironments } from '../domain/environments';",
        "import { runCheckFile } from '../checks/core/fileRun';",
        'export const probe = [ServiceClient, readEnvironments, runCheckFile] as const;',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      allowed.filter((m) => m.startsWith(LAYER_RULE)),
      [],
    );
    // And nothing imports the command line.
    const up = await lint(
      'src/checks/core/zzLayerProbe.ts',
      "import { main } from '../../cli/check';\nexport const p = main;\n",
    );
    assert.ok(
      up.some((m) => m.startsWith(LAYER_RULE)),
      up.join('; '),
    );
  });

  it('the domain stays free of vscode', async () => {
    const messages = await lint(
      'src/domain/zzLayerProbe.ts',
      "import * as vscode from 'vscode';\nexport const v = vscode;\n",
    );
    assert.ok(
      messages.some((m) => m.startsWith(LAYER_RULE) && m.includes('VS Code API')),
      messages.join('; '),
    );
  });
});

/** Every `.ts` module under `dir`. */
function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? modules(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The module a relative specifier names, or undefined (a package, JSON, a file outside src/). */
function resolveModule(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) {
    return undefined;
  }
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((p) => existsSync(p));
}

/** Module → the modules it imports: imports, re-exports, type imports, `require(…)` and `import(…)`. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const found = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    graph.set(
      file,
      found.map((f) => resolveModule(file, f.fileName)).filter((p): p is string => p !== undefined),
    );
  }
  return graph;
}

/** The import circles of `graph`, each as the path that closes it. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        found.push([...stack.slice(stack.indexOf(next)), next]);
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      visit(node);
    }
  }
  return found;
}

describe('layers: no import circle', () => {
  it('finds a circle when there is one (type imports count)', () => {
    const graph = new Map([
      ['services', ['platform']],
      ['platform', ['domain']],
      ['domain', ['services']],
      ['extension', ['services']],
    ]);
    assert.deepEqual(circles(graph), [['services', 'platform', 'domain', 'services']]);
    assert.deepEqual(
      circles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
      [],
    );
  });

  it('the real tree has none', () => {
    const graph = importGraph(modules(SRC));
    const edges = [...graph.values()].reduce((n, to) => n + to.length, 0);
    // Every module's imports were read: a parser that found nothing would find no circle either.
    assert.ok(graph.size > 100 && edges > 400, `${graph.size} modules, ${edges} imports`);
    const rel = (p: string) => path.relative(ROOT, p);
    assert.deepEqual(
      circles(graph).map((c) => c.map(rel).join(' → ')),
      [],
    );
  });
});
