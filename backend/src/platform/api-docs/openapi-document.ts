import { RequestMethod, type Type } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PARAMTYPES_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { RawImageRoute } from '../http/body-parsing.js';
import { API_ANSWERS, type ExtraAnswers } from './api-answers.js';
import { contractSchemas, httpContracts, toJsonSchema } from './contract-schemas.js';

// @nestjs/swagger does not export its OpenAPI object types; what is touched here, loosely.
type SchemaObject = Record<string, unknown>;
interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  schema?: SchemaObject;
}
type ResponsesObject = Record<string, { description: string; content?: object }>;
interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: object;
  responses?: ResponsesObject;
  security?: object[];
  'x-roles'?: string[];
}

/** Who may call a route, as the guards on it say. */
export type Access = 'user' | 'staff' | 'admin';

export interface OpenApiOptions {
  /** Guard classes by what they let through (identity's guards: app.ts names them, platform knows no context). */
  guards: ReadonlyMap<unknown, Access>;
  /** The metadata key of routes a banned account may still call (they answer no 403 for the ban). */
  allowedWhileRestrictedKey: string;
  /** The access cookie's name on this deployment (`__Host-accessToken` under https). */
  accessCookie: string;
  /** Routes whose body is a picture's own bytes (platform/http/body-parsing.ts). */
  rawImageRoutes: readonly RawImageRoute[];
  /** Path items of routes answered outside Nest (tus), as their owners describe them. */
  outsideNest?: Record<string, object>;
}

/** The backend package's version. */
export const API_VERSION = '0.1.0';

/** The error answer body every refusal has (platform/http/domain-error.filter.ts, Nest's own exceptions). */
const ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['statusCode', 'message', 'error'],
  properties: {
    statusCode: { type: 'integer' },
    message: {
      description: "One line; a 400 lists its problems as 'field: problem' lines.",
      oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
    error: { type: 'string', description: "The status's name, e.g. 'Conflict'." },
    code: { type: 'string', description: 'A stable code for the client (present on domain refusals).' },
  },
};

const SESSION_SECURITY = [{ session: [] }, { bearer: [] }];

const ROLE_LINE: Record<Access, string> = {
  user: 'Signed in.',
  staff:
    'Staff only (moderator or admin) with two-factor login on and a session started with the mailed code; checked before the body is read.',
  admin:
    'Admins only, with two-factor login on and a session started with the mailed code; checked before the body is read.',
};

const FORBIDDEN_LINE: Record<Access, string | undefined> = {
  user: undefined,
  staff: 'Not a moderator or admin, two-factor login off, or a session not started with the mailed code.',
  admin: 'Not an admin, two-factor login off, or a session not started with the mailed code.',
};

const STATUS_NAME: Record<string, string> = {
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '409': 'Conflict',
  '413': 'Payload Too Large',
  '415': 'Unsupported Media Type',
  '422': 'Unprocessable Entity',
  '429': 'Too Many Requests',
  '503': 'Service Unavailable',
};

interface Route {
  controller: Type;
  handler: string;
  operationId: string;
  method: string;
}

/** Every route Nest will register, from the same metadata its router reads. */
export function controllerRoutes(app: INestApplication): Route[] {
  const routes: Route[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const handler of Object.getOwnPropertyNames(prototype)) {
        const fn = prototype[handler];
        if (handler === 'constructor' || typeof fn !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, fn) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod].toLowerCase();
        routes.push({ controller, handler, operationId: `${controller.name}_${handler}`, method });
      }
    }
  }
  return routes;
}

/**
 * The OpenAPI 3.1 document of every route: @nestjs/swagger finds the routes and their path and query parameters; the
 * rest is derived here from what the routes already declare, so nothing is written twice: request bodies from their
 * zod schemas (proto) or class-validator DTOs, answers from the methods' return types (contract-schemas.generated.json,
 * `npm run api:schemas`), the auth and 401/403 answers from the guards, 400 from a body or query, 404 from a path
 * parameter, and the rest from @ApiAnswers.
 */
