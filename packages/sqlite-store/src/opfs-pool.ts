// The sahpool VFS of an OPFS directory: one per directory and thread, paused rather than removed.
import type { Sqlite3 } from './sqlite-module';
import { opfsDirectory, opfsReachable } from './opfs-directory';

/** The sahpool VFS's own handle on its files. */
export type PoolUtil = Awaited<ReturnType<Sqlite3['installOpfsSAHPoolVfs']>>;

/** The OPFS directory of a store's sahpool VFS when `opfsDirectory` is not given. */
export const defaultOpfsDirectory = '.otto';

/**
 * True when OPFS is there but holds no pool directory `directory` yet: no store has opened a
 * database there (a first start). False where it exists, where there is no OPFS, or on any error.
 * Lets a caller fetch a first-start file (`newDatabase`) while SQLite loads, before `open()`.
 * @example
 * const early = (await isNewOpfsPool()) ? fetchSeedFile() : undefined;
 */
export async function isNewOpfsPool(directory: string = defaultOpfsDirectory): Promise<boolean> {
  if (!opfsReachable()) return false;
  try {
    return (await opfsDirectory(directory, false)) === undefined;
  } catch {
    return false;
  }
}

// One sahpool VFS per OPFS directory and thread. Closing a store pauses it (releasing the OPFS
// handles for another tab), never removes it: removeVfs() deletes every file in the directory.
const pools = new Map<string, PoolUtil>();

export async function acquirePool(s: Sqlite3, directory: string): Promise<PoolUtil> {
  const cached = pools.get(directory);
  if (cached) return cached.isPaused() ? cached.unpauseVfs() : cached;
  const pool = await s.installOpfsSAHPoolVfs({
    directory,
    // SQLite keeps one pool per VFS name: a directory other than the default gets a name of its own
    // (a backup is checked in a pool beside the database's while the database stays open).
    ...(directory === defaultOpfsDirectory ? {} : { name: `opfs-sahpool-${directory.replace(/[^A-Za-z0-9]/g, '_')}` }),
    // Failures reach the caller as StoreError. Error lines only (1): they go to the module's error
    // logger, which counts quota refusals (see vfsQuotaErrors) and drops the rest.
    verbosity: 1,
    preserveOnInitFailure: true,
    forceReinitIfPreviouslyFailed: true,
    // A new pool makes this many OPFS files (each with a sync access handle: the slowest step of a
    // first start after loading SQLite). A store uses two: the database and its WAL; the third is
    // for the rollback journal an older file may still have while it moves to WAL. Temporary files
    // stay in memory (the build's SQLITE_TEMP_STORE). The library's default is 6.
    initialCapacity: 3,
  } as Parameters<Sqlite3['installOpfsSAHPoolVfs']>[0]);
  pools.set(directory, pool);
  return pool;
}

/**
 * Removes from the pool the files beside a database: its WAL (one left beside another database file
 * would be replayed into it) and the journal of Otto before decision 0115.
 */
export function unlinkCompanions(pool: PoolUtil, path: string): void {
  for (const suffix of ['-wal', '-journal']) pool.unlink(`${path}${suffix}`);
}

/** Bytes read a slice at a time from a Blob: what the pool's chunked import asks for (a file of any size, never held whole). */
export function sliceReader(blob: Blob, sliceBytes = 16 * 1024 * 1024): () => Promise<ArrayBuffer | undefined> {
  let at = 0;
  return async () => {
    if (at >= blob.size) return undefined;
    const slice = blob.slice(at, at + sliceBytes);
    at += sliceBytes;
    return slice.arrayBuffer();
  };
}

/** Puts a SQLite file's bytes (whole, or a Blob read a slice at a time) in the pool as `path`. */
export async function importInto(pool: PoolUtil, path: string, source: Uint8Array | Blob): Promise<void> {
  unlinkCompanions(pool, path);
  await pool.importDb(path, source instanceof Uint8Array ? source : sliceReader(source));
}
