import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/http-error';
import { errorsFromFailure, type FieldRules } from './form-errors';

const RULES: FieldRules<'emailAddress' | 'password'> = {
  emailAddress: { label: 'E-mail address' },
  password: { label: 'Password', alsoMatches: /password/i },
};

const badRequest = (message: string | string[]) =>
  new HttpError({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });

describe('errorsFromFailure', () => {
  it("places each message of a 400 under the field it names, in the field's words", () => {
    expect(
      errorsFromFailure(
        badRequest(['emailAddress must be an e-mail address', 'This password is one of the most common ones']),
        RULES,
        'fallback',
      ),
    ).toEqual({
      fields: {
        emailAddress: ['E-mail address must be an e-mail address.'],
        password: ['This password is one of the most common ones.'],
      },
      form: [],
    });
  });

  it("reads the service's 'field: problem' messages as the problem alone", () => {
    expect(
      errorsFromFailure(
        badRequest([
          'emailAddress: this e-mail address cannot be used',
          'token: this link has expired or was already used',
        ]),
        RULES,
        'fallback',
      ),
    ).toEqual({
      fields: { emailAddress: ['This e-mail address cannot be used.'] },
      form: ['This link has expired or was already used.'],
    });
  });

  it('does not take a longer property name for a shorter one', () => {
    expect(errorsFromFailure(badRequest('emailAddressConfirm is wrong'), RULES, 'fallback').fields).toEqual({});
  });

  it('keeps messages about no field for the form, and drops bare status phrases', () => {
    expect(errorsFromFailure(badRequest(['property role should not exist', 'Bad Request']), RULES, 'fallback')).toEqual(
      {
        fields: {},
        form: ['Property role should not exist.'],
      },
    );
  });

  it('falls back when the server said nothing useful', () => {
    const unauthorized = new HttpError({ status: 401, body: { statusCode: 401, message: 'Unauthorized' } });
    expect(errorsFromFailure(unauthorized, RULES, 'Wrong e-mail or password.')).toEqual({
      fields: {},
      form: ['Wrong e-mail or password.'],
    });
  });

  it('turns a 429 into how long to wait', () => {
    const limited = new HttpError({ status: 429, body: undefined, retryAfterSeconds: 61 });
    expect(errorsFromFailure(limited, RULES, 'fallback').form).toEqual(['Too many attempts. Try again in 2 minutes.']);
  });

  it('tells a request that got no answer from one that was refused', () => {
    expect(errorsFromFailure(new TypeError('Failed to fetch'), RULES, 'fallback').form).toEqual([
      "We couldn't reach Serendip. Check your connection and try again.",
    ]);
  });
});
