import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Table } from './table';
import type { TableColumn } from './table';

interface Customer {
  id: string;
  name: string;
  email: string;
}

const columns: TableColumn<Customer>[] = [
  { key: 'name', header: 'Name', rowHeader: true, render: (c) => <a href={`/customers/${c.id}`}>{c.name}</a> },
  { key: 'email', header: 'Email', render: (c) => c.email },
];

const customers: Customer[] = [
  { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: '2', name: "Miles O'Brien", email: 'miles@example.com' },
];

describe('Table', () => {
  it('shows the empty state in place of rows when there are none', () => {
    render(
      <Table caption="Customers" columns={columns} rows={[]} getRowKey={(c) => c.id} emptyState="No customers yet" />,
    );
    const table = screen.getByRole('table', { name: 'Customers' });
    const cell = within(table).getByRole('cell', { name: 'No customers yet' });
    expect(cell.getAttribute('colspan')).toBe('2');
  });

  it('returns one row per item with the rendered cells', () => {
    render(<Table caption="Customers" columns={columns} rows={customers} getRowKey={(c) => c.id} />);
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[2]!).getByRole('rowheader').textContent).toBe("Miles O'Brien");
    expect(screen.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe('/customers/1');
    expect(screen.queryByText('No results')).toBeNull();
  });

  it('marks the table busy and shows a spinner while the first page loads', () => {
    render(<Table caption="Customers" columns={columns} rows={[]} getRowKey={(c) => c.id} loading />);
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText('Loading…')).toBeDefined();
    expect(screen.queryByText('No results')).toBeNull();
  });

  it('keeps the caption as the accessible name when it is visually hidden', () => {
    render(<Table caption="Customers" hideCaption columns={columns} rows={customers} getRowKey={(c) => c.id} />);
    expect(screen.getByRole('table', { name: 'Customers' })).toBeDefined();
    expect(screen.getByRole('region', { name: 'Customers' })).toBeDefined();
  });

  it('marks a table whose rows become cards on phones, and the columns left out of the cards', () => {
    const withHidden: TableColumn<Customer>[] = [...columns, { key: 'id', header: 'Id', hideInCard: true, render: (c) => c.id }];
    const { container } = render(<Table caption="Customers" columns={withHidden} rows={customers} getRowKey={(c) => c.id} cards />);
    expect(container.querySelector('.otto-table--cards')).not.toBeNull();
    const hidden = [...container.querySelectorAll('tbody .otto-table__not-in-card')].map((cell) => cell.textContent);
    expect(hidden).toEqual(['1', '2']);
    // Still one table with its rows for assistive tech: no second copy of the data.
    expect(screen.getAllByRole('link', { name: 'Ada Lovelace' })).toHaveLength(1);
  });
});
