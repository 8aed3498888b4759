import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import noImportCycle from './scripts/lint/no-import-cycle.js';

/** Code that must stay testable in Node: no `chrome.*`, the browser is passed in. */
const PURE = [
  'src/acp/**',
  'src/mcp-server/**',
  'src/room/**',
  'src/presence/**',
  'src/shared/**',
  'src/page/**',
  'src/connectors/**/*.ts',
  'src/audit-forward/**',
];
const noChrome = {
  'no-restricted-globals': [
    'error',
    { name: 'chrome', message: 'Pure logic does not touch chrome.*: pass the browser in.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'dist-test/', 'release/', 'node_modules/', 'test-results/', 'public/icons/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, chrome: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'MV3 CSP forbids eval.' },
        { selector: "NewExpression[callee.name='Function']", message: 'MV3 CSP forbids new Function.' },
      ],
    },
  },
  { files: PURE, ignores: ['**/*.test.ts'], rules: noChrome },
  {
    // No module reaches itself through its imports, type-only imports included: layers stay layers.
    files: ['src/**/*.ts', 'broker/**/*.ts'],
    plugins: { tabwright: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'tabwright/no-import-cycle': 'error' },
  },
  {
    // The broker runs in Node and knows the panel only through the contract (wire facts, tool manifest).
    files: ['broker/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!contract/)',
              message: 'The broker imports only src/contract/ from the panel side.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is imported by both sides: plain data and functions, no platform, no panel code.
    files: ['src/contract/**'],
    rules: {
      ...noChrome,
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['../**', 'node:*'], message: 'src/contract/ depends on nothing but itself.' }],
        },
      ],
    },
  },
  {
    // Page code runs inside web pages: it may not reach into the panel or the platform layer.
    files: ['src/page/**'],
    rules: {
      ...noChrome,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '**/sidepanel/**',
            '**/acp/**',
            '**/mcp-server/**',
            '**/platform/**',
            '**/room/**',
            '@agentclientprotocol/*',
          ],
        },
      ],
    },
  },
  {
    // Shared stores and settings sit below every other layer: they import none of them.
    files: ['src/shared/**'],
    rules: {
      ...noChrome,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '**/sidepanel/**',
            '**/acp/**',
            '**/mcp-server/**',
            '**/connectors/**',
            '**/platform/**',
            '**/page/**',
            '**/room/**',
            '**/presence/**',
          ],
        },
      ],
    },
  },
);
