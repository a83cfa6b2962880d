import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { API_DOCS_PATHS } from './api-docs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

interface Operation {
  operationId: string;
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
  security?: object[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  'x-roles'?: string[];
}
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: object } };

/** What Express will answer: every route Nest registered on its router (not the docs' own). */
function registeredRoutes(app: TestApp['app']): { method: string; path: string }[] {
  const express = app.getHttpAdapter().getInstance() as unknown as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  return express.router.stack
    .flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods)
            .filter((method) => method !== '_all')
            .map((method) => ({ method, path: layer.route!.path }))
        : [],
    )
    .filter((route) => !route.path.startsWith(API_DOCS_PATHS.ui));
}

/** The event names of the proto socket maps, read from the TypeScript source itself. */
function protoSocketEvents(): string[] {
  const names: string[] = [];
  for (const [file, prefix] of [
    ['proto/src/socket/system.ts', 'System'],
    ['proto/src/socket/video.ts', 'Video'],
  ] as const) {
    const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isInterfaceDeclaration(statement)) continue;
      const direction = {
        [`${prefix}ClientToServerEvents`]: 'fromClient',
        [`${prefix}ServerToClientEvents`]: 'toClient',
      }[statement.name.text];
      if (!direction) continue;
      for (const member of statement.members) {
        const name =
          member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : '';
        names.push(`${prefix === 'System' ? '/' : '/video'} ${direction} ${name}`);
      }
    }
  }
  return names;
}

describe('API docs', () => {
  let test: TestApp;
  let document: OpenApi;

  beforeAll(async () => {
    test = await startTestApp();
    const res = await fetch(`${test.base}${API_DOCS_PATHS.openApi}`);
    expect(res.status).toBe(200);
    document = (await res.json()) as OpenApi;
  });

  afterAll(async () => {
    await test?.close();
  });

  it('documents every route Nest registered, with its method, its success answer and its refusals', () => {
    const routes = registeredRoutes(test.app);
    expect(routes.length).toBeGreaterThan(80);
    const problems: string[] = [];
    for (const route of routes) {
      const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[openApiPath]?.[route.method];
      const where = `${route.method.toUpperCase()} ${route.path}`;
      if (!operation) {
        problems.push(`${where}: not in the document`);
        continue;
      }
      const statuses = Object.keys(operation.responses);
      const success = statuses.filter((status) => /^2\d\d$/.test(status));
      const refusals = statuses.filter((status) => /^[45]\d\d$/.test(status));
      if (success.length !== 1) problems.push(`${where}: ${success.length} success answers`);
      for (const status of success)
        if (operation.responses[status]!.description.includes('Not documented'))
          problems.push(`${where}: answer not documented (npm run api:schemas)`);
      if (refusals.length === 0) problems.push(`${where}: no error answers`);
      if (operation.security?.length) {
        if (!statuses.includes('401')) problems.push(`${where}: signed-in route without 401`);
      }
      if (openApiPath.includes('{') && !statuses.includes('404')) problems.push(`${where}: path id without 404`);
      for (const [, name] of openApiPath.matchAll(/\{(\w+)\}/g))
        if (!operation.parameters?.some((p) => p.in === 'path' && p.name === name))
          problems.push(`${where}: no path parameter ${name}`);
    }
    expect(problems).toEqual([]);
  });

  it('marks signed-in, staff and admin routes and what each refuses', () => {
    const login = document.paths['/api/auth/login']!.post!;
    expect(login.security).toEqual([]);
    expect(login.requestBody?.content['application/json']?.schema).toMatchObject({
      $ref: '#/components/schemas/LoginDto',
    });
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '400', '429']));

    const feed = document.paths['/api/feed/posts']!;
    expect(feed.get!.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(Object.keys(feed.get!.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    // A zod-validated body is documented from the same zod schema.
    expect(feed.post!.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });

    // A picture's own bytes, in the types the route takes.
    const image = document.paths['/api/feed/images']!.post!;
    expect(Object.keys(image.requestBody!.content)).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(Object.keys(image.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '429']));

    // The picture's tus routes, answered before Nest, are in it too.
    expect(Object.keys(document.paths['/api/uploads/avatars/{uploadId}']!).sort()).toEqual(['delete', 'head', 'patch']);
    expect(document.paths['/api/uploads/avatars']!.post!.security).toEqual([{ session: [] }, { bearer: [] }]);

    const role = document.paths['/api/dash/users/{userId}/role']!.post!;
    expect(role['x-roles']).toEqual(['admin']);
    expect(Object.keys(role.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '409']));
  });

  it('resolves every schema reference in the document', () => {
    const text = JSON.stringify(document);
    const refs = new Set([...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)/g)].map((match) => match[1]!));
    const missing = [...refs].filter((name) => !(name in document.components.schemas));
    expect(missing).toEqual([]);
  });

  it('serves Swagger UI under the CSP', async () => {
    const res = await fetch(`${test.base}${API_DOCS_PATHS.ui}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('documents every event of the proto socket maps in the AsyncAPI document', async () => {
    const res = await fetch(`${test.base}${API_DOCS_PATHS.asyncApi}`);
    expect(res.status).toBe(200);
    const asyncApi = (await res.json()) as {
      asyncapi: string;
      channels: Record<string, { address: string; messages: Record<string, { name: string; payload?: unknown }> }>;
      operations: Record<string, { action: string }>;
    };
    expect(asyncApi.asyncapi).toBe('3.0.0');
    // The handshakes, from the schemas the gateways parse them with.
    expect(asyncApi.channels.system).toMatchObject({
      bindings: { ws: { query: { properties: { userId: {}, device: { enum: ['mobile', 'desktop'] } } } } },
    });
    expect(asyncApi.channels.video).toMatchObject({
      'x-handshake-auth': { schema: { properties: { matchId: {}, fresh: {} } } },
    });
    const documented = Object.values(asyncApi.channels).flatMap((channel) =>
      Object.entries(channel.messages)
        .filter(([key]) => !key.endsWith('_ack'))
        .map(([key, message]) => `${channel.address} ${key.split('_')[0]} ${message.name}`),
    );
    const events = protoSocketEvents();
    expect(events.length).toBeGreaterThan(50);
    expect(documented.sort()).toEqual(events.sort());
    const refs = new Set(
      [...JSON.stringify(asyncApi).matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)/g)].map((m) => m[1]!),
    );
    const schemas = (asyncApi as unknown as { components: { schemas: object } }).components.schemas;
    expect([...refs].filter((name) => !(name in schemas))).toEqual([]);
  });
});

describe('API docs in production', () => {
  let test: TestApp;

  afterAll(async () => {
    await test?.close();
  });

  it('are not served unless API_DOCS=true', async () => {
    test = await startTestApp({ API_DOCS: 'false' });
    for (const docPath of Object.values(API_DOCS_PATHS)) {
      expect((await fetch(`${test.base}${docPath}`)).status, docPath).toBe(404);
    }
  });
});

describe('contract-schemas.generated.json', () => {
  it('is what scripts/api-schemas.mjs makes of the current routes and socket maps', () => {
    // Stale after a new route or a changed answer type: `npm run api:schemas` writes it again.
    expect(() =>
      execFileSync(process.execPath, [path.join(root, 'scripts/api-schemas.mjs'), '--check'], {
        cwd: root,
        stdio: 'pipe',
      }),
    ).not.toThrow();
  }, 120_000);
});
