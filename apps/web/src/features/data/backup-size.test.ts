import { describe, expect, it } from 'vitest';
import { backupSizeLimit, backupTooLarge } from './backup-size';

describe('backupTooLarge', () => {
  it('lets a backup up to the limit through', () => {
    expect(backupSizeLimit).toBe('up to 200 MB');
    expect(backupTooLarge({ name: 'otto.sqlite3', size: 200 * 1024 * 1024 })).toBeUndefined();
  });

  it('refuses a larger file in words, naming it and the limit', () => {
    expect(backupTooLarge({ name: 'huge.sqlite3', size: 300 * 1024 * 1024 })).toBe(
      '“huge.sqlite3” is 300 MB; a backup can be up to 200 MB, so it was not restored. Choose a backup that Otto saved. Nothing was changed.',
    );
  });
});
