import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * The floors of src/, bottom first: each may import only its own floor and those below it (docs/ARCHITECTURE.md
 * draws them). The features — every other folder of src/ — stand on `services` and never import each other.
 */
const LAYERS = ['ids', 'common', 'api', 'domain', 'platform', 'services'];
/**
 * Above the features, and imported by none of them: the test API's types, the composition root (which may import
 * anything) and the command line (which imports pure code only: cliZone).
 */
const TOP = ['testApi', 'extension', 'cli'];
/** The command line (`model-access check`): a second entry point, standing on pure code only (cliZone). */
const CLI = TOP[2];
const FEATURES = readdirSync(new URL('./src/', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !LAYERS.includes(e.name) && e.name !== CLI)
  .map((e) => e.name)
  .sort();
/** The folders of src/ whose modules never import `vscode`: the bottom three floors and every feature's core/. */
const PURE = ['common', 'api', 'domain'];

/**
 * What a core/ folder `depth` folders below src/ may import as types only: its feature's vscode-bound modules
 * (any module of the feature reached without passing through a core/ folder), platform/ and services. It must
 * not overlap the layer rule (an import matching an `allowTypeImports` pattern is let through as a type whatever
 * else it matches), so it never reaches above the feature's own folder.
 */
const vscodeBound = (depth) =>
  `^(\\.\\./){1,${depth - 1}}(?!([^/]*/)*core(/|$))[^.]|^(\\.\\./){${depth}}(platform|services)(/|$)`;

/**
 * The files `depth` folders below src/ in `top` that stand in a core/ folder (a feature's core/, or a room's:
 * src/requests/send/core/…).
 */
function coreFiles(top, depth) {
  return Array.from({ length: depth - 1 }, (_, at) =>
    ['src', top, ...Array.from({ length: depth - 1 }, (_, i) => (i === at ? 'core' : '*')), '*.ts'].join('/'),
  );
}

/** An import specifier, written from `depth` folders below src/, that names one of `names` (a folder or a module). */
const naming = (names, depth) => `^${depth === 0 ? '\\./' : `(\\.\\./){${depth}}`}(${names.join('|')})(/|$)`;

/** What a module of `top` (a floor or a feature) may not import: the floors above it and the other features. */
function above(top) {
  if (top === 'testApi') {
    return ['extension'];
  }
  const floor = LAYERS.indexOf(top);
  if (floor >= 0) {
    return [...LAYERS.slice(floor + 1), ...FEATURES, ...TOP];
  }
  return [...FEATURES.filter((f) => f !== top), ...TOP];
}

const VSCODE_PATH = {
  name: 'vscode',
  message: 'Pure folders must not depend on the VS Code API; pass what you need in.',
};

/**
 * One `no-restricted-imports` for the modules `depth` folders below src/ in `top`: nothing from above (types
 * included: a type import closes a circle as well as a value import); in pure folders no `vscode`, and from a
 * core/ nothing vscode-bound but types. (The pure floors need no more: everything vscode-bound is above them.)
 */
function zone(top, depth, { pure = false, core = false } = {}) {
  const files =
    depth === 0 ? [`src/${top}.ts`] : core ? coreFiles(top, depth) : [`src/${top}/${'*/'.repeat(depth - 1)}*.ts`];
  const patterns = [
    {
      regex: naming(above(top), depth),
      message: `Imports point down (ids → common → api → domain → platform → services → features), and a feature never imports another: ${top} may not import this. See docs/ARCHITECTURE.md.`,
    },
  ];
  if (pure && core) {
    patterns.push({
      regex: vscodeBound(depth),
      allowTypeImports: true,
      message: 'A core/ folder imports only pure folders (types excepted).',
    });
  }
  return {
    files,
    ...(core ? {} : { ignores: FEATURES.map((f) => `src/${f}/**/core/**`) }),
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: pure ? [VSCODE_PATH] : [], patterns }],
    },
  };
}

/**
 * src/cli/: the command line, built into dist/cli.js apart from the extension. Like extension.ts it stands above
 * everything, but it runs without VS Code: it may import the pure floors (ids, common, api, domain) and the
 * features' core/ folders, never `vscode`, platform/, services, a feature's vscode-bound modules or the top.
 */
