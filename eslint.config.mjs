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
  pureFolders(['src/api/**/*.ts', 'src/common/**/*.ts'], VSCODE_BOUND),
  // From a core/ folder, `../x` is its feature's vscode-bound module.
  pureFolders(['src/*/core/**/*.ts'], `^\\.\\./[^./][^/]*$|${VSCODE_BOUND}`),
  {
    // Notifications run `[x](command:…)` links and the status bar renders `$(icon)`: every message goes
    // through src/platform/ui.ts, whose functions take only DisplayText (made by displayText/msg in
    // src/common/text.ts).
    files: ['src/**/*.ts'],
    ignores: ['src/platform/ui.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(show(Information|Warning|Error)Message|setStatusBarMessage)$/]',
          message:
            'Show messages through the Ui in src/platform/ui.ts (ui.info/warn/error/ask, flash): they take only DisplayText.',
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
