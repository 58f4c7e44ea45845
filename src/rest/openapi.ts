import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { errorCodes, type ErrorCode } from '../errors/error-codes';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../services/common/pagination';
import type { JsonSchema } from './body-schemas';
import { camelToSnake } from '../kernel/case';
import { MAX_ID, MAX_LONG_ID, type RestRoute } from './route';
import { answerExample } from './openapi-examples';
import { toCsv } from './csv';

/**
 * The OpenAPI 3.1 document of the REST surface, generated from the route table: request bodies are
 * the very JSON Schemas the router validates with, and each response schema is derived from the
 * GraphQL selection the route executes, so the document cannot drift from what the API does.
 */
export function buildOpenApi(routes: RestRoute[], schema: GraphQLSchema, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    const op = operation(route, schema);
    (op.tags as string[]).forEach((tag) => tags.add(tag));
    paths[path][route.method.toLowerCase()] = op;
  }
  // Only the error responses some operation refers to (the others are GraphQL's alone).
  const used = new Set([...JSON.stringify(paths).matchAll(/#\/components\/responses\/(\w+)/g)].map((m) => m[1]!));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Timegate REST API',
      version,
      description:
        'REST compatibility surface of Timegate. Every route runs a GraphQL operation of `/graphql`. ' +
        'Bodies may be sent flat or wrapped in the resource name; lists are paged with `page`/`per_page` ' +
        'and report `X-Total-Count` and `Link`; errors have one shape (see `Error`).',
      contact: { name: 'Timegate maintainers' },
      // A proprietary licence as an SPDX expression (LicenseRef- names one that is not on the SPDX list).
      license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [...tags].sort().map((name) => ({ name, description: `Operations on ${name.toLowerCase()}.` })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: "An API key: `tg_live_...` (a sandbox's: `tg_test_...`), or the operator's master key." },
      },
      schemas: { Error: errorSchema() },
      headers: RATE_LIMIT_HEADERS,
      responses: Object.fromEntries(
        Object.entries(errorCodes)
          .filter(([code]) => used.has(code))
          .map(([code, { status, description }]) => [
            code,
            {
              description: `${status}: ${description}`,
              ...(code === 'rate_limited'
                ? { headers: Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }])) }
                : {}),
              ...(code === 'service_unavailable' ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          ]),
      ),
    },
  };
}

const RATE_LIMIT_HEADERS = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Limit': { description: "The key's burst: requests it may make at once.", schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Remaining': { description: 'Requests left right now.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: { type: 'integer', minimum: 0 } },
};

/** Operations a service may refuse with a code beyond the common ones, by status. */
const EXTRA_REFUSALS: Record<string, Partial<Record<string, ErrorCode | ErrorCode[]>>> = {
  deleteCompany: { '409': 'resource_in_use' },
  deleteShift: { '409': 'resource_in_use' },
  deleteAccessSchedule: { '409': 'resource_in_use' },
  updatePayPeriod: { '409': 'period_locked' },
  deletePayPeriod: { '409': 'period_locked' },
  voidPunch: { '409': 'period_locked' },
  deleteAbsenceType: { '409': 'resource_in_use' },
  deleteRoster: { '409': 'resource_in_use' },
  createAbsenceRequest: { '409': 'period_locked' },
  approveAbsenceRequest: { '409': 'invalid_transition' },
  rejectAbsenceRequest: { '409': 'invalid_transition' },
  cancelAbsenceRequest: { '409': 'invalid_transition' },
  createPunchCorrection: { '409': 'period_locked' },
  approvePunchCorrection: { '409': 'invalid_transition' },
  rejectPunchCorrection: { '409': 'invalid_transition' },
  cancelPunchCorrection: { '409': 'invalid_transition' },
  createOvertimeApproval: { '409': 'period_locked' },
  approveOvertime: { '409': 'invalid_transition' },
  rejectOvertime: { '409': 'invalid_transition' },
  approveOvertimePeriod: { '409': 'period_locked' },
  rejectOvertimePeriod: { '409': 'period_locked' },
  createScheduleOverride: { '409': 'period_locked' },
  updateScheduleOverride: { '409': 'period_locked' },
  deleteScheduleOverride: { '409': 'period_locked' },
  createLockdown: { '409': 'lockdown_active' },
  unlockDoor: { '409': 'lockdown_active' },
  performDoorAction: { '409': 'lockdown_active' },
  createCompany: { '403': 'plan_limit_reached' },
  createDevice: { '403': 'plan_limit_reached' },
  createEmployee: { '403': 'plan_limit_reached' },
  listVirtualTerminals: { '403': 'sandbox_only' },
  getVirtualTerminal: { '403': 'sandbox_only' },
  updateVirtualTerminal: { '403': 'sandbox_only' },
  triggerVirtualTerminal: { '403': 'sandbox_only' },
  resetSandbox: { '403': 'sandbox_only' },
  createMyPunch: { '403': 'mobile_punch_disabled', '422': ['outside_geofence', 'location_inaccurate', 'offline_punch_too_old'] },
  createMyAbsenceRequest: { '409': 'period_locked' },
  createMyPunchCorrection: { '409': 'period_locked' },
  cancelMyAbsenceRequest: { '409': 'invalid_transition' },
  cancelMyPunchCorrection: { '409': 'invalid_transition' },
  approveReportAbsenceRequest: { '409': 'invalid_transition' },
  rejectReportAbsenceRequest: { '409': 'invalid_transition' },
  approveReportPunchCorrection: { '409': 'invalid_transition' },
  rejectReportPunchCorrection: { '409': 'invalid_transition' },
};

