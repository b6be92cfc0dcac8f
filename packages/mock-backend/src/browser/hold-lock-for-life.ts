// Holds a Web Lock for as long as a worker lives, or until it lets go.
/**
 * Takes the lock `name` (waiting at most `waitMs` for it) and holds it until `release` is called
 * or the worker ends. Resolves with `release` once held, or once the wait is given up (after
 * `onGiveUp` is called).
 */
export function holdLockForLife(name: string, waitMs: number, onGiveUp: () => void): Promise<() => void> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve) => {
    const giveUp = new AbortController();
    const timer = setTimeout(() => giveUp.abort(), waitMs);
    locks
      .request(name, { signal: giveUp.signal }, () => {
        clearTimeout(timer);
        return new Promise<void>((release) => resolve(release));
      })
      .catch(() => {
        onGiveUp();
        resolve(() => {});
      });
  });
}
