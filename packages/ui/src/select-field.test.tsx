import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SelectField } from './select-field';
import { TextAreaField } from './text-area-field';

describe('SelectField and TextAreaField', () => {
  it('returns a select labelled by its label, with the given options', () => {
    render(
      <SelectField
        label="Status"
        defaultValue="inactive"
        options={[
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Inactive' },
        ]}
      />,
    );
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Status' });
    expect(select.value).toBe('inactive');
    expect(screen.getAllByRole('option')).toHaveLength(2);
  });

  it('announces a select error through aria-describedby', () => {
    render(<SelectField label="Status" error="Pick a status" options={[]} />);
    const select = screen.getByRole('combobox', { name: 'Status', description: 'Pick a status' });
    expect(select.getAttribute('aria-invalid')).toBe('true');
  });

  it('announces a textarea error through aria-describedby', () => {
    render(<TextAreaField label="Notes" error="Too long" />);
    const textarea = screen.getByRole('textbox', { name: 'Notes', description: 'Too long' });
    expect(textarea.tagName).toBe('TEXTAREA');
    expect(textarea.getAttribute('aria-invalid')).toBe('true');
  });
});
