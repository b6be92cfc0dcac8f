import { Button, Notice, Spinner } from '@otto/ui';
import { shortcutHint } from './shortcuts/shortcut-list';

/** Why a save failed, in words, above the form. */
export function FormFailure({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Notice tone="error" title="Not saved">
      {message}
    </Notice>
  );
}

/**
 * The form's submit button: shows progress and does nothing when pressed again while saving. It
 * stays enabled (aria-disabled), so focus stays on it through the save instead of falling to the
 * page (a disabled button loses focus).
 */
export function SaveButton({ saving, label }: { saving: boolean; label: string }) {
  return (
    <div className="otto-form-actions">
      <Button
        type="submit"
        variant="primary"
        aria-disabled={saving || undefined}
        aria-busy={saving || undefined}
        {...shortcutHint(['Mod', 'Enter'])}
      >
        {saving && <Spinner size="sm" />}
        {saving ? 'Saving…' : label}
      </Button>
    </div>
  );
}
