import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** A feature's own modules (explorer/x, not explorer/core/x), platform/, and the composition root. */
const VSCODE_BOUND = '(^|/)(platform|explorer|requests|chat|setup)/[^/]+$|(^|/)(extension|services)$';

function pureFolders(files, boundImports) {
  return {
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'Pure folders must not depend on the VS Code API; pass what you need in.' },
          ],
          patterns: [
            {
              regex: boundImports,
              allowTypeImports: true,
              message: 'Pure folders import only pure folders (types excepted).',
            },
          ],
        },
      ],
    },
  };
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
  // Pure folders — the client core, shared helpers and each feature's core/ — stay testable by plain mocha:
  // no VS Code API in them, and nothing from the vscode-bound modules but types.
  pureFolders(['src/api/**/*.ts', 'src/common/**/*.ts', 'src/domain/**/*.ts'], VSCODE_BOUND),
  // From a core/ folder, `../x` is its feature's vscode-bound module.
  pureFolders(['src/*/core/**/*.ts'], `^\\.\\./[^./][^/]*$|${VSCODE_BOUND}`),
  {
    // Notifications run `[x](command:…)` links and the status bar renders `$(icon)`: every message goes
    // through src/platform/ui.ts, whose functions take only DisplayText (made by displayText/clean in
    // src/common/text.ts, or by the typed l10n.t of src/common/l10n.ts and src/platform/l10n.ts). Texts for
    // people are localized: English literals may not be made display text by hand.
    files: ['src/**/*.ts'],
    // src/ids.ts holds ids (`message: 'message'` is a context value, not a text).
    ignores: ['src/platform/ui.ts', 'src/platform/l10n.ts', 'src/extension.ts', 'src/ids.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SHOWN_TEXT_RULES, VSCODE_L10N_RULE] },
  },
  {
    // The vscode-bound l10n.t and the composition root (which hands VS Code's bundle to the pure modules).
    files: ['src/platform/l10n.ts', 'src/extension.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SHOWN_TEXT_RULES] },
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
