import { createRef } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from './text-field';

describe('TextField', () => {
  it('returns an input found by its visible label', () => {
    render(<TextField label="Email" name="email" />);
    const input = screen.getByLabelText('Email');
    expect(input.tagName).toBe('INPUT');
    expect(input.getAttribute('name')).toBe('email');
  });

  it('announces the error through aria-describedby and marks the input invalid', () => {
    render(<TextField label="Email" error="Enter a valid email address" />);
    const input = screen.getByRole('textbox', { name: 'Email', description: 'Enter a valid email address' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('describes the input by both hint and error, after any describedby of the caller', () => {
    render(<TextField label="Phone" hint="With country code" error="Too short" aria-describedby="extra" />);
    const input = screen.getByLabelText('Phone');
    const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe('extra');
    expect(document.getElementById(ids[1] ?? '')?.textContent).toBe('With country code');
    expect(document.getElementById(ids[2] ?? '')?.textContent).toBe('Too short');
  });

  it('leaves a valid field without aria-invalid or description', () => {
    render(<TextField label="Name" />);
    const input = screen.getByLabelText('Name');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });

  it('marks a required field as required and keeps the label name clean', () => {
    render(<TextField label="Name" required />);
    const input = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(input.required).toBe(true);
  });

  it('forwards the ref and uses a given id', () => {
    const ref = createRef<HTMLInputElement>();
    render(<TextField label="City" id="city" ref={ref} />);
    expect(ref.current).toBe(screen.getByLabelText('City'));
    expect(ref.current?.id).toBe('city');
  });
});
