import express, { type NextFunction, type Request, type Response } from 'express';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parse, validate, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { DomainError, type FieldProblem } from '../errors/domain-error';
import type { ContextFactory } from '../services/identity/request-context-factory';
import { encodeCursor } from '../schema/connection';
import { inGraphQLSpan, nameActiveSpan, operationOf, tracingEnabled } from '../observability/tracing';
import type { RequestContext } from '../context/request-context';
import { statusOf } from '../errors/error-codes';
import { requestFingerprint, runIdempotent } from '../services/common/idempotency.service';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../services/common/pagination';
import { unstorableError, unstorableStringAt } from '../services/common/validation';
import { refuseDeepJson } from '../services/common/input-limits';
import { restInputOf, restShapeOf } from './rest-shape';
import { errorBody, sendError, toDomainError } from '../errors/error-response';
import { toCsv } from './csv';
import { deprecationHeaders, idParam, MAX_ID, MAX_LONG_ID, type RestRoute } from './route';

interface CompiledRoute {
  route: RestRoute;
  /** The kind and name of the route's GraphQL operation (the name of its span). */
  graphql: { type: string; name: string };
  /** The route's operation compiled once to a function (graphql-jit); see compileRoute. */
  operation: CompiledQuery;
  validateBody?: ValidateFunction;
  validateQuery?: ValidateFunction;
}

type RouteHandler = (req: Request, res: Response, params: Record<string, string | undefined>) => Promise<void>;

/**
 * Builds the Express middleware of the REST compatibility surface from the route table. Every
 * operation is parsed and validated against the schema here, so a broken mapping fails at start-up.
 *
 * The routes are looked up in a radix tree (find-my-way) rather than registered as one Express
 * layer each: Express tries its layers one after another, a path-to-regexp match and a closure per
 * route, ~5 KB allocated per request (sampled) before a route near the end of the table even
 * starts. Matching keeps Express's rules: case-insensitive paths, an optional trailing slash,
 * decoded parameters, HEAD served by the GET route, OPTIONS answered with the allowed methods, a
 * static segment before a parameter. A path or method not in the table (or a parameter that is not
 * valid percent-encoding) falls through (`next()`) to the app's JSON 404.
 */
