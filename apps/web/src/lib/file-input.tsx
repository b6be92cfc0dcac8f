import type { ComponentProps } from 'react';

/** What a backup file may be called or typed as (a SQLite file). */
export const backupFileTypes = '.sqlite3,.sqlite,.db,application/vnd.sqlite3,application/x-sqlite3';

type FileInputProps = Omit<ComponentProps<'input'>, 'type' | 'onChange'> & { onFile: (file: File) => void };

/**
 * A file input that hands over the file chosen and then clears itself, so that choosing the same
 * file again (after fixing it, say) is noticed.
 * @example
 * <FileInput accept={backupFileTypes} aria-label="Backup file to restore" hidden ref={input} onFile={setPending} />
 */
export function FileInput({ onFile, ...props }: FileInputProps) {
  return (
    <input
      {...props}
      type="file"
      onChange={(event) => {
        const file = event.currentTarget.files?.[0];
        event.currentTarget.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
