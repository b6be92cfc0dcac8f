// Tests import from 'vitest' explicitly (no globals), so Testing Library cannot register its own cleanup.
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { closeRenderedApps } from './src/test/render-app';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

globalThis.IS_REACT_ACT_ENVIRONMENT = true;
// Screens load lazily; the first import of a module under test takes a moment to transform.
configure({ asyncUtilTimeout: 5000 });

afterEach(async () => {
  cleanup();
  await closeRenderedApps();
});
