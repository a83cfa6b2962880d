import type { Gender } from '@serendip/proto';
import { useId } from 'react';
import { FieldErrors } from '../../shared/forms/TextField';

const OPTIONS: { value: Gender; label: string }[] = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
];

interface GenderChoiceProps {
  value: Gender | '';
  onChange: (value: Gender) => void;
  errors?: readonly string[];
}

/** Male or Female as two radio tiles in one labelled group. */
export function GenderChoice({ value, onChange, errors = [] }: GenderChoiceProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = errors.length > 0;
  return (
    <fieldset className={invalid ? 'field-group field-group--invalid' : 'field-group'}>
      <legend className="field-group__legend">Gender</legend>
      <div className="choice-tiles">
        {OPTIONS.map((option) => (
          <label key={option.value} className="choice-tile">
            <input
              type="radio"
              name="gender"
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              required
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? errorId : undefined}
            />
            {option.label}
          </label>
        ))}
      </div>
      <FieldErrors id={errorId} errors={errors} />
    </fieldset>
  );
}
