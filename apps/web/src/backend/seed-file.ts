/** The first-start database, made at build time (vite-plugin-otto-seed.ts) and precached. */
export const seedFileUrl = '/otto-seed.sqlite3.gz';