function cliZone() {
  return {
    files: [`src/${CLI}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [VSCODE_PATH],
          patterns: [
            {
              regex: `^\\.\\./(platform|services|${TOP.filter((t) => t !== CLI).join('|')})(/|$)|^\\.\\./(${FEATURES.join('|')})/(?!([^/]+/)*core/)`,
              message:
                "The command line runs without VS Code: it imports only ids, common, api, domain and the features' core/. See docs/ARCHITECTURE.md.",
            },
          ],
        },
      ],
    },
  };
}

/** The lint zones: every floor and feature at every depth of src/ (folders nest at most a few levels). */
function layerZones() {
  const depths = [1, 2, 3, 4, 5];
  return [
    ...['ids', 'services', 'testApi'].map((top) => zone(top, 0)),
    ...LAYERS.filter((l) => l !== 'ids' && l !== 'services').flatMap((top) =>
      depths.map((d) => zone(top, d, { pure: PURE.includes(top) })),
    ),
    ...FEATURES.flatMap((top) => depths.map((d) => zone(top, d))),
    // A feature's core/ (and a room's core/ inside a feature) is pure, with its feature's rules besides.
    ...FEATURES.flatMap((top) => depths.slice(1).map((d) => zone(top, d, { pure: true, core: true }))),
    cliZone(),
  ];
}

/** Words: a literal that people would read, as opposed to an id, a separator or a symbol. */
const WORDS = '/[A-Za-z]{2}/';

/** What keeps shown text localized and untrusted values inert (the block for all of src/ below). */
const SHOWN_TEXT_RULES = [
  {
    selector: 'MemberExpression[property.name=/^(show(Information|Warning|Error)Message|setStatusBarMessage)$/]',
    message:
      'Show messages through the Ui in src/platform/ui.ts (ui.info/warn/error/ask, flash): they take only DisplayText.',
  },
  {
    selector: "CallExpression[callee.object.name='l10n'][callee.property.name='t'][arguments.0.type!='Literal']",
    message:
      'The message of l10n.t must be a string literal: scripts/l10n.mjs extracts it into l10n/bundle.l10n.json. Values go in {0}, {1}… arguments.',
  },
  {
    selector: `CallExpression[callee.name=/^(displayText|clean)$/][arguments.0.type='Literal'][arguments.0.value=${WORDS}]`,
    message: "Text for people is localized: l10n.t('…') instead of displayText/clean on an English literal.",
  },
  {
    selector: `CallExpression[callee.name=/^(displayText|clean)$/][arguments.0.type='TemplateLiteral'][arguments.0.expressions.length=0]`,
    message: "Text for people is localized: l10n.t('…') instead of displayText/clean on an English literal.",
  },
  {
    selector: `TSAsExpression[typeAnnotation.typeName.name='DisplayText'][expression.type='Literal'][expression.value=${WORDS}]`,
    message: "Text for people is localized: l10n.t('…') instead of casting a literal to DisplayText.",
  },
  {
    selector: `Property[key.name=/^(title|placeHolder|prompt|tooltip|label|description|detail|message|saveLabel|openLabel|validationMessage)$/][value.type='Literal'][value.value=${WORDS}]`,
    message: "A visible text (title, label, tooltip, message…) is localized: l10n.t('…').",
  },
  {
    selector: `AssignmentExpression[left.property.name=/^(title|tooltip|description|message|text|label|error)$/][right.type='Literal'][right.value=${WORDS}]`,
    message: "A visible text (title, label, tooltip, message…) is localized: l10n.t('…').",
  },
];

/**
 * Code loaded on first use goes through one helper (src/common/onFirstUse.ts): a `require()` anywhere else in
 * src/ is refused, so each piece of deferred code is found by that name and none is loaded twice by hand.
 */
const LAZY_REQUIRE_RULE = {
  selector:
    "CallExpression[callee.name='require']:not(CallExpression[callee.name='onFirstUse'] > ArrowFunctionExpression *)",
  message:
    "Code loaded on first use: onFirstUse(() => require('./x') as typeof import('./x')) (src/common/onFirstUse.ts); otherwise import it.",
};

/** vscode.l10n only behind the typed wrapper, whose arguments must be display text. */
const VSCODE_L10N_RULE = {
  selector: "MemberExpression[object.name='vscode'][property.name='l10n']",
  message: 'Use l10n from src/platform/l10n.ts: its l10n.t takes only DisplayText or numbers as values.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test-results/**',
      '*.vsix',
      'bench/results/**',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  ...tseslint.configs.recommended,
  // Layout is Prettier's (`npm run format`); ESLint keeps to code rules.
  prettier,
  {
    files: ['**/*.ts', '**/*.mts'],
    rules: {
      curly: 'error',
      eqeqeq: ['error', 'always'],
      'no-throw-literal': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers that only point down, each a lint zone. Pure folders — the shared helpers, the client, the domain
  // and each feature's core/ — stay testable by plain mocha: no VS Code API in them, and nothing from the
  // vscode-bound modules but types.
  ...layerZones(),
  {
    // Notifications run `[x](command:…)` links and the status bar renders `$(icon)`: every message goes
    // through src/platform/ui.ts, whose functions take only DisplayText (made by displayText/clean in
    // src/common/text.ts, or by the typed l10n.t of src/common/l10n.ts and src/platform/l10n.ts). Texts for
    // people are localized: English literals may not be made display text by hand.
    files: ['src/**/*.ts'],
    // src/ids.ts holds ids (`message: 'message'` is a context value, not a text).
    ignores: ['src/platform/ui.ts', 'src/platform/l10n.ts', 'src/extension.ts', 'src/ids.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...SHOWN_TEXT_RULES, VSCODE_L10N_RULE, LAZY_REQUIRE_RULE],
      // onFirstUse's require() is the one allowed (LAZY_REQUIRE_RULE above).
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // The vscode-bound l10n.t and the composition root (which hands VS Code's bundle to the pure modules).
    files: ['src/platform/l10n.ts', 'src/extension.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SHOWN_TEXT_RULES, LAZY_REQUIRE_RULE] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/common/l10n.ts', 'src/common/plainL10n.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          name: '@vscode/l10n',
          message:
            'Use l10n from src/common/l10n.ts (display text), src/platform/l10n.ts (vscode-bound) or src/common/plainL10n.ts (data): their l10n.t types the arguments.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
