import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import { buildOpenApi } from './openapi';
import type { RestRoute } from './route';

const packageJson = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };

export function openApiDocument(routes: RestRoute[], schema: GraphQLSchema): Record<string, unknown> {
  return buildOpenApi(routes, schema, packageJson.version);
}

const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Timegate REST API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const docsInit = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/**
 * `/openapi.json` and a browsable page at `/docs`, served from the swagger-ui-dist package (no CDN).
 * Neither needs a key: the document describes the API, not anyone's data.
 */
export function apiDocsRouter(routes: RestRoute[], schema: GraphQLSchema): express.Router {
  const document = JSON.stringify(openApiDocument(routes, schema));
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(docsPage);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(docsInit);
  });
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.use('/docs/assets', express.static(assets, { index: false }));
  return router;
}
