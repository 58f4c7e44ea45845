// The browser side of the service: the operations console at /console (GET / leads there) and the
// GraphQL explorer at /graphql for a browser's GET. Both are static bundles built from src/console
// by `npm run build` and served from this process: no CDN, so they work on a network without
// internet, under the service's strict Content-Security-Policy (scripts from this origin only).
import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sessionTokenOf } from '../services/identity/session-credential';

const assets = path.resolve(__dirname, '..', '..', 'console', 'assets');

const page = (title: string, root: string, bundle: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/console/assets/${bundle}.css">
</head>
<body>
  <div id="${root}"></div>
  <script type="module" src="/console/assets/${bundle}.js"></script>
</body>
</html>
`;

// The console's icon: a clock face, drawn inline (no build step, no binary in the repository).
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#1f4e79"/><path d="M16 7v9l6 4" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/></svg>`;

const consolePage = page('Timegate console', 'app', 'main');
// With a session cookie (which the page's script cannot see) the console waits for the session
// instead of showing the sign-in form first; without one, the form is there at once.
const consolePageWithSession = consolePage.replace('<div id="app">', '<div id="app" data-session>');
const explorerPage = page('Timegate GraphQL explorer', 'graphiql', 'graphiql');

/** Whether the console was built (dist/console/assets); without it the pages say how to build it. */
export function consoleBuilt(): boolean {
  return fs.existsSync(path.join(assets, 'main.js'));
}

export function webRouter(): express.Router {
  const router = express.Router();
  const send = (html: string | ((req: Request) => string)) => (req: Request, res: Response) => {
    if (!consoleBuilt()) {
      res.status(503).type('text/plain').send('The console is not built: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(typeof html === 'string' ? html : html(req));
  };
  router.get('/', (_req, res) => res.redirect(302, '/console'));
  router.get('/favicon.svg', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(favicon);
  });
  // Browsers ask for /favicon.ico on pages that name no icon (the API docs, a JSON answer).
  router.get('/favicon.ico', (_req, res) => res.redirect(301, '/favicon.svg'));
  router.get(
    '/console',
    send((req) => (sessionTokenOf(req.headers.cookie) ? consolePageWithSession : consolePage)),
  );
  // A browser opening /graphql (asking for HTML, no query in the address) gets the explorer; every
  // GraphQL request, GET or POST, goes on to the API.
  router.get('/graphql', (req: Request, res: Response, next: NextFunction) => {
    if (req.query.query === undefined && req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html')
      send(explorerPage)(req, res);
    else next();
  });
  router.use('/console/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}
