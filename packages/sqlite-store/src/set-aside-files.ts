import { opfsDirectory, opfsReachable } from './opfs-directory';
import { StoreError } from './store-error';

/**
 * A database file kept aside in OPFS (a damaged one replaced by a fresh start or a restore).
 * @example
 * const file: SetAsideFile = { name: 'otto-2026-11-23T17-30-05.sqlite3', size: 450560, lastModified: 1795000000000 };
 */
export interface SetAsideFile {
  /** The file's name, with the date and time it was set aside. */
  name: string;
  /** Its size in bytes. */
  size: number;
  /** When it was written (epoch milliseconds). */
  lastModified: number;
}

/**
 * The OPFS directory that holds set-aside files. It is not the sahpool VFS's directory: that one
 * holds files under names of its own, and a damaged file could not be imported into it anyway.
 * @example
 * const files = await listSetAsideFiles(setAsideDirectory);
 */
export const setAsideDirectory = 'otto-set-aside';

async function directory(name: string, create: boolean): Promise<FileSystemDirectoryHandle | undefined> {
  if (!opfsReachable()) {
    throw new StoreError('OPEN_FAILED', 'This browser has no private file storage (OPFS), so no file can be set aside.');
  }
  return opfsDirectory(name, create);
}

function checkName(name: string): void {
  if (!/^[\w.-]+$/.test(name)) throw new StoreError('OPEN_FAILED', `No set-aside file is called ${JSON.stringify(name)}.`);
}

/**
 * Keeps bytes (a database file as it was) aside in OPFS under a dated name, until
 * `deleteSetAsideFile`. Never overwrites: a second file in the same second gets a suffix.
 * @example
 * const kept = await keepFileAside(bytes); // { name: 'otto-2026-11-23T17-30-05.sqlite3', … }
 */
export async function keepFileAside(bytes: Uint8Array, options: { now?: number; prefix?: string; directory?: string } = {}): Promise<SetAsideFile> {
  const dir = (await directory(options.directory ?? setAsideDirectory, true)) as FileSystemDirectoryHandle;
  const stamp = new Date(options.now ?? Date.now()).toISOString().slice(0, 19).replaceAll(':', '-');
  const prefix = options.prefix ?? 'otto';
  let name = `${prefix}-${stamp}.sqlite3`;
  for (let n = 2; await exists(dir, name); n++) name = `${prefix}-${stamp}-${n}.sqlite3`;
  const handle = await dir.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  await writable.write(bytes as Uint8Array<ArrayBuffer>);
  await writable.close();
  const file = await handle.getFile();
  return { name, size: file.size, lastModified: file.lastModified };
}

async function exists(dir: FileSystemDirectoryHandle, name: string): Promise<boolean> {
  try {
    await dir.getFileHandle(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files set aside, newest first.
 * @example
 * for (const file of await listSetAsideFiles()) console.log(file.name, file.size);
 */
export async function listSetAsideFiles(directoryName: string = setAsideDirectory): Promise<SetAsideFile[]> {
  const dir = await directory(directoryName, false);
  if (!dir) return [];
  const files: SetAsideFile[] = [];
  for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
    if (handle.kind !== 'file') continue;
    const file = await (handle as FileSystemFileHandle).getFile();
    files.push({ name: handle.name, size: file.size, lastModified: file.lastModified });
  }
  return files.sort((a, b) => b.lastModified - a.lastModified || b.name.localeCompare(a.name));
}

/**
 * The bytes of one set-aside file, to download it.
 * @example
 * const bytes = await readSetAsideFile('otto-2026-11-23T17-30-05.sqlite3');
 */
export async function readSetAsideFile(name: string, directoryName: string = setAsideDirectory): Promise<Uint8Array> {
  checkName(name);
  const dir = await directory(directoryName, false);
  try {
    if (!dir) throw new Error('none');
    return new Uint8Array(await (await (await dir.getFileHandle(name)).getFile()).arrayBuffer());
  } catch {
    throw new StoreError('OPEN_FAILED', `No set-aside file is called ${name}. It may have been deleted in another tab.`);
  }
}

/**
 * Deletes one set-aside file for good. Deleting one that is gone does nothing.
 * @example
 * await deleteSetAsideFile('otto-2026-11-23T17-30-05.sqlite3');
 */
export async function deleteSetAsideFile(name: string, directoryName: string = setAsideDirectory): Promise<void> {
  checkName(name);
  const dir = await directory(directoryName, false);
  try {
    await dir?.removeEntry(name);
  } catch (error) {
    if ((error as DOMException)?.name !== 'NotFoundError') throw error;
  }
}
