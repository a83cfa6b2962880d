import { TextField } from '../../shared/forms/TextField';
import { PasswordRules } from './PasswordRules';

/** The e-mail field of every auth form: typed for a phone's e-mail keyboard, never auto-capitalised. */
export function EmailField(props: {
  label: string;
  /** `username` on login (lets password managers pair it), `email` elsewhere. */
  autoComplete: 'email' | 'username';
  value: string;
  onChange: (value: string) => void;
  errors?: readonly string[];
}) {
  return (
    <TextField
      name="emailAddress"
      label={props.label}
      type="email"
      inputMode="email"
      autoComplete={props.autoComplete}
      autoCapitalize="none"
      spellCheck={false}
      required
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      errors={props.errors}
    />
  );
}

/** A new password with its rules shown as they are met, and its confirmation (sign-up, reset). */
export function NewPasswordFields(props: {
  name: 'password' | 'newPassword';
  labels: { password: string; confirm: string };
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  errors: { password?: readonly string[]; confirm?: readonly string[] };
}) {
  return (
    <>
      <TextField
        name={props.name}
        label={props.labels.password}
        type="password"
        autoComplete="new-password"
        required
        revealable
        value={props.password}
        onChange={(event) => props.onPassword(event.target.value)}
        hint={<PasswordRules password={props.password} />}
        errors={props.errors.password}
      />
      <TextField
        name="confirmPassword"
        label={props.labels.confirm}
        type="password"
        autoComplete="new-password"
        required
        value={props.confirm}
        onChange={(event) => props.onConfirm(event.target.value)}
        errors={props.errors.confirm}
      />
    </>
  );
}
