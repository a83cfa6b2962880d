import { isHttpError } from '../http/http-error';

/** How a form's field is named to the user, and which server messages belong to it. */
export interface FieldRule {
  label: string;
  /**
   * Server messages about this field that do not start with its property name (class-validator's do: `emailAddress
   * must be ...`), such as the password policy's 'This password is one of the most common ones'.
   */
  alsoMatches?: RegExp;
}

export type FieldRules<F extends string> = Record<F, FieldRule>;

export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string[]>>;
  /** What belongs to no single field: shown above the submit button. */
  form: string[];
}

export const NO_ERRORS: FormErrors<never> = { fields: {}, form: [] };

export const FORM_MESSAGES = {
  unreachable: "We couldn't reach Serendip. Check your connection and try again.",
  tooManyAttemptsSoon: 'Too many attempts. Please wait a moment and try again.',
} as const;

export function hasErrors<F extends string>(errors: FormErrors<F>): boolean {
  return errors.form.length > 0 || Object.values<string[] | undefined>(errors.fields).some((list) => !!list?.length);
}

export function tooManyAttempts(retryAfterSeconds: number | null): string {
  if (retryAfterSeconds === null || retryAfterSeconds <= 0) return FORM_MESSAGES.tooManyAttemptsSoon;
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

// Nest's bare status phrases (`{ statusCode: 401, message: 'Unauthorized' }`) tell the user nothing.
const STATUS_PHRASES = new Set([
  'bad request',
  'unauthorized',
  'forbidden',
  'not found',
  'conflict',
  'too many requests',
  'internal server error',
]);

/**
 * A failed request as form errors: the server's 400 `message` array placed under the fields it names, anything
 * else above the button. `fallback` is said when the server gave no words of its own.
 */
export function errorsFromFailure<F extends string>(
  error: unknown,
  rules: FieldRules<F>,
  fallback: string,
): FormErrors<F> {
  if (!isHttpError(error)) {
    // fetch rejects with a TypeError when there is no answer at all.
    return { fields: {}, form: [error instanceof TypeError ? FORM_MESSAGES.unreachable : fallback] };
  }
  if (error.status === 429) return { fields: {}, form: [tooManyAttempts(error.retryAfterSeconds)] };

  const result: FormErrors<F> = { fields: {}, form: [] };
  for (const message of error.messages) {
    if (STATUS_PHRASES.has(message.trim().toLowerCase())) continue;
    const field = fieldOf(message, rules);
    if (field === null) result.form.push(sentence(withoutFieldPrefix(message)));
    else (result.fields[field] ??= []).push(sentence(inFieldWords(message, field, rules[field])));
  }
  if (!hasErrors(result)) result.form.push(fallback);
  return result;
}

function fieldOf<F extends string>(message: string, rules: FieldRules<F>): F | null {
  const fields = Object.keys(rules) as F[];
  const named = fields.find((field) => startsWithWord(message, field));
  if (named) return named;
  return fields.find((field) => rules[field].alsoMatches?.test(message)) ?? null;
}

function startsWithWord(message: string, word: string): boolean {
  return message.toLowerCase().startsWith(word.toLowerCase()) && !/\w/.test(message.charAt(word.length));
}

/**
 * The two shapes the server writes: class-validator's 'emailAddress must be an e-mail address' reads 'E-mail address
 * must be an e-mail address'; the service's 'username: this username is taken' reads 'this username is taken'.
 */
function inFieldWords(message: string, field: string, rule: FieldRule): string {
  if (!startsWithWord(message, field)) return message;
  const rest = message.slice(field.length);
  return rest.startsWith(':') ? rest.slice(1) : `${rule.label}${rest}`;
}

/** 'token: this link has expired' about a field the form does not show reads 'this link has expired'. */
function withoutFieldPrefix(message: string): string {
  return /^[A-Za-z_]\w*:\s+(\S.*)$/.exec(message)?.[1] ?? message;
}

function sentence(message: string): string {
  const text = message.trim();
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
