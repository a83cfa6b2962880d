import 'flag-icons/css/flag-icons.min.css';
import { type CountryCode, getCountryCallingCode } from 'libphonenumber-js';
import { ChevronDown } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Field, useFieldWiring } from '../../ui/Field';
import {
  changePhoneCountry,
  countryFromUserCountry,
  countryOptions,
  initialPhoneDraft,
  type PhoneDraft,
  phoneToE164,
  typePhone,
} from './phone-number';
import './profile.css';

/** spec 2: the phone field's placeholder, word for word. */
export const PHONE_PLACEHOLDER = '1 (702) 123-4567';

export interface PhoneFieldProps {
  /** The stored number (E.164) or null; read once, when the field mounts. */
  initialNumber: string | null;
  /** The user's country (an ISO alpha-2 code, 'DE'); picks the dropdown's default. */
  userCountry: string | null;
  /** Called with E.164 ('+17021234567'), or '' when the field is cleared. */
  onChange: (e164: string) => void;
  label?: string;
  disabled?: boolean;
  error?: ReactNode;
}

/**
 * A country dropdown and a number formatted by that country's mask as it is typed (spec 2, 5). The draft lives here;
 * the form only ever sees E.164.
 */
export function PhoneField({
  initialNumber,
  userCountry,
  onChange,
  label = 'Phone number',
  disabled = false,
  error,
}: PhoneFieldProps) {
  const [draft, setDraft] = useState<PhoneDraft>(() =>
    initialPhoneDraft(initialNumber, countryFromUserCountry(userCountry)),
  );
  const wiring = useFieldWiring({ id: undefined, hint: undefined, error, describedBy: undefined, invalid: undefined });

  const update = (next: PhoneDraft) => {
    setDraft(next);
    onChange(phoneToE164(next));
  };

  return (
    <Field {...wiring} label={label} error={error} className="phone-field" hint={undefined}>
      <div className="phone-field__row">
        {/* Closed, it shows the flag and calling code, which fit a phone; its menu names every country in full. */}
        <div className="phone-field__country">
          <span className="ui-field__input phone-field__country-face" aria-hidden="true">
            <span className={`fi fi-${draft.country.toLowerCase()} phone-field__flag`} />
            <span className="phone-field__code">+{getCountryCallingCode(draft.country)}</span>
            <ChevronDown className="phone-field__chevron" />
          </span>
          <select
            className="phone-field__country-select"
            aria-label="Phone country"
            value={draft.country}
            disabled={disabled}
            onChange={(event) => update(changePhoneCountry(draft, event.target.value as CountryCode))}
          >
            {countryOptions().map((option) => (
              <option key={option.code} value={option.code}>
                {option.name} +{option.callingCode}
              </option>
            ))}
          </select>
        </div>
        <input
          {...wiring.controlProps}
          className="ui-field__input phone-field__number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={PHONE_PLACEHOLDER}
          value={draft.text}
          disabled={disabled}
          onChange={(event) => update(typePhone(draft, event.target.value))}
        />
      </div>
    </Field>
  );
}
