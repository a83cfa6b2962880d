import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PhoneField } from './PhoneField';

function renderPhone(userCountry: string | null, initialNumber: string | null = null) {
  const onChange = vi.fn<(e164: string) => void>();
  render(<PhoneField initialNumber={initialNumber} userCountry={userCountry} onChange={onChange} />);
  return {
    onChange,
    country: () => screen.getByLabelText<HTMLSelectElement>('Phone country'),
    number: () => screen.getByLabelText<HTMLInputElement>('Phone number'),
  };
}

describe('phone field (spec 2, 5)', () => {
  it("defaults the country to the user's ISO code", () => {
    const { country, number } = renderPhone('DE');

    expect(country().value).toBe('DE');
    expect(country().selectedOptions[0]?.textContent).toBe('Germany +49');
    expect(number().placeholder).toBe('1 (702) 123-4567');
  });

  it('shows the chosen country by flag and calling code (short enough for a phone), its menu by full name', async () => {
    const { country, number } = renderPhone('US');
    const face = () => country().parentElement?.querySelector('.phone-field__country-face');

    expect(face()?.textContent).toBe('+1');
    expect(face()?.querySelector('.fi')?.classList.contains('fi-us')).toBe(true);
    expect(country().selectedOptions[0]?.textContent).toBe('United States +1');
    expect(country().getAttribute('aria-label')).toBe('Phone country');

    await userEvent.selectOptions(country(), 'GB');
    expect(face()?.textContent).toBe('+44');
    expect(face()?.querySelector('.fi')?.classList.contains('fi-gb')).toBe(true);
    expect(number().value).toBe('');
  });

  it('falls back to the US when the country is unknown or unmatched', () => {
    const { country } = renderPhone('Atlantis');
    expect(country().value).toBe('US');
  });

  it("shows a stored number under its own country, whatever the user's", () => {
    const { country, number } = renderPhone('DE', '+17021234567');

    expect(country().value).toBe('US');
    expect(number().value).toBe('(702) 123-4567');
  });

  it('formats as typed, keeps at most 15 digits and reports E.164', async () => {
    const { number, onChange } = renderPhone('US');

    await userEvent.type(number(), '7021234567');
    expect(number().value).toBe('(702) 123-4567');
    expect(onChange).toHaveBeenLastCalledWith('+17021234567');

    await userEvent.clear(number());
    expect(onChange).toHaveBeenLastCalledWith('');
    await userEvent.type(number(), '12345678901234567890');
    expect(number().value.replace(/\D/g, '')).toHaveLength(15);
  });

  it('keeps the number when another country is picked, under its calling code', async () => {
    const { country, number, onChange } = renderPhone('US');
    await userEvent.type(number(), '3012345678');

    await userEvent.selectOptions(country(), 'DE');

    expect(country().value).toBe('DE');
    expect(onChange).toHaveBeenLastCalledWith('+493012345678');
  });
});
