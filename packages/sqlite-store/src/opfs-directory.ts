// Directories at the root of OPFS, for the store's own checks and its set-aside files.

/** True where this thread can reach OPFS (`navigator.storage.getDirectory`). */
export function opfsReachable(): boolean {
  return typeof (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage?.getDirectory === 'function';
}

/** A directory at the root of OPFS; `undefined` when it does not exist and `create` is false. */
export async function opfsDirectory(name: string, create: boolean): Promise<FileSystemDirectoryHandle | undefined> {
  const root = await navigator.storage.getDirectory();
  try {
    return await root.getDirectoryHandle(name, { create });
  } catch (error) {
    if (!create && (error as DOMException)?.name === 'NotFoundError') return undefined;
    throw error;
  }
}
