import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Search } from 'lucide-react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { Input } from './Input';
import { Textarea } from './Textarea';

/** The texts aria-describedby points at, in order, as a screen reader reads them after the name. */
function descriptionOf(element: HTMLElement): string[] {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? `<missing #${id}>`);
}

describe('Input', () => {
  it('is named by its label and typed into', async () => {
    const user = userEvent.setup();
    render(<Input label="First name" placeholder="Enter first name" />);

    const input = screen.getByRole('textbox', { name: 'First name' });
    await user.type(input, 'Ada');

    expect((input as HTMLInputElement).value).toBe('Ada');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('wires the hint and the error to aria-describedby and marks itself invalid', () => {
    render(<Input label="Phone number" hint="Up to 15 digits." error="Enter a valid phone number." />);

    const input = screen.getByRole('textbox', { name: 'Phone number' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(input)).toEqual(['Up to 15 digits.', 'Enter a valid phone number.']);
  });

  it('drops the error from its description once the error is fixed', () => {
    const { rerender } = render(<Input label="E-mail" error="E-mail is required." />);

    rerender(<Input label="E-mail" />);

    const input = screen.getByRole('textbox', { name: 'E-mail' });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText('E-mail is required.')).toBeNull();
  });

  it('keeps a description the caller points at, before its own', () => {
    render(
      <>
        <p id="rules">Letters only.</p>
        <Input label="City" aria-describedby="rules" error="City is required." />
      </>,
    );

    expect(descriptionOf(screen.getByRole('textbox', { name: 'City' }))).toEqual([
      'Letters only.',
      'City is required.',
    ]);
  });

  it('keeps a hidden label for screen readers, and a decorative icon out of the name', () => {
    render(<Input label="Search countries" hideLabel startIcon={<Search />} placeholder="Search for a country..." />);

    const input = screen.getByRole('textbox', { name: 'Search countries' });
    expect(input.closest('.ui-field')?.querySelector('.ui-field__icon')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('passes its ref to the <input>, and className to the field', () => {
    const ref = createRef<HTMLInputElement>();
    render(<Input ref={ref} label="Bio" className="profile__bio" />);

    expect(ref.current).toBe(screen.getByRole('textbox', { name: 'Bio' }));
    expect(ref.current?.closest('.ui-field')?.classList.contains('profile__bio')).toBe(true);
  });
});

describe('Textarea', () => {
  it('is named by its label and wires its error the same way', async () => {
    const user = userEvent.setup();
    render(
      <Textarea
        label="Appeal"
        placeholder="Explain why you believe this ban should be reconsidered..."
        error="Appeal text must not be blank."
      />,
    );

    const textarea = screen.getByRole('textbox', { name: 'Appeal' });
    await user.type(textarea, 'It was a mistake.');

    expect((textarea as HTMLTextAreaElement).value).toBe('It was a mistake.');
    expect(textarea.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(textarea)).toEqual(['Appeal text must not be blank.']);
  });
});
