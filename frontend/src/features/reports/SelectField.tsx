import { useFieldWiring, Field } from '../../ui/Field';

interface SelectFieldProps<V extends string> {
  label: string;
  value: V | '';
  options: { value: V; label: string }[];
  /** Shown (and not choosable) while nothing is chosen. */
  placeholder?: string;
  error?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}

/** A labelled native select: the phone's own picker on mobile, keyboard and screen readers for free. */
export function SelectField<V extends string>({
  label,
  value,
  options,
  placeholder,
  error,
  disabled,
  onChange,
}: SelectFieldProps<V>) {
  const wiring = useFieldWiring({ id: undefined, hint: undefined, error, describedBy: undefined, invalid: undefined });
  return (
    <Field {...wiring} label={label} hint={undefined} error={error} className="report-select">
      <select
        {...wiring.controlProps}
        className="ui-field__input report-select__control"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      >
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
