#!/usr/bin/env node
/* global process, console */
// `npx otto-mock-backend init <public folder>`: copies Otto's service worker (otto-sw.js) into the
// app's static folder and records the folder in package.json, so that installing a new version of
// @otto/mock-backend updates the copy (the package's postinstall), like `msw init`.
import { copyServiceWorker, normalizeDirectory, packageVersion, readManifest, recordDirectory, recordedDirectories, serviceWorkerFileName } from './service-worker-file.js';

const usage = `Usage: otto-mock-backend init [public folder] [--no-save]

  init <folder>   Copies ${serviceWorkerFileName} (@otto/mock-backend ${packageVersion}) into <folder>, the folder
                  your dev server and build serve at the app root (Vite: public), and records
                  it in package.json ("ottoMockBackend.workerDirectory") so that upgrades of
                  @otto/mock-backend update the copy. Without a folder: every recorded one.
  --no-save       Copy only; do not record the folder.

With Vite, ottoMockBackend() from @otto/mock-backend/vite serves and builds the file instead.`;

const args = process.argv.slice(2);
const command = args[0];
if (command === '--help' || command === '-h' || command === 'help') {
  console.log(usage);
  process.exit(0);
}
if (command !== 'init') {
  console.error(command ? `Unknown command "${command}".\n\n${usage}` : usage);
  process.exit(1);
}
const save = !args.includes('--no-save');
const folders = args.slice(1).filter((arg) => !arg.startsWith('--'));
const unknown = args.slice(1).filter((arg) => arg.startsWith('--') && arg !== '--no-save');
if (unknown.length > 0) {
  console.error(`Unknown option ${unknown.join(', ')}.\n\n${usage}`);
  process.exit(1);
}

const project = process.cwd();
const manifest = readManifest(project);
const targets = folders.length > 0 ? folders.map((dir) => normalizeDirectory(project, dir)) : recordedDirectories(manifest);
if (targets.length === 0) {
  console.error(`Name the folder your app serves at its root, e.g. \`npx otto-mock-backend init public\`.\n\n${usage}`);
  process.exit(1);
}
try {
  for (const dir of targets) {
    const copied = copyServiceWorker(project, dir);
    console.log(`${copied ? 'Wrote' : 'Up to date:'} ${dir}/${serviceWorkerFileName} (@otto/mock-backend ${packageVersion}).`);
    if (!save || folders.length === 0) continue;
    if (!manifest) {
      console.log(`No package.json in ${project}: ${dir} is not recorded, so upgrades will not update the file.`);
    } else if (recordDirectory(manifest, dir)) {
      console.log(`Recorded "${dir}" in package.json (ottoMockBackend.workerDirectory): upgrades of @otto/mock-backend update the file.`);
    }
  }
} catch (error) {
  console.error(`otto-mock-backend init failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
