// The page's half of handing the DB worker what it would otherwise fetch after its own script
// loaded: SQLite's compiled wasm (`compiledSqliteFromPage`) and the first-start database file
// (`seedFileFromPage`). It imports nothing from @otto/sqlite-store: a page bundle then never meets SQLite's glue code
// (whose `new URL('sqlite3.wasm', …)` alone makes a bundler emit the 0.9 MB file).
import type { WorkerRequestMessage } from './protocol';

const compiledByUrl = new Map<string, Promise<WebAssembly.Module | undefined>>();

/** Fetches and compiles the wasm file once per page and URL; `undefined` when that fails. */
function compile(url: string): Promise<WebAssembly.Module | undefined> {
  let compiling = compiledByUrl.get(url);
  if (!compiling) {
    const response = fetch(url, { credentials: 'same-origin' });
    compiling = (
      typeof WebAssembly.compileStreaming === 'function'
        ? WebAssembly.compileStreaming(response)
        : response.then((r) => r.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes))
    ).catch(() => undefined);
    compiledByUrl.set(url, compiling);
  }
  return compiling;
}

/**
 * Compiles `sqlite3.wasm` in this page (once per page: later workers get the same module) and
 * posts it to `worker`, a DB worker served with `compiledSqliteFromPage`. The file then downloads
 * and compiles while the worker's own script loads, instead of after it. Call it right after
 * creating the worker. `wasmUrl` is the `sqlite3.wasm` of the `@sqlite.org/sqlite-wasm` that the
 * worker's `@otto/sqlite-store` uses; the page's Content-Security-Policy must allow
 * `'wasm-unsafe-eval'`. When the page cannot compile it, the worker loads the file itself.
 * @example
 * import wasmUrl from '@sqlite.org/sqlite-wasm/sqlite3.wasm?url';
 * const worker = new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module' });
 * postCompiledSqlite(worker, wasmUrl);
 */
export function postCompiledSqlite(worker: Worker, wasmUrl: string | URL): void {
  void compile(String(wasmUrl)).then((module) => {
    const message: WorkerRequestMessage = { type: 'sqlite-wasm', ...(module ? { module } : {}) };
    worker.postMessage(message);
  });
}

/**
 * Fetches a database file, gunzipped when it is gzip (a `.gz` the host sent as it is; one sent with
 * `Content-Encoding: gzip` arrives unpacked). Rejects with the status when the answer is not OK.
 * @example
 * serveMockApiInWorker({ seed: { file: () => fetchDatabaseFile('/first.sqlite3.gz') } });
 */
export async function fetchDatabaseFile(url: string | URL): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${String(url)} answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
}

/**
 * Hands `worker`, a DB worker served with `seedFileFromPage`, the first-start database file: with
 * `seedUrl` the page fetches it (`fetchDatabaseFile`) and transfers the bytes; without, it says
 * there is none coming. Call it right after creating the worker, with a URL when this is likely a
 * first start (no service worker controls the page yet, say): the file then downloads while the
 * worker's script and SQLite load, instead of once the worker has found the database missing. On a
 * failure the worker fetches the file itself, and it never uses the page's file for a database
 * that already exists. `moment`: the moment the file's dates move to (default: when the worker
 * opens it), for a page that shows the first screen before (Otto's does, decision 0009).
 * @example
 * postSeedFile(worker, navigator.serviceWorker?.controller ? undefined : '/otto-seed.sqlite3.gz');
 */
export function postSeedFile(worker: Worker, seedUrl?: string | URL, options: { moment?: number } = {}): void {
  // The moment at once: the worker may need it before the file has downloaded.
  const moment: WorkerRequestMessage = { type: 'seed-moment', ...(options.moment !== undefined ? { moment: options.moment } : {}) };
  worker.postMessage(moment);
  void (seedUrl ? fetchDatabaseFile(seedUrl).catch(() => undefined) : Promise.resolve(undefined)).then((file) => {
    // The bytes' own buffer when they fill it (they do), so that it moves instead of being copied.
    const bytes = file && (file.byteLength === file.buffer.byteLength ? file.buffer : file.slice().buffer);
    const message: WorkerRequestMessage = { type: 'seed-file', ...(bytes ? { bytes: bytes as ArrayBuffer } : {}) };
    worker.postMessage(message, bytes ? [bytes as ArrayBuffer] : []);
  });
}
