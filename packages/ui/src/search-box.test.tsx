import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchBox } from './search-box';

describe('SearchBox', () => {
  it('returns a type="search" input labelled by its visible label', () => {
    render(<SearchBox label="Search customers" value="" onChange={() => {}} />);
    const input = screen.getByRole('searchbox', { name: 'Search customers' });
    expect(input.getAttribute('type')).toBe('search');
    expect(screen.getByText('Search customers').tagName).toBe('LABEL');
  });

  it('calls onChange with the text typed', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    function Controlled() {
      const [value, setValue] = useState('');
      return (
        <SearchBox
          label="Search"
          value={value}
          onChange={(next) => {
            onChange(next);
            setValue(next);
          }}
        />
      );
    }
    render(<Controlled />);
    await user.type(screen.getByRole('searchbox'), "O'B");
    expect(onChange).toHaveBeenLastCalledWith("O'B");
  });

  it('announces "Searching" only while busy', () => {
    const { rerender } = render(<SearchBox label="Search" value="acme" onChange={() => {}} />);
    expect(screen.queryByRole('status')).toBeNull();
    rerender(<SearchBox label="Search" value="acme" onChange={() => {}} busy />);
    expect(screen.getByRole('status').textContent).toBe('Searching');
  });

  it('clears a non-empty search on Escape (in every browser, not only Chromium)', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<SearchBox label="Search" value="acme" onChange={onChange} />);
    await user.click(screen.getByRole('searchbox'));
    await user.keyboard('{Escape}');
    expect(onChange).toHaveBeenCalledWith('');
  });
});