export function createRestRouter(deps: {
  routes: RestRoute[];
  schema: GraphQLSchema;
  contextFactory: ContextFactory;
  config: Config;
  logger: Logger;
}): (req: Request, res: Response, next: NextFunction) => void {
  const router = FindMyWay<FindMyWay.HTTPVersion.V1>({ caseSensitive: false, ignoreTrailingSlash: true });
  // A body nested deeper than nestingLimits.json is refused from its bytes, before JSON.parse and the schemas walk it.
  const jsonParser = express.json({ limit: deps.config.restBodyLimitBytes, strict: false, type: () => true, verify: refuseDeepJson });
  const debugErrors = deps.config.debugErrors;

  for (const route of deps.routes) {
    const compiled = compiledRoute(route, deps.schema);
    const deprecation = deprecationHeaders(route);
    const handler: RouteHandler = async (req, res, params) => {
      const requestId = res.locals.requestId as string;
      res.locals.route = route.path;
      nameActiveSpan(`${route.method} ${route.path}`, { 'http.route': route.path });
      // Every answer of a deprecated route says so, errors included (docs/change-policy.md).
      if (deprecation) for (const [name, value] of Object.entries(deprecation)) res.append(name, value);
      try {
        const ctx = await deps.contextFactory({ authorization: req.headers.authorization, requestId, origin: `${req.protocol}://${req.get('host')}` });
        const unstorableParam = unstorableStringAt(params);
        if (unstorableParam) throw unstorableError(unstorableParam);
        // An `:id` that is not an id names nothing: 404 with what the client sent (not a stand-in value).
        const maxId = route.longId ? MAX_LONG_ID : MAX_ID;
        if (params.id !== undefined && !route.idOrName && idParam(params.id, maxId) === -1) {
          throw new DomainError(
            'not_found',
            `${JSON.stringify(params.id)} is not an id of ${route.path.split('/:id')[0]}: ids are whole numbers from 1 to ${maxId}.`,
          );
        }
        const idempotencyKey = route.method === 'POST' ? idempotencyKeyOf(req) : undefined;
        const body = compiled.validateBody
          ? await readBody(req, res, jsonParser, compiled)
          : route.imageBody
            ? await readImage(req, res, route.imageBody)
            : undefined;
        const query = readQuery(req, compiled);
        const unstorable = unstorableStringAt(params) ?? unstorableStringAt(query) ?? unstorableStringAt(body);
        if (unstorable) throw unstorableError(unstorable);
        const variables = { ...route.variables({ params: params as Record<string, string>, query, body }), ...paging(route, query) };
        const execute = () => run(compiled, ctx, variables, res, deps.logger, debugErrors);

        if (idempotencyKey === undefined) {
          const { status, payload } = await execute();
          if (route.csvField) sendCsvDocument(req, res, status, route, route.csvField, payload as Record<string, unknown>);
          else if (route.csv && (req.query.format === 'csv' || (req.query.format !== 'json' && wantsCsv(req)))) sendCsv(res, status, route, payload);
          else if (route.imageResult) sendImage(res, status, route.imageResult, payload);
          else res.status(status).json(payload);
          return;
        }
        // Stripe's rule: a request refused before it ran (auth, JSON Schema) stores nothing; once it
        // runs, its outcome, success or domain error, is what the key replays. The operation, its
        // key's record and the stored response commit together (runIdempotent).
        const outcome = await runIdempotent(
          ctx,
          idempotencyKey,
          requestFingerprint(route.method, req.path, body),
          deps.config.idempotencyTtlHours,
          async (tx) => {
            try {
              const { status, payload } = await run(compiled, tx, variables, res, deps.logger, debugErrors);
              return { status, body: payload };
            } catch (error) {
              const domainError = toDomainError(error, deps.logger, debugErrors);
              return {
                status: statusOf(domainError.code),
                body: errorBody(domainError.code, domainError.message, domainError.details, requestId, domainError.facts),
                error: domainError,
              };
            }
          },
        );
        if (outcome.replayed) {
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(outcome.status).json(outcome.body);
          return;
        }
        if (outcome.error) sendError(res, outcome.error, requestId);
        else res.status(outcome.status).json(outcome.body);
      } catch (error) {
        sendError(res, toDomainError(error, deps.logger, debugErrors), requestId);
      }
    };
    // The tree's own handler signature is node's (req, res); ours travels as the route's store.
    router.on(route.method as HTTPMethod, route.path, () => undefined, handler);
  }
  const methods = [...new Set(deps.routes.map((route) => route.method))];
  return (req, res, next) => {
    const routed = (method: HTTPMethod) => router.find(method, req.path) !== null;
    if (req.method === 'OPTIONS') return answerOptions(res, next, routed, methods);
    const found = router.find((req.method === 'HEAD' ? 'GET' : req.method) as HTTPMethod, req.path);
    if (found) return void (found.store as RouteHandler)(req, res, found.params);
    // A path of the API with another method: 405 and what it allows (RFC 9110 §15.5.6).
    const allowed = allowedMethods(methods, routed);
    if (allowed === null) return next();
    res.setHeader('Allow', allowed);
    sendError(res, new DomainError('method_not_allowed', `${req.method} is not allowed on ${req.path}; it allows ${allowed}.`), res.locals.requestId);
  };
}

/**
 * `OPTIONS` on a REST path answers 200 with the methods it allows (`Allow: DELETE, GET, HEAD, PUT`),
 * as Express's router does for its routes; a path without routes falls through to the 404. (With
 * CORS configured, a preflight never gets here: the CORS middleware answers it.)
 */
function answerOptions(res: Response, next: NextFunction, routed: (method: HTTPMethod) => boolean, methods: RestRoute['method'][]): void {
  const allow = allowedMethods(methods, routed);
  if (allow === null) return next();
  res.setHeader('Allow', allow);
  res.status(200).type('text/plain').send(allow);
}

/** The methods a path has (`DELETE, GET, HEAD, PUT`), or null when it is not a path of the API. */
function allowedMethods(methods: RestRoute['method'][], routed: (method: HTTPMethod) => boolean): string | null {
  const allowed: string[] = methods.filter(routed);
  if (allowed.length === 0) return null;
  if (allowed.includes('GET')) allowed.push('HEAD');
  return allowed.sort().join(', ');
}

