/* global URL */
// What `otto-mock-backend init` and the package's postinstall share: the service worker file the
// package ships (dist/otto-sw.js), where an app keeps its copies (package.json
// "ottoMockBackend.workerDirectory"), and the copying. Plain JavaScript: it runs before any build.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const serviceWorkerFileName = 'otto-sw.js';
export const shippedServiceWorker = fileURLToPath(new URL(`../dist/${serviceWorkerFileName}`, import.meta.url));
export const packageVersion = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** The app's package.json, read; undefined when there is none. */
export function readManifest(projectDir) {
  const file = join(projectDir, 'package.json');
  if (!existsSync(file)) return undefined;
  return { file, text: readFileSync(file, 'utf8'), json: JSON.parse(readFileSync(file, 'utf8')) };
}

/** The folders (relative to the app) that hold a copy of otto-sw.js, as recorded in package.json. */
export function recordedDirectories(manifest) {
  const recorded = manifest?.json?.ottoMockBackend?.workerDirectory;
  if (typeof recorded === 'string') return [recorded];
  return Array.isArray(recorded) ? recorded.filter((dir) => typeof dir === 'string') : [];
}

/** Adds `dir` to package.json's "ottoMockBackend.workerDirectory", keeping the file's indentation. */
export function recordDirectory(manifest, dir) {
  const dirs = recordedDirectories(manifest);
  if (dirs.includes(dir)) return false;
  const json = manifest.json;
  json.ottoMockBackend = { ...(typeof json.ottoMockBackend === 'object' ? json.ottoMockBackend : {}), workerDirectory: [...dirs, dir] };
  const indent = /^[ \t]+(?=")/m.exec(manifest.text)?.[0] ?? '  ';
  writeFileSync(manifest.file, `${JSON.stringify(json, null, indent)}\n`);
  return true;
}

/** Copies the shipped otto-sw.js into `dir`; false when the copy there is the same already. */
export function copyServiceWorker(projectDir, dir) {
  if (!existsSync(shippedServiceWorker)) throw new Error(`${shippedServiceWorker} is missing: this copy of @otto/mock-backend is not built.`);
  const target = join(resolve(projectDir, dir), serviceWorkerFileName);
  if (existsSync(target) && readFileSync(target).equals(readFileSync(shippedServiceWorker))) return false;
  mkdirSync(resolve(projectDir, dir), { recursive: true });
  copyFileSync(shippedServiceWorker, target);
  return true;
}

/** `dir` as recorded: relative to the app, with forward slashes. */
export function normalizeDirectory(projectDir, dir) {
  const rel = relative(projectDir, isAbsolute(dir) ? dir : resolve(projectDir, dir)) || '.';
  return rel.split('\\').join('/');
}
