// The consumer project's third-party packages (React, Vite, the test tools of the README's recipes),
// installed with plain npm from the registry. `otto test` starts this in the background as soon as
// pnpm's install is done (it waits mostly on the network), and the consumer test then adds only
// the packed Otto packages; run alone, the test does both, one after the other.
//   node tooling/consumer-tests/prepare-project.js <empty folder>   (writes <folder>/otto-prepared.json)
/* global process, URL, setTimeout */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '../..');
const require = createRequire(import.meta.url);
const versionHere = (name) => require(`${name}/package.json`).version;
// The React toolchain at the versions Otto's own app builds with.
const versionInApp = (name) => JSON.parse(readFileSync(join(repo, 'apps/web/node_modules', name, 'package.json'), 'utf8')).version;

/** Where the background preparation writes its outcome. */
export const preparedFile = 'otto-prepared.json';

/** npm must not see the settings pnpm passes to the scripts it runs (npm_config_*). */
export const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));

/** The consumer project's packages other than Otto's, at the versions this repository uses. */
export function thirdPartyPackages() {
  const app = ['react', 'react-dom', '@vitejs/plugin-react', '@types/react', '@types/react-dom', 'zod', 'typescript'];
  return {
    dependencies: { vite: versionHere('vite'), ...Object.fromEntries(app.map((name) => [name, versionInApp(name)])) },
    // The README's test recipes: Vitest browser mode, Playwright Test and Storybook's portable
    // stories, at the Vitest and Playwright this repository tests with, and the Storybook whose
    // Vite builder supports Vite 8.
    devDependencies: {
      vitest: versionHere('vitest'),
      '@vitest/browser-playwright': versionHere('vitest'),
      playwright: versionHere('playwright-core'),
      '@playwright/test': versionHere('playwright-core'),
      storybook: '10.6.7',
      '@storybook/react-vite': '10.6.7',
      '@types/node': versionHere('@types/node'),
    },
  };
}

/** Writes the project's package.json with `extra` dependencies and installs it with npm. */
export async function installProject(dir, extra = {}) {
  const packages = thirdPartyPackages();
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'otto-consumer', private: true, type: 'module', dependencies: { ...extra, ...packages.dependencies }, devDependencies: packages.devDependencies }),
  );
  const started = Date.now();
  const { stderr } = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: dir, env: cleanEnv, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  return { stderr, ms: Date.now() - started };
}

/** Waits for the background preparation of `dir` (started by `otto test`), and answers its outcome. */
export async function waitForPrepared(dir, timeoutMs = 300_000) {
  const file = join(dir, preparedFile);
  const giveUpAt = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > giveUpAt) throw new Error(`The consumer project in ${dir} was not prepared within ${timeoutMs / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const outcome = JSON.parse(readFileSync(file, 'utf8'));
  if (outcome.error) throw new Error(`npm install of the consumer project's packages failed:\n${outcome.error}`);
  return outcome;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node prepare-project.js <empty folder>');
  const outcome = await installProject(dir).catch((error) => ({ error: `${error.message}\n${error.stderr ?? ''}` }));
  writeFileSync(join(dir, preparedFile), JSON.stringify(outcome));
}
