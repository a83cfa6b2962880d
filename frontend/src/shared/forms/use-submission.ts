import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type FormErrors, hasErrors, NO_ERRORS } from './form-errors';

/**
 * The life of one form: its errors, whether it is sending, and focus moved to the first problem after a failed
 * try (so a keyboard or screen-reader user lands on what to fix). `submit` refuses a second send while one runs.
 */
export function useSubmission<F extends string>() {
  const formRef = useRef<HTMLFormElement>(null);
  const sendingRef = useRef(false);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<FormErrors<F>>(NO_ERRORS);
  const [failedTries, setFailedTries] = useState(0);

  useEffect(() => {
    if (failedTries === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-alert]')?.focus();
  }, [failedTries]);

  const fail = useCallback((next: FormErrors<F>) => {
    setErrors(next);
    setFailedTries((count) => count + 1);
  }, []);

  /**
   * Checks on the client first (`check` returns the problems, or nothing), then runs `send`; a throw from `send`
   * becomes errors through `describe`.
   */
  const submit = useCallback(
    async (
      event: FormEvent<HTMLFormElement>,
      check: () => FormErrors<F> | null,
      send: () => Promise<void>,
      describe: (error: unknown) => FormErrors<F>,
    ) => {
      event.preventDefault();
      if (sendingRef.current) return;
      const problems = check();
      if (problems && hasErrors(problems)) {
        fail(problems);
        return;
      }
      sendingRef.current = true;
      setSending(true);
      setErrors(NO_ERRORS);
      try {
        await send();
      } catch (error) {
        fail(describe(error));
      } finally {
        sendingRef.current = false;
        setSending(false);
      }
    },
    [fail],
  );

  return { formRef, sending, errors, submit, fail };
}
