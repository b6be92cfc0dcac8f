// What keeps the data safe besides OPFS itself: whether the browser may clear it (persistent
// storage), how much it takes, and when a backup was last downloaded. Kept in localStorage, per
// browser profile, like the data.

const keys = {
  lastBackup: 'otto-last-backup-at',
  lastChange: 'otto-last-change-at',
  since: 'otto-using-since',
  nudgeDismissed: 'otto-backup-nudge-dismissed-at',
} as const;

/** A week: how long changes may go without a backup before Otto suggests one. */
export const backupNudgeAfterMs = 7 * 24 * 60 * 60 * 1000;

function read(key: string): number | undefined {
  const value = Number(localStorage.getItem(key));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Records that a backup was downloaded now.
 * @example
 * recordBackup();
 */
export function recordBackup(now = Date.now()): void {
  localStorage.setItem(keys.lastBackup, String(now));
}

/**
 * When the last backup was downloaded in this browser, if ever.
 * @example
 * const at = lastBackupAt(); // epoch ms or undefined
 */
export function lastBackupAt(): number | undefined {
  return read(keys.lastBackup);
}

/**
 * Records that the data changed (any tab, any write); the first call also starts the clock.
 * @example
 * backend.onChange(() => recordChange());
 */
export function recordChange(now = Date.now()): void {
  localStorage.setItem(keys.lastChange, String(now));
  if (!read(keys.since)) localStorage.setItem(keys.since, String(now));
}

/**
 * Whether to suggest a backup: there are changes since the last backup, and that backup (or the
 * first change, when there was none) is more than a week old, and the suggestion was not dismissed
 * within the week.
 * @example
 * if (shouldNudgeBackup()) showNudge();
 */
export function shouldNudgeBackup(now = Date.now()): boolean {
  const lastChange = read(keys.lastChange);
  if (!lastChange) return false;
  const backup = read(keys.lastBackup);
  if (backup && backup >= lastChange) return false;
  const since = backup ?? read(keys.since) ?? lastChange;
  const dismissed = read(keys.nudgeDismissed);
  return now - since > backupNudgeAfterMs && (!dismissed || now - dismissed > backupNudgeAfterMs);
}

/**
 * Hides the backup suggestion for a week.
 * @example
 * dismissBackupNudge();
 */
export function dismissBackupNudge(now = Date.now()): void {
  localStorage.setItem(keys.nudgeDismissed, String(now));
}

/** What the browser says about Otto's storage. */
export interface StorageReport {
  /** `true`: the browser will not clear it under storage pressure; `undefined`: it cannot say. */
  persisted: boolean | undefined;
  usageBytes: number | undefined;
  quotaBytes: number | undefined;
}

/**
 * Asks the browser what it keeps for this site.
 * @example
 * const { persisted, usageBytes } = await storageReport();
 */
export async function storageReport(): Promise<StorageReport> {
  const storage = navigator.storage as StorageManager | undefined;
  const [persisted, estimate] = await Promise.all([
    storage?.persisted?.().catch(() => undefined),
    storage?.estimate?.().catch(() => undefined),
  ]);
  return { persisted, usageBytes: estimate?.usage, quotaBytes: estimate?.quota };
}

/**
 * Asks the browser to keep Otto's storage (it may say no; Chromium grants it to installed apps
 * and sites people use often, Firefox asks the person). Resolves with the answer.
 * @example
 * const kept = await requestPersistentStorage();
 */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = navigator.storage as StorageManager | undefined;
  if (!storage?.persist) return false;
  if (await storage.persisted?.().catch(() => false)) return true;
  return storage.persist().catch(() => false);
}
