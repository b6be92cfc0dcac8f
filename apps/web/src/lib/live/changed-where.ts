/**
 * Where a record that changed under an open form was changed, in words: with the in-browser
 * backend only another tab of this browser can have saved it; against a server
 * (`VITE_OTTO_API_BASE_URL`) or synced with one (`VITE_OTTO_SYNC_URL`) it may also have been
 * someone else, on another device.
 * @example
 * `This customer was changed ${changedWhere}`; // 'This customer was changed in another tab'
 */
export const changedWhere: string = import.meta.env.VITE_OTTO_API_BASE_URL || import.meta.env.VITE_OTTO_SYNC_URL ? 'elsewhere (by someone else, or in another tab)' : 'in another tab';
