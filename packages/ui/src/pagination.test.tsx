import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from './pagination';

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('Pagination', () => {
  it('shows "Page 2 of 5" inside a nav labelled Pagination', () => {
    render(<Pagination page={2} pageCount={5} onPageChange={() => {}} />);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(nav.textContent).toContain('Page 2 of 5');
    expect(screen.getByText('Page 2 of 5')).toBeDefined();
  });

  it('calls back with the previous and the next page', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    render(<Pagination page={2} pageCount={5} onPageChange={onPageChange} />);

    await user.click(button('Previous'));
    await user.click(button('Next'));

    expect(onPageChange.mock.calls).toEqual([[1], [3]]);
  });

  it('disables Previous on the first page and Next on the last', () => {
    const { rerender } = render(<Pagination page={1} pageCount={5} onPageChange={() => {}} />);
    expect(button('Previous').disabled).toBe(true);
    expect(button('Next').disabled).toBe(false);

    rerender(<Pagination page={5} pageCount={5} onPageChange={() => {}} />);
    expect(button('Previous').disabled).toBe(false);
    expect(button('Next').disabled).toBe(true);
  });

  it('returns "Page 1 of 1" with both buttons disabled when there are no pages', () => {
    render(<Pagination page={1} pageCount={0} onPageChange={() => {}} />);
    expect(screen.getByText('Page 1 of 1')).toBeDefined();
    expect(button('Previous').disabled).toBe(true);
    expect(button('Next').disabled).toBe(true);
  });

  it('shows the summary', () => {
    render(<Pagination page={1} pageCount={26} onPageChange={() => {}} summary="501 customers" />);
    expect(screen.getByText('501 customers')).toBeDefined();
  });
});
