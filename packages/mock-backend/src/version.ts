// The library's version, written into every build by tsup (see tsup.config.ts). Run from source (in
// Otto's workspace) it is 'source' on both sides, so the page and the service worker always agree.
declare const __OTTO_MOCK_BACKEND_VERSION__: string | undefined;

/**
 * The version of `@otto/mock-backend` this code was built from: the service worker (`otto-sw.js`)
 * reports its own to every page, which logs an error when it differs from the page's.
 * @example
 * console.log(mockBackendVersion); // '0.1.0'
 */
export const mockBackendVersion: string =
  typeof __OTTO_MOCK_BACKEND_VERSION__ === 'string' ? __OTTO_MOCK_BACKEND_VERSION__ : 'source';
