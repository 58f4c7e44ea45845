// The SCIM 2.0 service provider at /scim/v2 (RFC 7644): discovery, Users and Groups of the company
// the caller's `scim` key is bound to. Thin: it authenticates, parses the query (filter, paging,
// projection), calls the identity services and answers `application/scim+json`.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { ScimError } from '../scim/errors';
import { resourceTypes, serviceProviderConfig } from '../scim/discovery';
import { parseFilter, type Filter } from '../scim/filter';
import { listResponse, parseListPage, parseProjection, project, shows, type ListPage, type Projection } from '../scim/projection';
import type { JsonObject } from '../scim/resource';
import { ENTERPRISE_USER, GROUP, USER, schemaResource, type SchemaDefinition } from '../scim/schemas';
import type { ContextFactory } from '../services/identity/request-context-factory';
import { finishWrite, recordWrite } from '../services/common/audit.service';
import { refuseDeepJson } from '../services/common/input-limits';
import { isScimPrincipal, type RequestContext } from '../context/request-context';
import { recordScimRequest } from '../services/provisioning/scim-activity.service';
import * as groups from '../services/provisioning/scim-groups.service';
import * as users from '../services/provisioning/scim-users.service';
import { toScimFailure } from './scim-errors';

export const SCIM_BASE_PATH = '/scim/v2';
const MEDIA_TYPE = 'application/scim+json; charset=utf-8';

type Handler = (ctx: RequestContext, req: Request, baseUrl: string) => Promise<{ status: number; body?: unknown; location?: string }>;

function query(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw ScimError.badRequest('invalidValue', `${name} is given once.`);
  return value;
}

function filterOf(req: Request): Filter | null {
  const text = query(req, 'filter');
  return text === undefined || text.trim() === '' ? null : parseFilter(text);
}

/** A resource (or list) shown with the request's attributes/excludedAttributes. */
function shown(req: Request, core: SchemaDefinition, resource: JsonObject): JsonObject {
  return project(resource, core, parseProjection({ attributes: query(req, 'attributes'), excludedAttributes: query(req, 'excludedAttributes') }));
}

const resourceRoutes = (core: SchemaDefinition, service: typeof users | typeof groups): Record<string, Handler> => {
  const s =
    service === users
      ? {
          list: (ctx: RequestContext, filter: Filter | null, page: ListPage, baseUrl: string, projection: Projection) =>
            users.listScimUsers(ctx, filter, page, baseUrl, { groups: shows(projection, USER, 'groups') }),
          get: users.getScimUser,
          create: users.createScimUser,
          replace: users.replaceScimUser,
          patch: users.patchScimUser,
          remove: users.deleteScimUser,
        }
      : {
          list: (ctx: RequestContext, filter: Filter | null, page: ListPage, baseUrl: string, projection: Projection) =>
            groups.listScimGroups(ctx, filter, page, baseUrl, { members: shows(projection, GROUP, 'members') }),
          get: groups.getScimGroup,
          create: groups.createScimGroup,
          replace: groups.replaceScimGroup,
          patch: groups.patchScimGroup,
          remove: groups.deleteScimGroup,
        };
  return {
    list: async (ctx, req, baseUrl) => {
      const page = parseListPage({ startIndex: query(req, 'startIndex'), count: query(req, 'count') });
      const projection = parseProjection({ attributes: query(req, 'attributes'), excludedAttributes: query(req, 'excludedAttributes') });
      const result = await s.list(ctx, filterOf(req), page, baseUrl, projection);
      return {
        status: 200,
        body: listResponse(
          result.resources.map((r) => project(r, core, projection)),
          result.totalResults,
          page,
        ),
      };
    },
    get: async (ctx, req, baseUrl) => ({ status: 200, body: shown(req, core, await s.get(ctx, req.params.id as string, baseUrl)) }),
    create: async (ctx, req, baseUrl) => {
      const created = await s.create(ctx, req.body, baseUrl);
      return { status: 201, body: shown(req, core, created), location: (created.meta as JsonObject).location as string };
    },
    replace: async (ctx, req, baseUrl) => ({ status: 200, body: shown(req, core, await s.replace(ctx, req.params.id as string, req.body, baseUrl)) }),
    patch: async (ctx, req, baseUrl) => ({ status: 200, body: shown(req, core, await s.patch(ctx, req.params.id as string, req.body, baseUrl)) }),
    remove: async (ctx, req) => {
      await s.remove(ctx, req.params.id as string);
      return { status: 204 };
    },
  };
};

const SCHEMAS = [USER, ENTERPRISE_USER, GROUP];

/** A body as the audit log keeps it: a password (a directory may send one) is never written down, in any case or PATCH form. */
function withoutPasswords(body: unknown): unknown {
  if (body === undefined) return undefined;
  return JSON.parse(JSON.stringify(body), function (this: Record<string, unknown>, key: string, value: unknown) {
    if (/^password$/i.test(key)) return '[redacted]';
    if (key === 'value' && typeof this.path === 'string' && /(^|:)password$/i.test(this.path)) return '[redacted]';
    return value;
  });
}