/** `Accept: text/csv` (preferred over JSON by the header's order and weights); JSON stays the default. */
function wantsCsv(req: Request): boolean {
  return req.get('Accept') !== undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

function sendCsv(res: Response, status: number, route: RestRoute, payload: unknown): void {
  const rows = (Array.isArray(payload) ? payload : [payload]) as Record<string, unknown>[];
  res.status(status).type('text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${route.name}.csv"`);
  res.send(toCsv(route.csv!, rows));
}

/** A CSV document the operation wrote (csvField) on `Accept: text/csv` or `?format=csv`; otherwise the JSON without it. */
function sendCsvDocument(req: Request, res: Response, status: number, route: RestRoute, field: string, payload: Record<string, unknown>): void {
  const { [field]: document, ...rest } = payload;
  const format = req.query.format;
  if (format === 'csv' || (format !== 'json' && wantsCsv(req))) {
    res.status(status).type('text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${route.name}.csv"`);
    res.send(String(document ?? ''));
  } else {
    res.status(status).json(rest);
  }
}

/** An image result: its bytes with their media type; personal data, so never stored by a cache. */
function sendImage(res: Response, status: number, image: NonNullable<RestRoute['imageResult']>, payload: unknown): void {
  const bytes = Buffer.from(String((payload as Record<string, unknown>)[image.field] ?? ''), 'base64');
  res.status(status).type(image.mediaType).setHeader('Cache-Control', 'private, no-store');
  res.send(bytes);
}

/** Reads an image body (as base64): 415 for another media type, 413 above the route's limit. */
async function readImage(req: Request, res: Response, image: NonNullable<RestRoute['imageBody']>): Promise<string> {
  if (!req.is([...image.mediaTypes])) {
    throw new DomainError('unsupported_media_type', `Send the image as the body with Content-Type ${image.mediaTypes.join(' or ')}.`);
  }
  const parser = express.raw({ limit: image.limitBytes, type: () => true });
  await new Promise<void>((resolve, reject) => {
    parser(req, res, (error?: unknown) => (error ? reject(bodyParserError(error)) : resolve()));
  });
  return Buffer.isBuffer(req.body) ? req.body.toString('base64') : '';
}

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('Idempotency-Key');
  if (key !== undefined && (key.length === 0 || key.length > 255)) {
    throw DomainError.field('Idempotency-Key', 'invalid', 'The Idempotency-Key header must be 1 to 255 characters.');
  }
  return key;
}

// `verbose` keeps the failing schema with each error: its `x-error-codes` name the code to give.
const bodyAjv = withAnnotations(new Ajv({ allErrors: true, strict: true, verbose: true }));
const queryAjv = withAnnotations(new Ajv({ allErrors: true, coerceTypes: true, strict: true, verbose: true }));

/** Routes compiled against a schema, once per process: compiling the whole table takes most of an app's start. */
const compiledBySchema = new WeakMap<GraphQLSchema, WeakMap<RestRoute, CompiledRoute>>();

function compiledRoute(route: RestRoute, schema: GraphQLSchema): CompiledRoute {
  let routes = compiledBySchema.get(schema);
  if (!routes) compiledBySchema.set(schema, (routes = new WeakMap()));
  let compiled = routes.get(route);
  if (!compiled) routes.set(route, (compiled = compileRoute(route, schema)));
  return compiled;
}

function compileRoute(route: RestRoute, schema: GraphQLSchema): CompiledRoute {
  const document = parse(route.document);
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`REST route ${route.name}: ${problems.map((p) => p.message).join('; ')}`);
  const operation = compileQuery(schema, document);
  if (!isCompiledQuery(operation)) throw new Error(`REST route ${route.name}: ${operation.errors?.map((e) => e.message).join('; ')}`);
  return {
    route,
    graphql: operationOf(document),
    operation,
    validateBody: route.body ? bodyAjv.compile(route.body.schema) : undefined,
    validateQuery: route.query ? queryAjv.compile(route.query) : undefined,
  };
}

/** Executes the route's operation and shapes the result: snake_case, bare arrays for lists. */
async function run(compiled: CompiledRoute, ctx: RequestContext, variables: Record<string, unknown>, res: Response, logger: Logger, debugErrors: boolean) {
  const result = tracingEnabled()
    ? await inGraphQLSpan(compiled.graphql, async () => compiled.operation.query(undefined, ctx, variables))
    : await compiled.operation.query(undefined, ctx, variables);
  if (result.errors?.length) throw toDomainError(result.errors[0], logger, debugErrors);
  // oxlint-disable-next-line typescript/no-explicit-any -- the operation's data is JSON of the route's own query
  const all = (result.data ?? {}) as Record<string, any>;
  const data = compiled.route.resultField.split('.').reduce<unknown>((value, field) => (value as Record<string, unknown> | null | undefined)?.[field], all);
  if (data === null || data === undefined) throw new DomainError('not_found', 'Not found.');
  const status = typeof compiled.route.status === 'function' ? compiled.route.status(all) : compiled.route.status;
  if (compiled.route.list) {
    const { totalCount, nodes } = data as { totalCount: number; nodes: unknown[] };
    setPagingHeaders(res, totalCount, variables);
    return { status, payload: restShapeOf(nodes) };
  }
  return { status, payload: restShapeOf(data) };
}

type JsonParser = ReturnType<typeof express.json>;

/**
 * Reads and checks the JSON body: 415 without a JSON Content-Type, 400 malformed, 413 too big, 422
 * invalid. A request without a body (no Content-Length, or 0, and no Transfer-Encoding) is `{}`:
 * the routes whose body is optional (`/approve` with an optional comment) take it, the others answer
 * 422 naming the required fields.
 */
async function readBody(req: Request, res: Response, jsonParser: JsonParser, compiled: CompiledRoute): Promise<unknown> {
  const length = req.headers['content-length'];
  const empty = req.headers['transfer-encoding'] === undefined && (length === undefined || length.trim() === '0');
  if (empty) req.body = {};
  else if (!req.is(['application/json'])) {
    throw new DomainError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  } else {
    await new Promise<void>((resolve, reject) => {
      jsonParser(req, res, (error?: unknown) => (error ? reject(bodyParserError(error)) : resolve()));
    });
  }
  let body: unknown = req.body;
  const wrapper = compiled.route.body?.wrapper;
  if (wrapper && isObject(body) && Object.keys(body).length === 1 && isObject(body[wrapper])) body = body[wrapper];
  if (!compiled.validateBody!(body)) throw DomainError.invalid(schemaProblems(compiled.validateBody!.errors ?? [], compiled.route.body?.field));
  return restInputOf(body);
}

function bodyParserError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return new DomainError('payload_too_large', 'The request body is larger than the limit.');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new DomainError('unsupported_media_type', 'The body must be UTF-8 JSON without content encoding.');
  }
  return new DomainError('malformed_json', `The request body is not valid JSON: ${(error as Error).message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The annotations body-schemas.ts puts on formatted fields (they change no validation). */
function withAnnotations(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: 'x-error-codes', schemaType: 'object' });
  ajv.addKeyword({ keyword: 'x-error-message', schemaType: 'string' });
  return ajv;
}

/** Turns JSON Schema errors into field problems with the client's own (snake_case) field names. */
export function schemaProblems(errors: ErrorObject[], bodyField?: string): FieldProblem[] {
  const problems = errors.map((error): FieldProblem => {
    const path = [...(bodyField ? [bodyField] : []), ...error.instancePath.split('/').filter(Boolean)].join('.');
    const join = (name: string) => (path ? `${path}.${name}` : name);
    // A formatted field: the code the service gives the same mistake, and what is expected.
    const annotated = error.parentSchema as { 'x-error-codes'?: Record<string, string>; 'x-error-message'?: string } | undefined;
    const code = annotated?.['x-error-codes']?.[error.keyword];
    if (code) return { field: path, code, message: `${path} ${annotated?.['x-error-message'] ?? 'has the wrong format'}.` };
    switch (error.keyword) {
      case 'required': {
        const field = join(String(error.params.missingProperty));
        return { field, code: 'required', message: `${field} is required.` };
      }
      case 'additionalProperties': {
        const field = join(String(error.params.additionalProperty));
        return { field, code: 'unknown_field', message: `${field} is not a known field.` };
      }
      case 'type': {
        const field = path || 'body';
        const expected = String(error.params.type).replace(',', ' or ');
        return { field, code: 'invalid_type', message: `${field} must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}.` };
      }
      case 'maxLength':
        return { field: path, code: 'too_long', message: `${path} must be at most ${error.params.limit} characters long.` };
      case 'minimum':
      case 'maximum':
        return { field: path, code: 'out_of_range', message: `${path} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${error.params.limit}.` };
      case 'enum':
        return {
          field: path,
          code: 'invalid_value',
          message: `${path} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`,
        };
      default:
        return { field: path || 'body', code: 'invalid', message: `${path || 'body'} ${error.message ?? 'is invalid'}.` };
    }
  });
  // A formatted field too long for its pattern breaks two keywords with one code: named once.
  return problems.filter((p, i) => problems.findIndex((q) => q.field === p.field && q.code === p.code) === i);
}

/** The query parameters a route takes: its own, `page` and `per_page` on a list, `format` where it answers CSV. */
export function knownParameters(route: RestRoute): string[] {
  const own = Object.keys((route.query?.properties ?? {}) as Record<string, unknown>);
  return [...own, ...(route.list ? ['page', 'per_page'] : []), ...((route.csv || route.csvField) && !own.includes('format') ? ['format'] : [])];
}

function readQuery(req: Request, compiled: CompiledRoute): Record<string, unknown> {
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  // A parameter the route does not take is refused, never ignored: `?form=2026-01-01` ignored
  // would answer the whole unfiltered list as if it were the filtered one.
  const known = knownParameters(compiled.route);
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const takes = known.length === 0 ? 'no query parameters' : `only ${known.join(', ')}`;
    throw new DomainError(
      'unknown_parameter',
      `${unknown.map((name) => JSON.stringify(name)).join(', ')} ${unknown.length === 1 ? 'is not a parameter' : 'are not parameters'} of ${req.method} ${compiled.route.path.replace(/:(\w+)/g, '{$1}')}: it takes ${takes}.`,
      unknown.map((name) => ({ field: name, code: 'unknown_parameter', message: `${name} is not a parameter of this route; it takes ${takes}.` })),
    );
  }
  // `format` of a CSV route without its own schema for it: `csv` or `json`, as on the payroll export.
  if (query.format !== undefined && compiled.route.csv && query.format !== 'csv' && query.format !== 'json') {
    throw DomainError.field('format', 'invalid_value', 'format must be "csv" or "json".');
  }
  // Ajv coerces as JavaScript's Number() does ("0x10" is 16, "1e3" is 1000, " 7 " is 7): an
  // integer parameter is refused unless written in plain decimal digits, before the schema runs.
  const properties = (compiled.route.query?.properties ?? {}) as Record<string, { type?: unknown }>;
  const notDecimal = Object.keys(properties)
    .filter((name) => properties[name]!.type === 'integer' && typeof query[name] === 'string' && !/^-?\d{1,16}$/.test(query[name] as string))
    .map((field) => ({ field, code: 'invalid_type', message: `${field} must be an integer written in decimal digits.` }));
  if (notDecimal.length > 0) throw DomainError.invalid(notDecimal);
  if (compiled.validateQuery && !compiled.validateQuery(query)) throw DomainError.invalid(schemaProblems(compiled.validateQuery.errors ?? []));
  return query;
}

/** `page` (from 1) and `per_page` (default 100, at most 1000) become the connection's `first`/`after`. */
function paging(route: RestRoute, query: Record<string, unknown>): Record<string, unknown> {
  if (!route.list) return {};
  const page = positiveInt(query.page, 'page', 1, 1_000_000);
  const perPage = positiveInt(query.per_page, 'per_page', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const offset = (page - 1) * perPage;
  return { first: perPage, after: offset > 0 ? encodeCursor(offset - 1) : undefined };
}

function positiveInt(value: unknown, field: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= max)) throw DomainError.field(field, 'out_of_range', `${field} must be an integer from 1 to ${max}.`);
  return number;
}

/** `X-Total-Count` and an RFC 8288 `Link` header with first/prev/next/last pages. */
function setPagingHeaders(res: Response, totalCount: number, variables: Record<string, unknown>): void {
  const req = res.req;
  const perPage = variables.first as number;
  const page = positiveInt(req.query.page, 'page', 1, 1_000_000);
  const lastPage = Math.max(1, Math.ceil(totalCount / Math.max(perPage, 1)));
  const link = (p: number, rel: string) => {
    const params = new URLSearchParams(req.query as Record<string, string>);
    params.set('page', String(p));
    params.set('per_page', String(perPage));
    return `<${req.baseUrl}${req.path}?${params.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, lastPage), 'prev'));
  if (page < lastPage) links.push(link(page + 1, 'next'));
  links.push(link(lastPage, 'last'));
  res.setHeader('X-Total-Count', String(totalCount));
  res.append('Link', links.join(', ')); // after a deprecated route's successor-version link
}