export function buildOpenApiDocument(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Serendip API')
    .setVersion(API_VERSION)
    .setDescription(
      [
        'Every HTTP route of the Serendip backend. Sign in with `POST /api/auth/login` (or `/api/auth/login/verify` with',
        'the mailed code): the answer sets the HttpOnly access cookie, which every later call here sends. Writes must',
        'come from this site (`Origin` / `Sec-Fetch-Site`) with a JSON body. A refusal is `{statusCode, message, error,',
        'code?}`; a 429 carries `Retry-After`.',
        '',
        'The socket events (Socket.IO namespaces `/` and `/video`) are in the AsyncAPI document: [/api/docs-sockets.json](/api/docs-sockets.json).',
      ].join('\n'),
    )
    .addCookieAuth(options.accessCookie, { type: 'apiKey', in: 'cookie', name: options.accessCookie }, 'session')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The same access token, for API clients.' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  const operations = new Map<string, { path: string; operation: OperationObject }>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const value of Object.values(item)) {
      const operation = value as OperationObject;
      if (operation?.operationId) operations.set(operation.operationId, { path, operation });
    }
  }
  const schemas: Record<string, SchemaObject> = { ...(contractSchemas() as Record<string, SchemaObject>) };
  const dtoSchemas = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<
    string,
    SchemaObject
  >;
  for (const [name, schema] of Object.entries(dtoSchemas)) schemas[name] = { ...schema, additionalProperties: false };
  schemas.ErrorAnswer = ERROR_SCHEMA;
  const contracts = httpContracts();

  for (const route of controllerRoutes(app)) {
    const found = operations.get(route.operationId);
    if (!found) continue;
    const { path, operation } = found;
    const fn = (route.controller.prototype as Record<string, object>)[route.handler]!;
    const access = accessOf(route, fn, options);
    const args = routeArguments(route);
    const answers: ResponsesObject = {};

    operation.tags = [tagOf(path)];
    const contract = contracts[route.operationId];
    if (contract?.description) operation.description = contract.description;
    // 'setRole' -> 'Set role'; the method's doc comment, when it has one, is the description.
    operation.summary ??= humanize(route.handler);

    // Request body: the zod schema the route parses it with, or its class-validator DTO.
    const body = args.find((arg) => arg.type === RouteParamtypes.BODY);
    if (body) {
      const zodSchema = body.pipes.map((pipe) => (pipe as { bodySchema?: unknown }).bodySchema).find(Boolean);
      const dto = body.metatype?.name;
      // The pipe refuses unknown fields (whitelist, forbidNonWhitelisted): a DTO without rules takes no field.
      if (dto) schemas[dto] = { type: 'object', properties: {}, ...dtoSchemas[dto], additionalProperties: false };
      const schema = zodSchema ? (toJsonSchema(zodSchema, 'input') as SchemaObject) : dto ? ref(dto) : undefined;
      if (schema) operation.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    const raw = options.rawImageRoutes.find((image) => image.path === path && route.method === 'post');
    if (raw) {
      const schema = { type: 'string', format: 'binary', maxLength: raw.maxBytes };
      operation.requestBody = {
        required: true,
        description: `The picture's own bytes, at most ${raw.maxBytes} bytes.`,
        content: Object.fromEntries(raw.types.map((type) => [type, { schema }])),
      };
    }
    // A whole-query DTO: one parameter per property.
    const query = args.find((arg) => arg.type === RouteParamtypes.QUERY && arg.data === undefined);
    const queryDto = query?.metatype ? dtoSchemas[query.metatype.name] : undefined;
    if (queryDto) {
      const required = new Set((queryDto.required ?? []) as string[]);
      operation.parameters = [
        ...(operation.parameters ?? []).filter((p) => !(p.in === 'query' && !p.name)),
        ...Object.entries((queryDto.properties ?? {}) as Record<string, SchemaObject>).map(
          ([name, schema]): ParameterObject => ({
            name,
            in: 'query',
            required: required.has(name),
            schema: schema as SchemaObject,
          }),
        ),
      ];
    }
    // A whole-path DTO (`@Param() params`): its rules for each path parameter; any left is a plain string.
    const params = args.find((arg) => arg.type === RouteParamtypes.PARAM && arg.data === undefined);
    const paramsDto = params?.metatype ? dtoSchemas[params.metatype.name] : undefined;
    const named = (operation.parameters ?? []).filter((p) => p.name);
    for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
      if (named.some((p) => p.in === 'path' && p.name === name)) continue;
      const schema = ((paramsDto?.properties ?? {}) as Record<string, SchemaObject>)[name!] ?? { type: 'string' };
      named.push({ name: name!, in: 'path', required: true, schema });
    }
    operation.parameters = named;

    // The success answer, from the method's declared return type.
    const status = String((Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? defaultStatus(route));
    if (!contract) {
      // No entry: contract-schemas.generated.json is older than this route (the docs test says to regenerate it).
      answers[status] = { description: 'Not documented yet: run `npm run api:schemas`.' };
    } else if (contract.answer === 'json') {
      answers[status] = {
        description: 'Done.',
        content: { 'application/json': { schema: contract.schema as SchemaObject } },
      };
    } else if (contract.answer === 'binary') {
      answers[status] = {
        description: 'The file itself.',
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      };
    } else {
      answers[status] = { description: status === '204' ? 'Done; no body.' : 'Done.' };
    }

    const hasInput = body !== undefined || args.some((arg) => arg.type === RouteParamtypes.QUERY);
    const writes = ['post', 'put', 'patch', 'delete'].includes(route.method);
    if (hasInput || writes)
      answers['400'] = error(
        '400',
        writes
          ? "The body or query is not valid: one 'field: problem' line each (also a body that is not JSON)."
          : "The query is not valid: one 'field: problem' line each.",
      );
    if (access) {
      answers['401'] = error('401', 'Not signed in, or the session has ended.');
      const restricted =
        !Reflect.getMetadata(options.allowedWhileRestrictedKey, fn) &&
        !Reflect.getMetadata(options.allowedWhileRestrictedKey, route.controller);
      const role = FORBIDDEN_LINE[access];
      const banned = restricted
        ? `${role ? 'Also when the account' : 'The account'} is banned ('Your account is restricted.').`
        : undefined;
      const forbidden = [role, banned].filter(Boolean);
      if (forbidden.length > 0) answers['403'] = error('403', forbidden.join(' '));
      operation.security = SESSION_SECURITY;
      operation.description = [ROLE_LINE[access], operation.description].filter(Boolean).join(' ');
      if (access === 'staff' || access === 'admin')
        operation['x-roles'] = access === 'admin' ? ['admin'] : ['moderator', 'admin'];
    } else {
      operation.security = [];
    }
    if (args.some((arg) => arg.type === RouteParamtypes.PARAM) || path.includes('{'))
      answers['404'] = error('404', 'Nothing by that id (or not the caller’s to see).');
    const extra = Reflect.getMetadata(API_ANSWERS, fn) as ExtraAnswers | undefined;
    for (const [code, why] of Object.entries(extra ?? {})) {
      // An answer in the success shape (the health check's 503), or a refusal.
      if (typeof why !== 'string') answers[code] = { ...answers[status], description: why.description };
      else answers[code] = error(code, answers[code] ? `${answers[code].description} ${why}` : why);
    }
    operation.responses = answers;
  }
  Object.assign(document.paths, options.outsideNest ?? {});
  document.components = { ...document.components, schemas: schemas as never };
  return document;
}