/** One response for several codes of one status (OpenAPI has one entry per status). */
function sharedResponse(codes: ErrorCode[]): Record<string, unknown> {
  const status = errorCodes[codes[0]!].status;
  return {
    description: `${status}: ${codes.map((code) => `\`${code}\`: ${errorCodes[code].description}`).join(' Or ')}`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** `listEmployees` → `List employees`. */
function summaryOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The resource a path is about (`/public/v2/access_levels/{id}` → `Access levels`), its tag. */
function tagOf(path: string): string {
  const segment = path.replace(/^\/(public\/v2|v1)\//, '').split('/')[0] ?? 'other';
  const words = segment.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The GraphQL root field the route runs, and what the schema says of it. */
function descriptionOf(route: RestRoute, schema: GraphQLSchema): string {
  const field = route.resultField.split('.')[0]!;
  const definition = schema.getQueryType()?.getFields()[field] ?? schema.getMutationType()?.getFields()[field];
  const own = route.description ?? definition?.description;
  const said = own ? `${own.trim()} ` : '';
  return `${said}Runs the GraphQL ${schema.getQueryType()?.getFields()[field] ? 'query' : 'mutation'} \`${field}\`.`;
}

function operation(route: RestRoute, schema: GraphQLSchema): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
    const numeric = name === 'id' && !route.idOrName;
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: numeric
        ? { type: 'integer', ...(route.longId ? { format: 'int64' } : {}), minimum: 1, maximum: route.longId ? MAX_LONG_ID : MAX_ID }
        : { type: 'string', minLength: 1 },
      description: name === 'id' ? (route.idOrName ? 'The resource id, or its code or name.' : 'The resource id.') : undefined,
    });
  }
  if (route.list) {
    parameters.push(
      { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 } },
      { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
    );
  }
  const queryProperties = (route.query?.properties ?? {}) as Record<string, JsonSchema>;
  const requiredQuery = (route.query?.required ?? []) as string[];
  for (const [name, propertySchema] of Object.entries(queryProperties)) {
    parameters.push({ name, in: 'query', schema: propertySchema, ...(requiredQuery.includes(name) ? { required: true } : {}) });
  }
  if (route.csv && !('format' in queryProperties)) {
    parameters.push({
      name: 'format',
      in: 'query',
      schema: { type: 'string', enum: ['csv', 'json'] },
      description: '`csv` or `json`; without it, `Accept: text/csv` asks for CSV and JSON is the default.',
    });
  }

  const result = resultSchema(route, schema);
  const answer = route.list ? undefined : withoutProperty(result, route.csvField);
  const item = answerExample(route.list ? result : answer!, route.body?.example);
  const statuses = typeof route.status === 'number' ? [route.status] : [201, 200];
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    responses[String(status)] = {
      description: route.list ? 'A page of the list.' : 'The resource.',
      headers: route.list
        ? { 'X-Total-Count': { schema: { type: 'integer' } }, Link: { schema: { type: 'string' }, description: 'RFC 8288 first/prev/next/last.' } }
        : undefined,
      content: route.imageResult
        ? { [route.imageResult.mediaType]: { schema: { type: 'string', format: 'binary' } } }
        : {
            'application/json': { schema: route.list ? { type: 'array', items: result } : answer, example: route.list ? [item] : item },
            ...(route.csvField ? { 'text/csv': { schema: { type: 'string', description: 'The CSV document (`Accept: text/csv` or `format=csv`).' } } } : {}),
            // Asked for with `Accept: text/csv`: the same rows, a header row of these columns (RFC 4180).
            ...(route.csv
              ? {
                  'text/csv': {
                    schema: { type: 'string', description: `Columns: ${route.csv.join(', ')}.` },
                    example: toCsv(route.csv, [item as Record<string, unknown>]),
                  },
                }
              : {}),
          },
    };
  }
  for (const code of ['unauthenticated', 'forbidden', 'not_found'] as const) {
    responses[String(errorCodes[code].status)] ??= { $ref: `#/components/responses/${code}` };
  }
  // Every route refuses a query parameter it does not take (unknown_parameter) beside its field errors.
  responses['422'] = sharedResponse(['validation_failed', 'unknown_parameter']);
  if (route.body) {
    responses['400'] = { $ref: '#/components/responses/malformed_json' };
    responses['413'] = { $ref: '#/components/responses/payload_too_large' };
    responses['415'] = { $ref: '#/components/responses/unsupported_media_type' };
  }
  if (route.imageBody) {
    responses['413'] = { $ref: '#/components/responses/payload_too_large' };
    responses['415'] = { $ref: '#/components/responses/unsupported_media_type' };
  }
  if (route.method === 'POST') responses['409'] = { $ref: '#/components/responses/idempotency_conflict' };
  for (const [status, refusal] of Object.entries(EXTRA_REFUSALS[route.name] ?? {})) {
    const codes = Array.isArray(refusal) ? refusal : [refusal!];
    const existing = (responses[status] as { $ref?: string } | undefined)?.$ref?.split('/').pop() as ErrorCode | undefined;
    responses[status] =
      existing || codes.length > 1 ? sharedResponse([...(existing ? [existing] : []), ...codes]) : { $ref: `#/components/responses/${codes[0]}` };
  }
  responses['429'] = { $ref: '#/components/responses/rate_limited' };
  responses['500'] = { $ref: '#/components/responses/internal_error' };
  responses['503'] = { $ref: '#/components/responses/service_unavailable' };

  return {
    operationId: route.name,
    summary: summaryOf(route.name),
    description: route.deprecated
      ? `**Deprecated** since ${route.deprecated.since}, removed after ${route.deprecated.sunset} (docs/change-policy.md): ${route.deprecated.reason} ${descriptionOf(route, schema)}`
      : descriptionOf(route, schema),
    deprecated: route.deprecated ? true : undefined,
    tags: [tagOf(route.path)],
    parameters: parameters.length ? parameters : undefined,
    requestBody: route.body ? requestBody(route.body) : route.imageBody ? imageRequestBody(route.imageBody) : undefined,
    responses,
  };
}

