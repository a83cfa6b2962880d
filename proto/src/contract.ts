import type { z } from 'zod/mini';

/** A message checked against its contract: the typed value, or why it is refused. */
export type ContractCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Checks what crossed a process boundary (the bus, the SFU's RPC, an HTTP answer) against its schema. The reason
 * names the field and what it should be, never the value sent: bus messages carry personal data (DESIGN.md), and
 * the reason goes to logs. The wording is ours (zod/mini ships no messages), so it reads the same in every process.
 */
export function checkContract<S extends z.ZodMiniType>(schema: S, data: unknown): ContractCheck<z.output<S>> {
  const result = schema.safeParse(data, { error: describeIssue });
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues.slice(0, 3).map((issue) => `${fieldOf(issue.path)}: ${issue.message}`);
  const more = result.error.issues.length - problems.length;
  return { ok: false, reason: problems.join('; ') + (more > 0 ? ` (and ${more} more)` : '') };
}

/** `producers[0].kind`; the whole message when the problem is not in one field. */
function fieldOf(path: PropertyKey[]): string {
  if (path.length === 0) return 'the message';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

const EXPECTED: Record<string, string> = { int: 'whole number', record: 'object' };
const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);
const listed = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

// Messages a schema sets itself (a refinement's text) win over these (zod's precedence); `input` is read only
// to tell a missing field from a wrong one, and is never part of the message.
function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      return `must be ${article(EXPECTED[issue.expected] ?? issue.expected)}`;
    case 'too_small': {
      const { origin, minimum } = issue;
      if (origin === 'string') return minimum === 1 ? 'must not be empty' : `must have at least ${minimum} characters`;
      if (origin === 'array') return `must have at least ${minimum} items`;
      return issue.inclusive === false ? `must be more than ${minimum}` : `must be at least ${minimum}`;
    }
    case 'too_big': {
      const { origin, maximum } = issue;
      if (origin === 'string') return `must have at most ${maximum} characters`;
      if (origin === 'array') return `must have at most ${maximum} items`;
      return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${listed(issue.values)}` : `must be one of ${listed(issue.values)}`;
    case 'invalid_union':
      return 'options' in issue && Array.isArray(issue.options)
        ? `must be one of ${listed(issue.options)}`
        : 'matches none of the allowed shapes';
    case 'invalid_format':
      return `must be ${article(issue.format === 'regex' ? 'value in the expected format' : issue.format)}`;
    case 'unrecognized_keys':
      return `has unexpected fields ${listed(issue.keys)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return 'is not valid';
  }
}

/**
 * Whether a schema's type and a hand-written type are the same. Used as `type _X = Expect<TypesMatch<A, B>>`: any
 * difference fails to compile, so the two cannot drift apart.
 */
export type TypesMatch<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Expect<T extends true> = T;
