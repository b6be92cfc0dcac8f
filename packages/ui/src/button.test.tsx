import { createRef, useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

function SaveButton({ onSave }: { onSave: () => void }) {
  const [saving, setSaving] = useState(false);
  return (
    <Button
      variant="primary"
      loading={saving}
      onClick={() => {
        onSave();
        setSaving(true);
      }}
    >
      Save
    </Button>
  );
}

describe('Button', () => {
  it('returns a button of type "button" by default', () => {
    render(<Button>Cancel</Button>);
    expect(screen.getByRole('button', { name: 'Cancel' }).getAttribute('type')).toBe('button');
  });

  it('disables itself while loading so a second click does nothing', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(<SaveButton onSave={onSave} />);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });

    await user.click(button);
    await user.click(button);

    expect(onSave).toHaveBeenCalledTimes(1);
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });

  it('keeps its accessible name while the spinner shows', () => {
    render(<Button loading>Save</Button>);
    expect(screen.getByRole('button', { name: 'Save' }).querySelector('.otto-spinner')).not.toBeNull();
  });

  it('forwards the ref and native props', () => {
    const ref = createRef<HTMLButtonElement>();
    render(
      <Button ref={ref} type="submit" name="intent" value="save">
        Submit
      </Button>,
    );
    expect(ref.current?.type).toBe('submit');
    expect(ref.current?.name).toBe('intent');
  });
});
