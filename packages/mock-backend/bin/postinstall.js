/* global process, console */
// Runs when @otto/mock-backend is installed: updates the copies of otto-sw.js that
// `otto-mock-backend init` recorded in the app's package.json, so that an upgrade never leaves an
// old service worker in the app. It never fails an install: a problem is one line of warning.
// (pnpm runs dependencies' install scripts only when allowed; the page then reports a stale copy.)
import { copyServiceWorker, packageVersion, readManifest, recordedDirectories, serviceWorkerFileName } from './service-worker-file.js';

const project = process.env.INIT_CWD;
try {
  const manifest = project ? readManifest(project) : undefined;
  for (const dir of recordedDirectories(manifest)) {
    if (copyServiceWorker(project, dir)) console.log(`@otto/mock-backend: updated ${dir}/${serviceWorkerFileName} to ${packageVersion}.`);
  }
} catch (error) {
  console.warn(`@otto/mock-backend: could not update ${serviceWorkerFileName} (${error instanceof Error ? error.message : String(error)}); run \`npx otto-mock-backend init\`.`);
}
