import { Button, Notice } from '@otto/ui';
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

/** The form's submit button: shows progress and cannot be pressed again while saving. */
export function SaveButton({ saving, label }: { saving: boolean; label: string }) {
  return (
    <div className="otto-form-actions">
      <Button type="submit" variant="primary" loading={saving} {...shortcutHint(['Mod', 'Enter'])}>
        {saving ? 'Saving…' : label}
      </Button>
    </div>
  );
}
