import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.test-results/**', 'coverage/**', 'charts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through loadConfig() (services/core/src/config).' },
      ],
    },
  },
  {
    // Places allowed to read the environment: the config loader, entry scripts, tests and the simulator.
    files: [
      'services/core/src/config/**',
      'scripts/**',
      '**/*.test.ts',
      '**/test/**',
      '**/test-support/**',
      'services/jellyfin-sim/**',
      'web/vite.config.ts',
      'web/playwright.config.ts',
      'vitest.config.ts',
      'services/server/src/main.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
