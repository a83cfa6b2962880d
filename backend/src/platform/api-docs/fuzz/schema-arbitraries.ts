import fc from 'fast-check';

/** A JSON Schema as the OpenAPI and AsyncAPI documents write one (loosely: only what the generators read). */
export type Schema = Record<string, unknown>;

/** Values no field of any schema expects: wrong types, limits, odd text, deep nesting. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(
      null,
      true,
      0,
      -1,
      1.5,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
      -Number.MAX_VALUE,
      1e308,
      5e-324,
      '',
      ' ',
      '0',
      'null',
      'NaN',
      '-1',
      '9'.repeat(400),
      '1e999',
      '\u0000',
      '\ud800',
      '👩‍👩‍👧‍👦'.repeat(300),
      '<script>alert(1)</script>',
      "' or 1=1 --",
      '../../../../etc/passwd',
      '%',
      '{"$gt":""}',
      [],
      {},
      { __proto__: { polluted: true } },
      JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
    ),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.constantFrom(1_000, 100_000, 1_200_000).map((n) => 'x'.repeat(n)),
    fc.integer({ min: 1, max: 2_000 }).map(deeplyNested),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

function deeplyNested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/**
 * Values the schema accepts (or is meant to), and its boundaries: a string of exactly maxLength and one more, a
 * number at its minimum and maximum and just past them. `resolve` follows `$ref`s.
 */
export function schemaValue(schema: Schema, resolve: (ref: string) => Schema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return schemaValue(resolve(schema.$ref), resolve, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[key]))
      return fc.oneof(...(schema[key] as Schema[]).map((s) => schemaValue(s, resolve, depth + 1)));
  if (Array.isArray(schema.allOf))
    return schemaValue(Object.assign({}, ...(schema.allOf as Schema[])) as Schema, resolve, depth);
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return stringValue(schema);
    case 'integer':
    case 'number':
      return numberValue(schema, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const items = Array.isArray(schema.prefixItems)
        ? fc.tuple(...(schema.prefixItems as Schema[]).map((s) => schemaValue(s, resolve, depth + 1)))
        : fc.array(schemaValue((schema.items as Schema) ?? {}, resolve, depth + 1), {
            minLength: (schema.minItems as number) ?? 0,
            maxLength: Math.min((schema.maxItems as number) ?? 5, 8) + 1,
          });
      return items;
    }
    case 'object':
      return objectValue(schema, resolve, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringValue(schema: Schema): fc.Arbitrary<string> {
  const max = (schema.maxLength as number | undefined) ?? 200;
  const min = (schema.minLength as number | undefined) ?? 0;
  const choices: fc.Arbitrary<string>[] = [
    fc.string({ minLength: min, maxLength: Math.min(max, 40) }),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 40) }),
    fc.constantFrom('a'.repeat(Math.min(max, 100_000)), 'a'.repeat(Math.min(max + 1, 100_001)), 'é'.repeat(max)),
  ];
  if (min > 0) choices.push(fc.constant('a'.repeat(min - 1)));
  if (typeof schema.pattern === 'string') {
    const pattern = safeRegExp(schema.pattern);
    if (pattern) choices.push(fc.stringMatching(pattern).filter((s) => s.length <= max));
  }
  switch (schema.format) {
    case 'email':
      choices.push(fc.emailAddress(), fc.constant(`${'a'.repeat(64)}@${'b'.repeat(250)}.com`));
      break;
    case 'uuid':
      choices.push(fc.uuid());
      break;
    case 'date':
      choices.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
      choices.push(fc.constantFrom('0000-00-00', '2024-02-30', '9999-12-31', '1900-01-01'));
      break;
    case 'date-time':
      choices.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
      break;
  }
  return fc.oneof(...choices);
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function numberValue(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? (schema.exclusiveMinimum as number | undefined);
  const max = (schema.maximum as number | undefined) ?? (schema.exclusiveMaximum as number | undefined);
  const edges = [min, max, min === undefined ? undefined : min - 1, max === undefined ? undefined : max + 1].filter(
    (n): n is number => n !== undefined,
  );
  const inside = integer
    ? fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000 })
    : fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true });
  return edges.length ? fc.oneof(inside, fc.constantFrom(...edges)) : inside;
}

function objectValue(schema: Schema, resolve: (ref: string) => Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  if (depth > 4) return fc.constant({});
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, s]) => [name, schemaValue(s, resolve, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: required.filter((name) => name in properties) });
}

/**
 * A body for an operation taking `schema`: a well-formed one, or a well-formed one spoiled in one place (a field of
 * the wrong type, a required field left out, an unknown field added), or something else entirely.
 */
export function bodyValue(schema: Schema, resolve: (ref: string) => Schema): fc.Arbitrary<unknown> {
  const good = schemaValue(schema, resolve);
  const target = typeof schema.$ref === 'string' ? resolve(schema.$ref) : schema;
  const fields = Object.keys((target.properties as object | undefined) ?? {});
  const spoiled: fc.Arbitrary<unknown>[] = [hostileValue()];
  if (fields.length) {
    const asObject = good.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
    spoiled.push(
      fc
        .tuple(asObject, fc.constantFrom(...fields), hostileValue())
        .map(([body, field, value]) => ({ ...body, [field]: value })),
      fc.tuple(asObject, fc.constantFrom(...fields)).map(([body, field]) => {
        const copy = { ...body };
        delete copy[field];
        return copy;
      }),
      fc
        .tuple(asObject, fc.string({ minLength: 1, maxLength: 12 }), hostileValue())
        .map(([body, field, value]) => ({ ...body, [field]: value })),
    );
  }
  return fc.oneof({ arbitrary: good, weight: 2 }, ...spoiled.map((arbitrary) => ({ arbitrary, weight: 1 })));
}
