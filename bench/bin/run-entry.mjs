// Runs a TypeScript entry of the bench on Node 20 through Vite's module runner (no build step) and
// calls its `main(argv)`; a failure is printed and sets the exit code.
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

/**
 * @param {string} relativePath the entry, relative to bench/bin
 * @param {{ source?: boolean, env?: Record<string, string> }} [options] source: workspace packages
 *   resolve to their TypeScript source, as in the tests; env: set once the entry is loaded
 * @example
 * await runEntry('../src/node/jobs-in-node.ts', { source: true });
 */
export async function runEntry(relativePath, options = {}) {
  const entry = fileURLToPath(new URL(relativePath, import.meta.url));
  const { module } = await runnerImport(entry, {
    configFile: false,
    logLevel: 'warn',
    ...(options.source ? { environments: { inline: { resolve: { conditions: ['@otto/source'], noExternal: [/^@otto\//] } } } } : {}),
  });
  Object.assign(process.env, options.env ?? {});
  try {
    await module.main(process.argv.slice(2));
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
