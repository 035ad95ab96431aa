import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
  {
    // The core must stay testable by plain mocha: no VS Code API in src/api/.
    files: ['src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/api/ must not depend on the VS Code API; pass what you need in.' }] },
      ],
    },
  },
  {
    // Notifications run `[x](command:…)` links and the status bar renders `$(icon)`: every message goes
    // through src/ui.ts, whose functions take only DisplayText (made by displayText/msg in src/text.ts).
    files: ['src/**/*.ts'],
    ignores: ['src/ui.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(show(Information|Warning|Error)Message|setStatusBarMessage)$/]',
          message:
            'Show messages through the Ui in src/ui.ts (ui.info/warn/error/ask, flash): they take only DisplayText.',
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
