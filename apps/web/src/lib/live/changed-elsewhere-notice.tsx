import { Button, Notice } from '@otto/ui';
import { changedWhere } from './changed-where';

/**
 * Says that the record open in the form was saved elsewhere, with the two ways on: load the new
 * version, or keep editing (and save over it).
 * @example
 * {conflict.changed && <ChangedElsewhereNotice what="customer" onLoad={conflict.loadNewVersion} onKeepEditing={conflict.keepEditing} />}
 */
export function ChangedElsewhereNotice({
  what,
  onLoad,
  onKeepEditing,
}: {
  what: 'customer' | 'job' | 'invoice';
  onLoad: () => void;
  onKeepEditing: () => void;
}) {
  return (
    <Notice
      tone="warning"
      title={`This ${what} was changed ${changedWhere}`}
      action={
        <div className="otto-notice__choices">
          <Button size="sm" variant="primary" onClick={onLoad}>
            Load the new version
          </Button>
          <Button size="sm" onClick={onKeepEditing}>
            Keep editing
          </Button>
        </div>
      }
    >
      Someone saved this {what} while you had it open here. Load the new version to see their changes (what you typed
      here is dropped), or keep editing: the fields you have not changed take their new values, and yours win where you
      both changed one.
    </Notice>
  );
}
