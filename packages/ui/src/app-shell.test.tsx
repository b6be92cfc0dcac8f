import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppShell } from './app-shell';
import { NavList } from './nav-list';

function renderShell(banner?: string) {
  return render(
    <AppShell
      brand={<a href="/">Otto</a>}
      nav={
        <NavList label="Main">
          <a href="/customers" aria-current="page">
            Customers
          </a>
          <a href="/jobs">Jobs</a>
        </NavList>
      }
      banner={banner}
    >
      <h1>Customers</h1>
    </AppShell>,
  );
}

describe('AppShell', () => {
  it('returns a skip link that targets the main landmark', () => {
    renderShell();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    const main = screen.getByRole('main');
    expect(skip.getAttribute('href')).toBe(`#${main.id}`);
    expect(main.id).toBe('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe('Customers');
  });

  it('puts each nav link in its own list item inside a labelled nav', () => {
    renderShell();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const items = within(nav).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Customers', 'Jobs']);
  });

  it('shows the banner outside main only when given', () => {
    const { rerender } = renderShell();
    expect(screen.queryByText('Changes will not be kept')).toBeNull();
    rerender(
      <AppShell brand="Otto" nav={null} banner="Changes will not be kept">
        page
      </AppShell>,
    );
    expect(screen.getByText('Changes will not be kept').closest('main')).toBeNull();
  });

  it('folds the navigation behind a Menu button that opens, closes on Escape and after a link', async () => {
    const user = userEvent.setup();
    renderShell();
    const button = screen.getByRole('button', { name: 'Menu' });
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(panel.hasAttribute('data-open')).toBe(false);
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hasAttribute('data-open')).toBe(true);
    screen.getByRole('link', { name: 'Jobs' }).focus();
    await user.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    await user.click(button);
    await user.click(screen.getByRole('link', { name: 'Jobs' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
