// Shared lint rules for every Otto package, including the package boundaries of docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Which workspace packages each package may import. Anything else from @otto/* is an error. */
export const boundaries = {
  '@otto/web': ['@otto/ui', '@otto/api-contract', '@otto/mock-backend', '@otto/sqlite-store'],
  '@otto/mock-backend': ['@otto/api-contract', '@otto/sqlite-store'],
  '@otto/api-contract': [],
  '@otto/sqlite-store': [],
  '@otto/ui': [],
  // Benchmarks (private, never imported): drive the published packages as the app does.
  '@otto/bench': ['@otto/api-contract', '@otto/mock-backend', '@otto/sqlite-store'],
};

const allOtto = Object.keys(boundaries);

/**
 * Flat ESLint config for one package.
 * @param {keyof typeof boundaries} name the package being linted
 * @param {{ ignores?: string[] }} [options]
 */
export function ottoConfig(name, options = {}) {
  const allowed = boundaries[name] ?? [];
  const forbidden = allOtto.filter((pkg) => pkg !== name && !allowed.includes(pkg));
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', '.turbo/**', ...(options.ignores ?? [])] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
      languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
      rules: {
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
        '@typescript-eslint/consistent-type-imports': 'error',
        'no-restricted-imports': [
          'error',
          {
            paths: forbidden.map((pkg) => ({
              name: pkg,
              message: `${name} may not import ${pkg} (see docs/architecture.md, package boundaries).`,
            })),
            patterns: [
              ...forbidden.map((pkg) => ({
                group: [`${pkg}/*`],
                message: `${name} may not import ${pkg} (see docs/architecture.md, package boundaries).`,
              })),
              {
                group: ['**/apps/web/**'],
                message: 'Import workspace packages by name, never by relative path across packages.',
              },
              {
                // `../` any number of times, then a workspace folder (pnpm-workspace.yaml): a path
                // into another package, at whatever depth the importing file sits.
                regex: '^(\\.\\./)+(apps|packages|tooling|bench)(/|$)',
                message: 'Import workspace packages by name, never by relative path across packages.',
              },
            ],
          },
        ],
      },
    },
  );
}
