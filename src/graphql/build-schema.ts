import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import {
  isInputObjectType,
  isObjectType,
  Kind,
  parse,
  print,
  printSchema,
  specifiedDirectives,
  visit,
  type ConstDirectiveNode,
  type GraphQLSchema,
} from 'graphql';
import { buildSchema } from 'type-graphql';
import { resolvers } from '../resolvers';
import { auditMutations } from './audit-mutations';
import { authChecker } from './auth-checker';
import { enforceInputBounds } from './input-bounds';
import { constraintDirective } from '../schema/bounds';
import { DateTimeISO } from '../schema/date-time-scalar';

let built: Promise<GraphQLSchema> | null = null;

/**
 * The executable GraphQL schema, built from the resolvers once per process (the one schema both APIs
 * run). It holds no state of an app (the context carries that), so several apps in one process (the
 * test workers) share it, and with it the REST routes compiled against it (rest-router.ts).
 */
export function buildTimegateSchema(): Promise<GraphQLSchema> {
  // A failed build is not kept: the next caller tries again.
  built ??= buildFromResolvers().catch((error: unknown) => {
    built = null;
    throw error;
  });
  return built;
}

async function buildFromResolvers(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    authChecker,
    scalarsMap: [{ type: Date, scalar: DateTimeISO }],
    directives: [...specifiedDirectives, constraintDirective],
    // Input rules live in the services; class-validator is not used.
    validate: false,
    // type-graphql insists on a PubSub once there are subscriptions; ours use `subscribe` functions
    // over the outbox feed (replay + live), so this one never carries anything.
    pubSub: createPubSub(),
  });
  describeRootTypes(schema);
  // The bounds are checked first, before the audit row of a mutation is written.
  return enforceInputBounds(auditMutations(schema));
}

/**
 * type-graphql names the root types but gives them no description; GraphiQL shows these at the top
 * of the docs pane.
 */
function describeRootTypes(schema: GraphQLSchema): void {
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  const subscription = schema.getSubscriptionType();
  if (query)
    query.description =
      "Reads of the caller's workspace: directory, terminals and doors, access control, attendance and leave, payroll, webhooks. A key needs the `read` scope for them; an id of another workspace answers `not_found`, as an id that does not exist.";
  if (mutation)
    mutation.description =
      'Changes, each written to the audit log. A bad argument is refused with `validation_failed` (the field named in `details`) and changes nothing; a key without the scope a mutation needs gets `insufficient_scope`.';
  if (subscription)
    subscription.description =
      'Live events over WebSocket (graphql-transport-ws), replayed from `after` (the `cursor` of an event) and then followed; a subscriber that falls 10,000 events behind is ended with `subscriber_too_slow` and resumes with `after`.';
}

/**
 * The SDL committed as schema.graphql; a test fails when the two differ. graphql-js prints no
 * directive applied to a field, so the `@constraint` bounds of arguments and input fields are put
 * into the printed document here (the layout stays printSchema's).
 */
export function schemaSdl(schema: GraphQLSchema): string {
  const applied = new Map<string, readonly ConstDirectiveNode[]>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        for (const arg of field.args) if (arg.astNode?.directives?.length) applied.set(`${type.name}.${field.name}(${arg.name})`, arg.astNode.directives);
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        if (field.astNode?.directives?.length) applied.set(`${type.name}.${field.name}`, field.astNode.directives);
    }
  }
  let typeName = '';
  let fieldName = '';
  const document = visit(parse(printSchema(schema)), {
    ObjectTypeDefinition: { enter: (node) => void (typeName = node.name.value) },
    InputObjectTypeDefinition: { enter: (node) => void (typeName = node.name.value) },
    FieldDefinition: { enter: (node) => void (fieldName = node.name.value) },
    InputValueDefinition(node, _key, _parent, _path, ancestors) {
      const inField = ancestors.some((a) => !Array.isArray(a) && (a as { kind?: string }).kind === Kind.FIELD_DEFINITION);
      const directives = applied.get(inField ? `${typeName}.${fieldName}(${node.name.value})` : `${typeName}.${node.name.value}`);
      return directives ? { ...node, directives: [...(node.directives ?? []), ...directives] } : undefined;
    },
  });
  return `${withPrintSchemaSpacing(print(document))}\n`;
}

/** printSchema's layout: a member with a description that is not the first of its block follows an empty line. */
function withPrintSchemaSpacing(printed: string): string {
  const lines: string[] = [];
  let inBlockString = false;
  for (const line of printed.split('\n')) {
    const trimmed = line.trimStart();
    if (!inBlockString && line.startsWith(' ') && trimmed.startsWith('"') && !/[{(]$/.test(lines[lines.length - 1] ?? '')) lines.push('');
    if ((line.match(/"""/g) ?? []).length % 2 === 1) inBlockString = !inBlockString;
    lines.push(line);
  }
  return lines.join('\n');
}