function requestBody(body: NonNullable<RestRoute['body']>): Record<string, unknown> {
  const bodySchema = body.wrapper
    ? { oneOf: [body.schema, { type: 'object', properties: { [body.wrapper]: body.schema }, required: [body.wrapper], additionalProperties: false }] }
    : body.schema;
  // An object body without required fields may be left out (the router reads no body as `{}`).
  const schema = body.schema as { type?: unknown; required?: unknown[] };
  const required = schema.type !== 'object' || (schema.required ?? []).length > 0;
  return { required, content: { 'application/json': { schema: bodySchema, example: body.example } } };
}

function imageRequestBody(image: NonNullable<RestRoute['imageBody']>): Record<string, unknown> {
  const schema = { type: 'string', format: 'binary', maxLength: image.limitBytes };
  return {
    required: true,
    description: `The image itself (not JSON), at most ${image.limitBytes} bytes.`,
    content: Object.fromEntries(image.mediaTypes.map((type) => [type, { schema }])),
  };
}

/** JSON Schema of what the route returns: the GraphQL selection of its result field, in snake_case. */
function resultSchema(route: RestRoute, schema: GraphQLSchema): JsonSchema {
  const document = parse(route.document);
  const operationNode = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const root = operationNode.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  let type: GraphQLOutputType = root;
  let selection: SelectionSetNode | undefined = operationNode.selectionSet;
  const path = route.resultField.split('.');
  if (route.list) path.push('nodes');
  for (const name of path) {
    const objectType: GraphQLNamedType = getNamedType(type);
    if (!isObjectType(objectType) || !selection) throw new Error(`route ${route.name}: cannot follow ${name}`);
    const fieldNode: FieldNode | undefined = fieldsOf(selection, fragments).find((f) => f.name.value === name);
    if (!fieldNode) throw new Error(`route ${route.name}: ${name} is not selected`);
    type = objectType.getFields()[name].type;
    selection = fieldNode.selectionSet;
  }
  const unwrapped = route.list ? getNamedType(type) : getNullableType(type);
  return typeSchema(unwrapped as GraphQLOutputType, selection, fragments, true);
}

