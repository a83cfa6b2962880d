#!/usr/bin/env node
/**
 * Writes backend/src/platform/api-docs/contract-schemas.generated.json: the JSON Schemas of what the API answers and
 * what the sockets carry, taken from the TypeScript types themselves (most answers in proto are types, with no runtime
 * schema to ask). Every controller route's answer is its method's declared return type; every socket event's payload
 * and acknowledgement come from the event maps in proto/src/socket. Run it after changing a route or a contract:
 * `npm run api:schemas` (a backend test fails while the file is stale).
 *
 * `--check` only compares, exits 1 when the file is stale.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import {
  BaseType,
  createFormatter,
  createParser,
  createProgram,
  DEFAULT_CONFIG,
  SchemaGenerator,
} from 'ts-json-schema-generator';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = path.join(root, 'backend/src/platform/api-docs/contract-schemas.generated.json');
const HTTP_METHODS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Head', 'Options']);
/** The socket maps: namespace, file, and the interfaces named in it. */
const SOCKET_MAPS = [
  {
    namespace: '/',
    file: 'proto/src/socket/system.ts',
    clientToServer: 'SystemClientToServerEvents',
    serverToClient: 'SystemServerToClientEvents',
  },
  {
    namespace: '/video',
    file: 'proto/src/socket/video.ts',
    clientToServer: 'VideoClientToServerEvents',
    serverToClient: 'VideoServerToClientEvents',
    /** Not an event's payload, but what a refused handshake's connect_error carries. */
    named: ['VideoHandshakeRefusal'],
  },
];