export function scimRouter(deps: { contextFactory: ContextFactory; logger: Logger; bodyLimitBytes: number }): Router {
  const router = express.Router({ caseSensitive: false });
  /**
   * Answers; a request of an authenticated directory is first noted as its last sync (a failure to
   * note it is logged, never the directory's problem).
   */
  const send = async (req: Request, res: Response, status: number, body?: unknown, headers: Record<string, string> = {}, error?: ScimError) => {
    const ctx = res.locals.scimContext as RequestContext | undefined;
    if (ctx) {
      await recordScimRequest(ctx, {
        method: req.method,
        path: req.path,
        status,
        ...(error ? { error: { scimType: error.scimType, detail: error.detail } } : {}),
      }).catch((recordError) => deps.logger.error({ err: recordError }, 'SCIM request not noted as the last sync'));
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (body === undefined) {
      res.status(status).end();
      return;
    }
    res.status(status).type(MEDIA_TYPE).send(JSON.stringify(body));
  };
  const fail = (req: Request, res: Response, error: unknown) => {
    const failure = toScimFailure(error, deps.logger);
    return send(req, res, failure.error.status, failure.error.toBody(), failure.headers, failure.error);
  };
  // Only a scim key may use the surface; the key is checked before the body is read.
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = await deps.contextFactory({ authorization: req.headers.authorization, requestId: res.locals.requestId });
      if (!isScimPrincipal(ctx.principal)) throw new ScimError(403, null, 'Only an API key with the "scim" scope, bound to a company, may use /scim/v2.');
      res.locals.scimContext = ctx;
      next();
    } catch (error) {
      await fail(req, res, error);
    }
  });
  // A body nested deeper than nestingLimits.json is refused (400 invalidSyntax) from its bytes, before anything walks it.
  router.use(express.json({ type: ['application/scim+json', 'application/json'], limit: deps.bodyLimitBytes, verify: refuseDeepJson }));
  /** A handler; a write (`operation` named) is in the audit log like every API write, before it runs and with its outcome. */
  const route = (handler: Handler, operation?: string) => async (req: Request, res: Response) => {
    const ctx = res.locals.scimContext as RequestContext;
    let auditId: number | null = null;
    try {
      if (operation) auditId = await recordWrite(ctx, operation, { id: req.params.id, body: withoutPasswords(req.body) });
      const baseUrl = `${req.protocol}://${req.get('host')}${SCIM_BASE_PATH}`;
      const result = await handler(ctx, req, baseUrl);
      if (auditId !== null) await finishWrite(ctx, auditId, 'ok');
      await send(req, res, result.status, result.body, result.location ? { Location: result.location } : {});
    } catch (error) {
      if (auditId !== null) {
        const outcome = error instanceof ScimError ? (error.scimType ?? `scim_${error.status}`) : 'internal_error';
        await finishWrite(ctx, auditId, outcome).catch((auditError) => deps.logger.error({ err: auditError }, 'audit outcome not recorded'));
      }
      await fail(req, res, error);
    }
  };
  const constant =
    (body: (baseUrl: string, req: Request) => unknown): Handler =>
    async (_ctx, req, baseUrl) => ({ status: 200, body: body(baseUrl, req) });

  router.get('/ServiceProviderConfig', route(constant((baseUrl) => serviceProviderConfig(baseUrl, null))));
  router.get('/ResourceTypes', route(constant((baseUrl) => listResponse(resourceTypes(baseUrl) as unknown as JsonObject[], 2, { startIndex: 1, count: 2 }))));
  router.get(
    '/ResourceTypes/:id',
    route(async (_ctx, req, baseUrl) => {
      const found = resourceTypes(baseUrl).find((t) => t.id.toLowerCase() === String(req.params.id).toLowerCase());
      if (!found) throw new ScimError(404, null, `No resource type ${JSON.stringify(req.params.id)}.`);
      return { status: 200, body: found };
    }),
  );
  router.get(
    '/Schemas',
    route(
      constant((baseUrl) =>
        listResponse(SCHEMAS.map((s) => schemaResource(s, baseUrl)) as unknown as JsonObject[], SCHEMAS.length, { startIndex: 1, count: SCHEMAS.length }),
      ),
    ),
  );
  router.get(
    '/Schemas/:id',
    route(async (_ctx, req, baseUrl) => {
      const found = SCHEMAS.find((s) => s.id.toLowerCase() === String(req.params.id).toLowerCase());
      if (!found) throw new ScimError(404, null, `No schema ${JSON.stringify(req.params.id)}.`);
      return { status: 200, body: schemaResource(found, baseUrl) };
    }),
  );
  for (const [path, core, service, name] of [
    ['/Users', USER, users, 'User'],
    ['/Groups', GROUP, groups, 'Group'],
  ] as const) {
    const handlers = resourceRoutes(core, service);
    router.get(path, route(handlers.list!));
    router.post(path, route(handlers.create!, `scim.create${name}`));
    router.get(`${path}/:id`, route(handlers.get!));
    router.put(`${path}/:id`, route(handlers.replace!, `scim.replace${name}`));
    router.patch(`${path}/:id`, route(handlers.patch!, `scim.patch${name}`));
    router.delete(`${path}/:id`, route(handlers.remove!, `scim.delete${name}`));
  }
  router.use((req: Request, res: Response) => fail(req, res, new ScimError(404, null, `No SCIM endpoint ${req.method} ${SCIM_BASE_PATH}${req.path}.`)));
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => fail(req, res, error));
  return router;
}
