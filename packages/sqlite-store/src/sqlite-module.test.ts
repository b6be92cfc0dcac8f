import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

// SQLite loads once per thread: each case imports a fresh copy of the modules.
afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

const wasmBytes = () => new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm')));

/** A valid module that imports a function SQLite's glue does not provide: instantiating it fails. */
const foreignModule = () =>
  WebAssembly.compile(
    new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
      0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // one type: () -> ()
      0x02, 0x0c, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x04, 0x6e, 0x6f, 0x70, 0x65, 0x00, 0x00, // import env.nope
    ]),
  );

async function freshStore() {
  const { preloadSqlite } = await import('./sqlite-module');
  const { createSqliteStore } = await import('./sqlite-store');
  return { preloadSqlite, createSqliteStore };
}

describe('loadSqlite with a compiled sqlite3.wasm', () => {
  it('instantiates the module it is given instead of fetching and compiling the file', async () => {
    const { preloadSqlite, createSqliteStore } = await freshStore();
    const compiled = await WebAssembly.compile(wasmBytes());
    const instantiate = vi.spyOn(WebAssembly, 'instantiate');
    await preloadSqlite({ wasm: Promise.resolve(compiled) });
    expect(instantiate).toHaveBeenCalledWith(compiled, expect.anything());
    const store = createSqliteStore({ storage: 'memory' });
    await store.open();
    expect(store.get<{ n: number }>('SELECT 6 * 7 AS n')?.n).toBe(42);
    await store.close();
  });

  it('loads the file itself when the module cannot be instantiated, or none came', async () => {
    const foreign = await foreignModule();
    const cases: (() => Promise<WebAssembly.Module | undefined>)[] = [
      () => Promise.resolve(foreign),
      () => Promise.resolve(undefined),
      () => Promise.reject(new Error('the page could not compile it')),
    ];
    for (const wasm of cases) {
      vi.resetModules();
      const instantiate = vi.spyOn(WebAssembly, 'instantiate');
      const { preloadSqlite, createSqliteStore } = await freshStore();
      await preloadSqlite({ wasm: wasm() });
      const store = createSqliteStore({ storage: 'memory' });
      await store.open();
      expect(store.get<{ n: number }>('SELECT 6 * 7 AS n')?.n).toBe(42);
      await store.close();
      if (wasm === cases[0]) expect(instantiate).toHaveBeenCalledWith(foreign, expect.anything());
      instantiate.mockRestore();
    }
  });
});
