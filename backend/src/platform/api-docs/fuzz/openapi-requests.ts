import fc from 'fast-check';
import { bodyValue, hostileValue, type Schema, schemaValue } from './schema-arbitraries.js';

export interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  'x-roles'?: string[];
  security?: object[];
}
export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** One request as it goes on the wire: the path and query already encoded (or deliberately not). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export function resolver(document: OpenApi): (ref: string) => Schema {
  return (ref) => {
    const schema = document.components.schemas[ref.replace('#/components/schemas/', '')];
    if (!schema) throw new Error(`unresolved ${ref}`);
    return schema;
  };
}

/** As a browser sends it: a lone surrogate (which encodeURIComponent refuses) goes as U+FFFD. */
function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  return encodeURIComponent(text.replace(/\p{Cs}/gu, '\ufffd'));
}

/** A path segment: an id the app knows, a well-formed one it does not, or something no route expects. */
function pathValue(knownIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...knownIds), weight: 3 },
    { arbitrary: fc.uuid().map(encode), weight: 1 },
    { arbitrary: hostileValue().map(encode), weight: 2 },
    {
      // Left as they are: malformed percent-encoding, dot segments, encoded slashes and NULs.
      arbitrary: fc.constantFrom('%', '%E0%A4%A', '%ZZ', '..', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%00', 'a%2Fb', '.'),
      weight: 1,
    },
    { arbitrary: fc.constantFrom('x'.repeat(5_000), '1', '0', '-1', 'null', 'undefined', '__proto__'), weight: 1 },
  );
}

function queryString(operation: Operation, resolve: (ref: string) => Schema): fc.Arbitrary<string> {
  const declared = (operation.parameters ?? []).filter((p) => p.in === 'query');
  const pairs = declared.map((p) =>
    fc.option(
      fc.oneof(
        schemaValue(p.schema ?? {}, resolve).map((v) => [`${p.name}=${encode(v)}`]),
        hostileValue().map((v) => [`${p.name}=${encode(v)}`]),
        // Repeated: Express hands the route an array.
        fc.tuple(hostileValue(), hostileValue()).map(([a, b]) => [`${p.name}=${encode(a)}`, `${p.name}=${encode(b)}`]),
        fc.constantFrom([`${p.name}`], [`${p.name}[a]=1`], [`${p.name}=%`]),
      ),
      { nil: [] as string[] },
    ),
  );
  const extra = fc.oneof(
    { arbitrary: fc.constant([] as string[]), weight: 4 },
    {
      arbitrary: fc
        .tuple(fc.string({ minLength: 1, maxLength: 8 }), hostileValue())
        .map(([k, v]) => [`${encode(k)}=${encode(v)}`]),
      weight: 1,
    },
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([values, more]) => {
    const all = [...values.flat(), ...more];
    return all.length ? `?${all.join('&')}` : '';
  });
}

const JSON_TYPE = 'application/json';

/** What goes in the body: the schema's JSON, JSON spoiled in transit, or the wrong kind of body. */
function content(operation: Operation, resolve: (ref: string) => Schema) {
  const types = Object.keys(operation.requestBody?.content ?? {});
  const jsonSchema = operation.requestBody?.content[JSON_TYPE]?.schema;
  const odd = fc.oneof(
    fc.constantFrom(
      { type: JSON_TYPE, body: '{"a":' },
      { type: JSON_TYPE, body: '[' },
      { type: JSON_TYPE, body: 'nul' },
      { type: JSON_TYPE, body: '' },
      { type: JSON_TYPE, body: '"\\ud800"' },
      { type: JSON_TYPE, body: '{"a":1,"a":2}' },
      { type: `${JSON_TYPE}; charset=utf-16`, body: '{}' },
      { type: 'text/plain', body: '{"emailAddress":"a@b.c"}' },
      { type: 'application/x-www-form-urlencoded', body: 'a=1&a=2&b[c]=3' },
      { type: 'multipart/form-data; boundary=x', body: '--x\r\n\r\n--x--' },
      { type: 'application/xml', body: '<a/>' },
      { type: JSON_TYPE, body: `{"a":"${'x'.repeat(3_000_000)}"}` },
    ),
    fc.string({ unit: 'binary', maxLength: 200 }).map((body) => ({ type: JSON_TYPE, body })),
    fc.uint8Array({ maxLength: 300 }).map((body) => ({ type: 'application/octet-stream', body })),
  );
  const choices: fc.Arbitrary<{ type?: string; body?: string | Uint8Array }>[] = [
    fc.constant({}),
    odd,
    hostileValue().map((v) => ({ type: JSON_TYPE, body: JSON.stringify(v) })),
  ];
  if (jsonSchema) {
    const good = bodyValue(jsonSchema, resolve).map((v) => ({ type: JSON_TYPE, body: JSON.stringify(v) }));
    choices.push(good, good, good);
  }
  const images = types.filter((type) => type.startsWith('image/'));
  if (images.length) {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]);
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 2_000 }),
      fc.uint8Array({ maxLength: 500 }).map((tail) => Uint8Array.from([...png, ...tail])),
      fc.uint8Array({ maxLength: 500 }).map((tail) => Uint8Array.from([...jpeg, ...tail])),
      fc.constant(new Uint8Array(0)),
    );
    const image = fc.tuple(fc.constantFrom(...images), bytes).map(([type, body]) => ({ type, body }));
    choices.push(image, image, image);
  }
  return fc.oneof(...choices);
}

/** Requests to one operation of the document; `knownIds` are ids of people and things the app has. */
export function operationRequests(
  document: OpenApi,
  method: string,
  path: string,
  knownIds: readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const operation = document.paths[path]![method]!;
  const resolve = resolver(document);
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc
    .record({
      segments: fc.tuple(...names.map(() => pathValue(knownIds))),
      query: queryString(operation, resolve),
      content: content(operation, resolve),
      // Now and then a forged or broken token, which comes before the session cookie.
      bearer: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 8 },
        { arbitrary: fc.constantFrom('x', 'null', 'eyJhbGciOiJub25lIn0.e30.', 'a'.repeat(4_000)), weight: 1 },
      ),
    })
    .map(({ segments, query, content: { type, body }, bearer }) => {
      let url = path;
      names.forEach((name, i) => (url = url.replace(`{${name}}`, segments[i]!)));
      const headers: Record<string, string> = {};
      if (type) headers['Content-Type'] = type;
      if (bearer) headers.Authorization = `Bearer ${bearer}`;
      return { method: method.toUpperCase(), url: `${url}${query}`, headers, body };
    });
}