function sourceFiles(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.includes('.spec.'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const docOf = (node) =>
  ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((jsDoc) => ts.getTextOfJSDocComment(jsDoc.comment) ?? '')
    .join('\n')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

const isExported = (node) => (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

const decoratorName = (decorator) => {
  const call = decorator.expression;
  return ts.isCallExpression(call) && ts.isIdentifier(call.expression) ? call.expression.text : undefined;
};

/** The file's imports, with relative paths made absolute so that a file elsewhere can hold them. */
function importsOf(source, file) {
  const local = source.statements
    .filter((node) => (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && isExported(node))
    .map((node) => node.name.text);
  const own =
    local.length > 0
      ? [`import type { ${local.join(', ')} } from ${JSON.stringify(file.replace(/\.ts$/, '.js'))};`]
      : [];
  return source.statements
    .filter(ts.isImportDeclaration)
    .map((declaration) => {
      const specifier = declaration.moduleSpecifier.text;
      const absolute = specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : specifier;
      return declaration.getText(source).replace(JSON.stringify(specifier).slice(1, -1), absolute);
    })
    .concat(own)
    .join('\n');
}

/** Every route method of every @Controller class under backend/src, with what its declared return type says. */
export function controllerRoutes() {
  const routes = [];
  for (const file of sourceFiles('backend/src')) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('@Controller')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const node of source.statements) {
      if (!ts.isClassDeclaration(node) || !node.name) continue;
      if (!(ts.getDecorators(node) ?? []).some((d) => decoratorName(d) === 'Controller')) continue;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        if (!(ts.getDecorators(member) ?? []).some((d) => HTTP_METHODS.has(decoratorName(d)))) continue;
        const returns = member.type?.getText(source) ?? 'void';
        routes.push({
          operationId: `${node.name.text}_${member.name.text}`,
          // ts-json-schema-generator reads a Promise through the checker, which loses zod-inferred aliases.
          returns: returns.replace(/^Promise<([\s\S]*)>$/, '$1'),
          imports: importsOf(source, file),
          className: node.name.text,
          method: member.name.text,
          file,
          description: docOf(member),
          answer: /StreamableFile|Buffer/.test(returns)
            ? 'binary'
            : /^(Promise<)?void>?$/.test(returns)
              ? 'none'
              : 'json',
        });
      }
    }
  }
  return routes.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** Every event of the socket maps, with its description (the member's doc comment). */
export function socketEvents() {
  const events = [];
  const program = ts.createProgram(
    SOCKET_MAPS.map((map) => path.join(root, map.file)),
    { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true },
  );
  const checker = program.getTypeChecker();
  for (const map of SOCKET_MAPS) {
    const file = path.join(root, map.file);
    const source = program.getSourceFile(file);
    for (const direction of ['clientToServer', 'serverToClient']) {
      const declaration = source.statements.find(
        (node) => ts.isInterfaceDeclaration(node) && node.name.text === map[direction],
      );
      if (!declaration) throw new Error(`${map.file} has no interface ${map[direction]}`);
      for (const member of declaration.members) {
        const name = ts.isIdentifier(member.name) ? member.name.text : member.name.text;
        const signature = member.type;
        const params = signature && ts.isFunctionTypeNode(signature) ? signature.parameters : [];
        const doc = docOf(member);
        const payload = params.find((param) => param.name.getText(source) !== 'ack');
        const ack = params.find((param) => param.name.getText(source) === 'ack');
        // The acknowledgement is a callback: what it is called with is the answer.
        const answered = ack
          ? checker.getNonNullableType(checker.getTypeAtLocation(ack)).getCallSignatures()[0]?.getParameters()[0]
          : undefined;
        events.push({
          namespace: map.namespace,
          direction,
          name,
          file,
          imports: importsOf(source, file),
          payload: payload?.type?.getText(source),
          ack: answered
            ? checker.typeToString(
                checker.getTypeOfSymbolAtLocation(answered, ack),
                source,
                ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
              )
            : undefined,
          ...(doc ? { description: doc } : {}),
        });
      }
    }
  }
  return events;
}

/**
 * A type that is `z.infer<typeof someSchema>` (the zod schema in proto is its source) is left to zod: the file names
 * the schema, and the backend asks zod for its JSON Schema (`z.toJSONSchema`), so both never drift apart.
 */
const ZOD_INFER = /^z\.(?:infer|output)<typeof (\w+)>$/;
class ZodRefType extends BaseType {
  constructor(alias, schema, property) {
    super();
    this.alias = alias;
    this.schema = schema;
    this.property = property;
  }
  getId() {
    return `zod-${this.alias}-${this.property ?? ''}`;
  }
}
class ZodInferParser {
  constructor(checker) {
    this.checker = checker;
  }
  supportsNode(node) {
    return (
      (ts.isTypeAliasDeclaration(node) && ZOD_INFER.test(node.type.getText())) || this.zodProperty(node) !== undefined
    );
  }
  createType(node) {
    if (ts.isTypeAliasDeclaration(node)) return new ZodRefType(node.name.text, ZOD_INFER.exec(node.type.getText())[1]);
    const { alias, property } = this.zodProperty(node);
    return new ZodRefType(alias.name.text, ZOD_INFER.exec(alias.type.getText())[1], property);
  }
  /** `SomeZodType['field']`: a pointer into that schema. */
  zodProperty(node) {
    if (!ts.isIndexedAccessTypeNode(node) || !ts.isTypeReferenceNode(node.objectType)) return undefined;
    if (!ts.isLiteralTypeNode(node.indexType) || !ts.isStringLiteral(node.indexType.literal)) return undefined;
    let symbol = this.checker.getSymbolAtLocation(node.objectType.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const alias = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
    if (!alias || !ZOD_INFER.test(alias.type.getText())) return undefined;
    return { alias, property: node.indexType.literal.text };
  }
}
class ZodRefFormatter {
  constructor(found) {
    this.found = found;
  }
  supportsType(type) {
    return type instanceof ZodRefType;
  }
  getDefinition(type) {
    this.found.set(type.alias, type.schema);
    return { $zod: type.property ? `${type.alias}/properties/${type.property}` : type.alias };
  }
  getChildren() {
    return [];
  }
}

const typeName = (event, part) =>
  `Socket_${event.namespace === '/' ? 'system' : event.namespace.slice(1)}_${event.direction}_${event.name.replace(/[^A-Za-z0-9]/g, '_')}_${part}`;

/** The schemas, as the committed file holds them (formatted). */
export async function generate() {
  const routes = controllerRoutes();
  const events = socketEvents();
  const dir = mkdtempSync(path.join(tmpdir(), 'api-schemas-'));
  const files = new Map();
  const lines = [];
  const add = (file, imports, line) => {
    if (!files.has(file)) files.set(file, [imports]);
    files.get(file).push(line);
    lines.push(line);
  };
  for (const route of routes.filter((route) => route.answer === 'json')) {
    add(route.file, route.imports, `export type ${route.operationId} = ${route.returns};`);
  }
  for (const event of events) {
    if (event.payload) add(event.file, event.imports, `export type ${typeName(event, 'payload')} = ${event.payload};`);
    if (event.ack) add(event.file, event.imports, `export type ${typeName(event, 'ack')} = ${event.ack};`);
  }
  for (const map of SOCKET_MAPS) {
    const file = path.join(root, map.file);
    for (const name of map.named ?? []) {
      add(
        file,
        `import type { ${name} } from ${JSON.stringify(file.replace(/\.ts$/, '.js'))};`,
        `export type ${name}_ = ${name};`,
      );
    }
  }
  [...files.values()].forEach((text, index) => writeFileSync(path.join(dir, `contracts-${index}.ts`), text.join('\n')));
  const definitions = {};
  const problems = [];
  const zod = new Map();
  try {
    const config = {
      ...DEFAULT_CONFIG,
      path: path.join(dir, '*.ts'),
      tsconfig: path.join(root, 'tsconfig.tests.json'),
      expose: 'export',
      topRef: true,
      jsDoc: 'basic',
      skipTypeCheck: true,
      additionalProperties: true,
      sortProps: true,
    };
    const program = createProgram(config);
    const generator = new SchemaGenerator(
      program,
      createParser(program, config, (parser) => parser.addNodeParser(new ZodInferParser(program.getTypeChecker()))),
      createFormatter(config, (formatter) => formatter.addTypeFormatter(new ZodRefFormatter(zod))),
      config,
    );
    for (const line of lines) {
      const name = /^export type (\w+)/.exec(line)[1];
      try {
        Object.assign(definitions, generator.createSchema(name).definitions);
      } catch (error) {
        problems.push(
          `${name}: ${String(error.message).split('\n')[0]} ${error.cause?.message ?? ''} ${error.node?.getText?.()?.slice(0, 200) ?? ''}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (problems.length > 0) throw new Error(`Cannot derive a schema for:\n${problems.join('\n')}`);
  const take = (name) => {
    const found = definitions[name];
    delete definitions[name];
    return found ?? null;
  };
  const http = Object.fromEntries(
    routes.map((route) => [
      route.operationId,
      {
        answer: route.answer,
        ...(route.answer === 'json' ? { schema: take(route.operationId) } : {}),
        ...(route.description ? { description: route.description } : {}),
      },
    ]),
  );
  const sockets = events.map((event) => ({
    namespace: event.namespace,
    direction: event.direction,
    name: event.name,
    ...(event.description ? { description: event.description } : {}),
    ...(event.payload ? { payload: take(typeName(event, 'payload')) } : {}),
    ...(event.ack ? { ack: take(typeName(event, 'ack')) } : {}),
  }));
  for (const name of SOCKET_MAPS.flatMap((map) => map.named ?? [])) take(`${name}_`);
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)));
  const json = JSON.stringify({ http, sockets, definitions: sorted, zod: Object.fromEntries([...zod].sort()) })
    .replaceAll('#/definitions/', '#/components/schemas/')
    .replace(/\{"\$zod":"([\w/]+)"\}/g, '{"$$ref":"#/components/schemas/$1"}');
  return prettier.format(json, { ...(await prettier.resolveConfig(OUTPUT)), filepath: OUTPUT });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const text = await generate();
  if (process.argv.includes('--check')) {
    const current = readFileSync(OUTPUT, 'utf8');
    if (current !== text) {
      process.stderr.write(`${path.relative(root, OUTPUT)} is stale: run npm run api:schemas\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT, text);
  }
  process.stdout.write(
    `${path.relative(root, OUTPUT)} ${process.argv.includes('--check') ? 'is up to date' : 'written'} (${Date.now() - started} ms)\n`,
  );
}
