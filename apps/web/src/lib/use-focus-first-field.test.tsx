// The cursor starts in a new form's first field, never away from a field the person is in already:
// a WebKit flow typed its first letter into the title before React ran the form's effect, which
// then moved the cursor to the customer field and took the rest of the title with it.
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFocusFirstField } from './use-focus-first-field';

function Form() {
  const ref = useFocusFirstField<HTMLFormElement>(true);
  return (
    <form ref={ref}>
      <input aria-label="first" />
      <input aria-label="second" />
    </form>
  );
}

describe('useFocusFirstField', () => {
  it('puts the cursor in the first field of a new form', () => {
    render(<Form />);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('first');
  });

  it('leaves the cursor in a field the person is in already when the form’s effect runs', () => {
    const view = render(
      <>
        <input aria-label="where the person types" />
      </>,
    );
    view.getByLabelText('where the person types').focus();
    view.rerender(
      <>
        <input aria-label="where the person types" />
        <Form />
      </>,
    );
    expect(document.activeElement?.getAttribute('aria-label')).toBe('where the person types');
  });
});
