import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;

let modulePromise: Promise<Sqlite3> | undefined;

/**
 * How many times OPFS refused a write for want of space. Chromium's sync access handle then writes
 * nothing and returns a short count (the sahpool VFS reports "Unknown write() failure."); the file
 * system spec lets a browser throw `QuotaExceededError` instead. Either way the VFS turns it into a
 * plain SQLITE_IOERR, the same code as any other I/O failure: this count, read before and after a
 * statement, is how the store tells "the storage is full" (507) from other I/O errors. Decision 0052.
 */
export const vfsQuotaErrors = { count: 0 };

/** True for what the sahpool VFS reports when OPFS refuses to store more (see vfsQuotaErrors). */
export function isQuotaError(error: unknown): boolean {
  const e = error as { name?: unknown; message?: unknown } | null;
  return e?.name === 'QuotaExceededError' || (typeof e?.message === 'string' && e.message.startsWith('Unknown write() failure'));
}

/**
 * The library's error lines. The sahpool VFS (logging at verbosity 1) reports here each error it
 * turns into a result code: quota refusals are counted; its other lines are dropped (the failure
 * reaches the caller as a StoreError); anything else goes to the console.
 */
function onLibraryError(...args: unknown[]): void {
  if (args.some(isQuotaError)) {
    vfsQuotaErrors.count++;
    return;
  }
  if (typeof args[0] === 'string' && args[0].startsWith('opfs-sahpool')) return;
  console.error(...args);
}

/**
 * Options of `preloadSqlite`.
 * @example
 * const options: LoadSqliteOptions = { wasm: compiledByThePage };
 */
export interface LoadSqliteOptions {
  /**
   * `sqlite3.wasm` already compiled (for example by the page that started this worker, while the
   * worker's own script loaded; a `WebAssembly.Module` crosses `postMessage`): instantiated
   * instead of fetching and compiling the file here. It must be the `sqlite3.wasm` of the same
   * `@sqlite.org/sqlite-wasm` as this package's. `undefined` (or a module that cannot be
   * instantiated) loads the file as usual.
   */
  wasm?: PromiseLike<WebAssembly.Module | undefined>;
}

type InitModule = (options: object) => Promise<Sqlite3>;

/**
 * Starts SQLite, on `compiled` when given. Emscripten's `instantiateWasm` hook takes over the
 * instantiation; it cannot fail the init promise, so a failure is raced in beside it.
 */
function initSqlite(compiled: WebAssembly.Module | undefined): Promise<Sqlite3> {
  // The init function accepts Emscripten module options, though its types declare none.
  const init = sqlite3InitModule as unknown as InitModule;
  const quiet = { print: () => {}, printErr: () => {} };
  if (!compiled) return init(quiet);
  let failed!: (error: unknown) => void;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  const instantiateWasm = (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
    WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled), failed);
    return {};
  };
  return Promise.race([init({ ...quiet, instantiateWasm }), failure]);
}

/**
 * The library's console warnings that say nothing new: a failed statement (it surfaces as
 * StoreError already) and its note on the "opfs" VFS, which Otto does not use (see `loadSqlite`).
 */
const droppedWarnings = new Set<unknown>(['sqlite3_step() rc=', 'Ignoring inability to install OPFS sqlite3_vfs:']);

/**
 * Loads the SQLite WASM module once per thread (the first call's options count). The VFSes Otto
 * does not use are disabled before start-up where the build honours it; 3.50.4 has no switch for
 * the "opfs" VFS, tries it, and warns that it cannot install it without SharedArrayBuffer (COOP/COEP
 * headers): a line that would send a developer after headers Otto does not need (its VFS is
 * "opfs-sahpool"), so it is dropped.
 */
export function loadSqlite(options: LoadSqliteOptions = {}): Promise<Sqlite3> {
  if (!modulePromise) {
    (globalThis as { sqlite3ApiConfig?: unknown }).sqlite3ApiConfig = {
      disable: { vfs: { opfs: true, 'opfs-vfs': true, 'opfs-wl': true, kvvfs: true } },
      error: onLibraryError,
      warn: (...args: unknown[]) => {
        if (!droppedWarnings.has(args[0])) console.warn(...args);
      },
    };
    const compiled = Promise.resolve(options.wasm).catch(() => undefined);
    modulePromise = compiled
      .then((module) => initSqlite(module).catch((error: unknown) => (module ? initSqlite(undefined) : Promise.reject(error))))
      .catch((error: unknown) => {
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
 * void preloadSqlite({ wasm: compiledByThePage });
 */
export async function preloadSqlite(options: LoadSqliteOptions = {}): Promise<void> {
  await loadSqlite(options);
}

/**
 * Whether this thread can keep a database in OPFS: a dedicated worker whose browser offers OPFS
 * sync access handles (else why not, in words).
 * @example
 * const limit = opfsAvailable().ok ? largestFileBytes : largestInMemoryBytes;
 */
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