function error(status: string, description: string) {
  const example = {
    statusCode: Number(status),
    message: status === '400' ? ['field: problem'] : '…',
    error: STATUS_NAME[status],
  };
  return { description, content: { 'application/json': { schema: ref('ErrorAnswer'), example } } };
}

const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` }) as SchemaObject;

function humanize(handler: string): string {
  const words = handler.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function defaultStatus(route: Route): number {
  return route.method === 'post' ? 201 : 200;
}

function tagOf(path: string): string {
  return path.split('/').filter(Boolean)[1] ?? 'api';
}

function accessOf(route: Route, fn: object, options: OpenApiOptions): Access | undefined {
  const guards = [
    ...((Reflect.getMetadata(GUARDS_METADATA, route.controller) as Type[] | undefined) ?? []),
    ...((Reflect.getMetadata(GUARDS_METADATA, fn) as Type[] | undefined) ?? []),
  ];
  const levels = guards.map((guard) => options.guards.get(guard)).filter((level) => level !== undefined);
  for (const level of ['admin', 'staff', 'user'] as const) if (levels.includes(level)) return level;
  return undefined;
}

interface RouteArgument {
  type: RouteParamtypes;
  data: unknown;
  pipes: unknown[];
  metatype: Type | undefined;
}

function routeArguments(route: Route): RouteArgument[] {
  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handler) ?? {}) as Record<
    string,
    { index: number; data: unknown; pipes: unknown[] }
  >;
  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, route.controller.prototype, route.handler) ?? []) as Type[];
  return Object.entries(metadata).map(([key, arg]) => {
    const metatype = types[arg.index];
    return {
      type: Number(key.split(':')[0]) as RouteParamtypes,
      data: arg.data,
      pipes: arg.pipes ?? [],
      metatype: metatype && metatype !== Object && metatype !== String ? metatype : undefined,
    };
  });
}
