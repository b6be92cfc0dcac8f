import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;

let modulePromise: Promise<Sqlite3> | undefined;

/**
 * Loads the SQLite WASM module once per thread. The VFSes Otto does not use are disabled before
 * start-up so that they never probe OPFS or start helper workers.
 */
export function loadSqlite(): Promise<Sqlite3> {
  if (!modulePromise) {
    (globalThis as { sqlite3ApiConfig?: unknown }).sqlite3ApiConfig = {
      disable: { vfs: { opfs: true, 'opfs-vfs': true, 'opfs-wl': true, kvvfs: true } },
      // Failed statements already surface as StoreError; drop the library's duplicate console line.
      warn: (...args: unknown[]) => {
        if (args[0] !== 'sqlite3_step() rc=') console.warn(...args);
      },
    };
    // The init function accepts Emscripten module options, though its types declare none.
    const init = sqlite3InitModule as unknown as (options: object) => Promise<Sqlite3>;
    modulePromise = init({ print: () => {}, printErr: () => {} }).catch((error: unknown) => {
      modulePromise = undefined;
      throw error;
    });
  }
  return modulePromise;
}

/**
 * Loads and compiles the SQLite WASM module ahead of opening a store (its fetch, compile and
 * instantiation are most of a store's first open), so that `open()` later only opens the file.
 * @example
 * void preloadSqlite(); // at the top of a worker, before it is told to open the database
 */
export async function preloadSqlite(): Promise<void> {
  await loadSqlite();
}

/** True in a dedicated worker whose browser offers OPFS sync access handles. */
export function opfsAvailable(): { ok: true } | { ok: false; reason: string } {
  const g = globalThis as {
    WorkerGlobalScope?: unknown;
    navigator?: { storage?: { getDirectory?: unknown } };
    FileSystemFileHandle?: { prototype?: { createSyncAccessHandle?: unknown } };
  };
  if (typeof g.WorkerGlobalScope === 'undefined') {
    return { ok: false, reason: 'not running in a worker (OPFS sync access needs a dedicated worker)' };
  }
  if (typeof g.navigator?.storage?.getDirectory !== 'function') {
    return { ok: false, reason: 'this browser has no Origin Private File System (navigator.storage.getDirectory)' };
  }
  if (typeof g.FileSystemFileHandle?.prototype?.createSyncAccessHandle !== 'function') {
    return { ok: false, reason: 'this browser has no OPFS sync access handles' };
  }
  return { ok: true };
}

/** True when an OPFS error means another connection holds the files (another tab or worker). */
export function isBusyError(error: unknown): boolean {
  const e = error as { name?: string; message?: string } | null;
  const text = `${e?.name ?? ''} ${e?.message ?? ''}`;
  return /NoModificationAllowed|another open Access Handle|Access Handles cannot be created/i.test(text);
}
