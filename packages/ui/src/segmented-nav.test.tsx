import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SegmentedNav } from './segmented-nav';

describe('SegmentedNav', () => {
  it('returns one pressed button for the active item inside a labelled group', () => {
    render(
      <SegmentedNav
        label="Filter by status"
        items={[
          { key: 'all', label: 'All', count: 12, active: true, onSelect: () => {} },
          { key: 'active', label: 'Active', count: 7, active: false, onSelect: () => {} },
        ]}
      />,
    );
    expect(screen.getByRole('group', { name: 'Filter by status' })).toBeDefined();
    expect(screen.getByRole('button', { name: /^All\s*,\s*12$/, pressed: true })).toBeDefined();
    expect(screen.getByRole('button', { name: /^Active\s*,\s*7$/, pressed: false })).toBeDefined();
  });

  it('calls onSelect of the clicked item', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<SegmentedNav label="Filter" items={[{ key: 'a', label: 'Archived', active: false, onSelect }]} />);
    await user.click(screen.getByRole('button', { name: 'Archived' }));
    expect(onSelect).toHaveBeenCalledTimes(1);
  });
});
