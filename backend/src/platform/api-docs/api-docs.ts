import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { API_PREFIX } from '@serendip/proto';
import { buildAsyncApiDocument } from './asyncapi-document.js';
import { buildOpenApiDocument, type OpenApiOptions } from './openapi-document.js';

export const API_DOCS_PATHS = {
  ui: `/${API_PREFIX}/docs`,
  openApi: `/${API_PREFIX}/docs-json`,
  asyncApi: `/${API_PREFIX}/docs-sockets.json`,
} as const;

/**
 * Serves the API's documents for analysts, auditors and client authors: Swagger UI at /api/docs, the OpenAPI JSON at
 * /api/docs-json and the sockets' AsyncAPI JSON at /api/docs-sockets.json. Built on first request, not at start:
 * a node that is never asked pays nothing.
 */
export function serveApiDocs(app: NestExpressApplication, options: OpenApiOptions & { publicUrl: string }): void {
  SwaggerModule.setup(API_DOCS_PATHS.ui.slice(1), app, () => buildOpenApiDocument(app, options), {
    jsonDocumentUrl: API_DOCS_PATHS.openApi.slice(1),
    yamlDocumentUrl: `${API_DOCS_PATHS.ui.slice(1)}-yaml`,
    customSiteTitle: 'Serendip API',
    swaggerOptions: { withCredentials: true, persistAuthorization: false },
  });
  let asyncApi: object | undefined;
  (app.getHttpAdapter().getInstance() as Express).get(API_DOCS_PATHS.asyncApi, (_req, res) => {
    res.json((asyncApi ??= buildAsyncApiDocument(options)));
  });
}
