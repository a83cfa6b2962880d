/** Polls until `check` holds, failing with `describe()` once `timeoutMs` has passed: no test waits forever. */
export async function eventually(
  check: () => boolean,
  timeoutMs: number,
  describe: () => string = () => 'condition',
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not met within ${timeoutMs} ms: ${describe()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
