import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Notice } from './notice';

describe('Notice', () => {
  it('returns a status with title and message for non-error tones', () => {
    render(
      <Notice tone="warning" title="Changes will not be kept">
        This browser cannot store data.
      </Notice>,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Changes will not be kept' + 'This browser cannot store data.');
  });

  it('returns an alert for the error tone', () => {
    render(<Notice tone="error">Could not load customers.</Notice>);
    expect(screen.getByRole('alert').textContent).toBe('Could not load customers.');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('renders the action slot', () => {
    render(<Notice tone="error" action={<button type="button">Retry</button>}>Failed.</Notice>);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
  });
});