function fieldsOf(selection: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>) {
  const fields: FieldNode[] = [];
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) fields.push(node);
    else if (node.kind === Kind.FRAGMENT_SPREAD) fields.push(...fieldsOf(fragments.get(node.name.value)!.selectionSet, fragments));
    else fields.push(...fieldsOf(node.selectionSet, fragments));
  }
  return fields;
}

function typeSchema(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  nonNull = isNonNullType(type),
): JsonSchema {
  const inner = getNullableType(type) as GraphQLOutputType;
  let out: JsonSchema;
  if (isListType(inner)) out = { type: 'array', items: typeSchema(inner.ofType, selection, fragments) };
  else if (isEnumType(inner)) out = { type: 'string', enum: inner.getValues().map((v) => v.value) };
  else if (isScalarType(inner)) out = scalarSchema(inner.name);
  else if (isObjectType(inner) && selection) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of fieldsOf(selection, fragments)) {
      const name = camelToSnake(field.name.value);
      const definition = inner.getFields()[field.name.value];
      const described = typeSchema(definition.type, field.selectionSet, fragments);
      // The GraphQL field's description (docs/graphql.md) describes the REST field too.
      properties[name] = definition.description ? { ...described, description: definition.description } : described;
      required.push(name);
    }
    out = { type: 'object', properties, required };
  } else out = {};
  // A nullable enum lists null among its values too: `type` alone would let null through, `enum` not.
  if (!nonNull && typeof out.type === 'string') out = { ...out, type: [out.type, 'null'], ...(Array.isArray(out.enum) ? { enum: [...out.enum, null] } : {}) };
  return out;
}

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case 'Int':
      return { type: 'integer' };
    case 'SafeInt':
      return { type: 'integer', format: 'int64', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTimeISO':
      return { type: 'string', format: 'date-time' };
    case 'JSON':
    case 'JSONObject':
      return {};
    default:
      return { type: 'string' };
  }
}

function errorSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'details', 'request_id'],
        properties: {
          code: { type: 'string', enum: Object.keys(errorCodes) },
          message: { type: 'string' },
          details: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field', 'code', 'message'],
              properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
            },
          },
          request_id: { type: 'string' },
          // Facts of some refusals (docs/errors.md): how far off a phone punch was.
          distance_m: {
            type: ['integer', 'null'],
            description: '`outside_geofence`: metres from the position to the edge of the nearest geofence (null: none applies).',
          },
          geofence_id: { type: ['integer', 'null'], description: '`outside_geofence`: the nearest geofence (null: none applies).' },
          accuracy_m: { type: 'integer', description: '`location_inaccurate`: the accuracy the phone reported, in metres.' },
          max_accuracy_m: { type: 'integer', description: "`location_inaccurate`: the company's limit, in metres." },
        },
      },
    },
  };
}

/** The JSON answer of a route with a CSV document: the document's field is not in it. */
function withoutProperty(schema: Record<string, unknown>, field: string | undefined): Record<string, unknown> {
  const all = schema.properties as Record<string, unknown> | undefined;
  if (!field || !all?.[field]) return schema;
  const { [field]: _dropped, ...properties } = all;
  return { ...schema, properties, ...(Array.isArray(schema.required) ? { required: schema.required.filter((r: string) => r !== field) } : {}) };
}
