// Where a browser has no OPFS (WebKitGTK, for one) but has IndexedDB: the database lives in memory
// and a copy of its whole file (sqlite3_js_db_export) is kept in IndexedDB after every committed
// write, and loaded at the next start. Decision: docs/decisions/0110-browsers-without-opfs.md.

const databaseName = 'otto-sqlite-store';
const storeName = 'snapshots';

type Idb = { open(name: string, version?: number): IDBOpenDBRequest };

function factory(): Idb | undefined {
  return (globalThis as { indexedDB?: Idb }).indexedDB;
}

/** True when IndexedDB can be used here. */
export function indexedDbAvailable(): boolean {
  return factory() !== undefined;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function openDatabase(): Promise<IDBDatabase> {
  const idb = factory();
  if (!idb) return Promise.reject(new Error('this browser has no IndexedDB'));
  const req = idb.open(databaseName, 1);
  req.onupgradeneeded = () => {
    if (!req.result.objectStoreNames.contains(storeName)) req.result.createObjectStore(storeName);
  };
  return request(req);
}

async function withStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDatabase();
  try {
    const tx = db.transaction(storeName, mode);
    const result = request(work(tx.objectStore(storeName)));
    // Resolve once the transaction has committed, not merely when the request succeeded.
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction was aborted'));
    });
    return await result;
  } finally {
    db.close();
  }
}

/** The last snapshot saved under `key`, or undefined. */
export async function readSnapshot(key: string): Promise<Uint8Array | undefined> {
  const value = await withStore('readonly', (store) => store.get(key) as IDBRequest<unknown>);
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

/** Saves `bytes` (a whole SQLite file) under `key`; resolves once IndexedDB committed it. */
export async function writeSnapshot(key: string, bytes: Uint8Array): Promise<void> {
  await withStore('readwrite', (store) => store.put(bytes, key));
}

export async function deleteSnapshot(key: string): Promise<void> {
  await withStore('readwrite', (store) => store.delete(key));
}
