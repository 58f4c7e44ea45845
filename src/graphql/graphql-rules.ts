// The rules every GraphQL operation passes before it runs, whatever transport brought it (POST
// /graphql and the graphql-ws socket share them): a token limit at parse time, the spec's validation
// with our depth, field-count and (when disabled) introspection rules, and the cost limit. One module
// so that the two transports cannot drift apart again (the socket once ran without any of them).
import {
  getOperationAST,
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
  valueFromASTUntyped,
  visit,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import type { ApolloServerPlugin } from '@apollo/server';
import type { Config } from '../config/config';
import { unstorableError, unstorableStringAt } from '../services/common/validation';
import { costError, depthRule, operationCost } from './operation-limits';
import { documentNestsDeeperThan, valueNestsDeeperThan } from '../kernel/nesting';
import { nestingLimits, nestingTooDeep } from '../services/common/input-limits';
import { DomainError } from '../errors/domain-error';

/** The refusal of a GraphQL document nested deeper than `nestingLimits.document`. */
export function documentTooDeep(): DomainError {
  return new DomainError(
    'query_too_complex',
    `The GraphQL document nests braces, brackets and parentheses more than ${nestingLimits.document} levels deep; it was not parsed.`,
  );
}

/** A refusal before execution in the GraphQL error shape (graphql-ws sends GraphQLError objects). */
function asGraphQLError(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: error.code, details: error.details } });
}

export type GraphQLRulesConfig = Pick<Config, 'graphqlMaxDepth' | 'graphqlMaxCost' | 'graphqlMaxTokens' | 'graphqlMaxFields' | 'graphqlIntrospection'>;

/** Validation rules added to the spec's (Apollo adds the introspection rule itself from its own option). */
export function validationRules(config: GraphQLRulesConfig, options: { withIntrospectionRule: boolean }): ValidationRule[] {
  const rules = [depthRule(config.graphqlMaxDepth), fieldCountRule(config.graphqlMaxFields)];
  if (options.withIntrospectionRule && !config.graphqlIntrospection) rules.push(NoSchemaIntrospectionCustomRule);
  return rules;
}

export function parseOptions(config: GraphQLRulesConfig): { maxTokens: number } {
  return { maxTokens: config.graphqlMaxTokens };
}

/**
 * Parses, validates and prices one operation the way POST /graphql does. Returns the document, or
 * the errors to send (each with `extensions.code`).
 */
export function checkOperation(
  schema: GraphQLSchema,
  config: GraphQLRulesConfig,
  request: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null; extensions?: Record<string, unknown> | null },
): { document: DocumentNode } | { errors: GraphQLError[] } {
  // Nothing below may recurse over a depth the client chose: graphql-js parses and coerces by recursion.
  if (documentNestsDeeperThan(request.query, nestingLimits.document)) return { errors: [asGraphQLError(documentTooDeep())] };
  // The request counts whole, as an HTTP body does: {"variables": {"x": ...}} is two levels before x's own.
  if (valueNestsDeeperThan(request, nestingLimits.json)) return { errors: [asGraphQLError(nestingTooDeep('The operation'))] };
  let document: DocumentNode;
  try {
    document = parse(request.query, parseOptions(config));
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : 'The document could not be parsed.';
    return { errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
  }
  const invalid = validate(schema, document, [...specifiedRules, ...validationRules(config, { withIntrospectionRule: true })]);
  if (invalid.length > 0) {
    return {
      errors: invalid.map((e) => (e.extensions?.code ? e : new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }))),
    };
  }
  const characters = unstorableInput(document, request.variables);
  if (characters) return { errors: [characters] };
  // Variables that do not fit their types: refused here with the code HTTP gives them (Apollo's
  // BAD_USER_INPUT), rather than by graphql-js later without one.
  const operation = getOperationAST(document, request.operationName ?? undefined);
  if (operation) {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
    if (coerced.errors) return { errors: coerced.errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'BAD_USER_INPUT' } })) };
  }
  const cost = operationCost(schema, document, request.variables ?? undefined, request.operationName ?? undefined);
  if (cost > config.graphqlMaxCost) return { errors: [costError(cost, config.graphqlMaxCost)] };
  return { document };
}

/**
 * At most `maxFields` field selections per operation, counting aliases and every place a fragment
 * is spread (memoised per fragment, so a fragment bomb is counted in linear time, not expanded).
 * Fragment cycles are left to the spec's NoFragmentCyclesRule (a cycle counts as zero here).
 */
export function fieldCountRule(maxFields: number): ValidationRule {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    const counted = new Map<string, number>();
    const visiting = new Set<string>();
    const count = (selectionSet: SelectionSetNode): number => {
      let total = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) total += 1 + (selection.selectionSet ? count(selection.selectionSet) : 0);
        else if (selection.kind === Kind.INLINE_FRAGMENT) total += count(selection.selectionSet);
        else total += fragmentCount(selection.name.value);
      }
      return total;
    };
    const fragmentCount = (name: string): number => {
      const known = counted.get(name);
      if (known !== undefined) return known;
      const fragment = fragments.get(name);
      if (!fragment || visiting.has(name)) return 0;
      visiting.add(name);
      const total = count(fragment.selectionSet);
      visiting.delete(name);
      counted.set(name, total);
      return total;
    };
    return {
      OperationDefinition(operation) {
        const fields = count(operation.selectionSet);
        if (fields > maxFields) {
          context.reportError(
            new GraphQLError(`This operation selects ${fields} fields (aliases and fragment spreads included), more than the limit of ${maxFields}.`, {
              nodes: [operation],
              extensions: { code: 'query_too_complex', fields, maxFields },
            }),
          );
        }
        return false;
      },
    };
  };
}

/**
 * A NUL byte or a lone surrogate in a string argument (a variable or a literal) as a validation
 * error, or null. Such a string reaching SQL is a database error, not the client's 422.
 */
export function unstorableInput(document: DocumentNode, variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  const field = unstorableStringAt(variables ?? {}) ?? unstorableLiteral(document);
  if (!field) return null;
  const error = unstorableError(field);
  return new GraphQLError(error.message, { extensions: { code: error.code, details: error.details, http: { status: 422 } } });
}

/**
 * The argument holding an unstorable string literal, or null. Remembered per document: Apollo hands
 * every request of the same query text the same parsed document, and its literals do not change.
 */
const literalChecks = new WeakMap<DocumentNode, string | null>();
function unstorableLiteral(document: DocumentNode): string | null {
  const known = literalChecks.get(document);
  if (known !== undefined) return known;
  let field: string | null = null;
  visit(document, {
    Argument(node) {
      if (!field && unstorableStringAt(valueFromASTUntyped(node.value))) field = node.name.value;
    },
  });
  literalChecks.set(document, field);
  return field;
}

/** Apollo plugin: the same check for POST /graphql. */
export function unstorableInputPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const error = unstorableInput(document, request.variables);
          if (error) throw error;
        },
      };
    },
  };
}

/**
 * GraphQL over HTTP: a client that accepts only `application/json` (not
 * `application/graphql-response+json`) gets a request it sent wrongly (a document that does not
 * parse or validate, variables that do not coerce) as 200 with `errors`, as the spec's "legacy"
 * watershed asks; the error's code is in `extensions.code` either way. Newer clients keep the 4xx.
 */
export function legacyJsonStatusPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart({ request }) {
      const accept = request.http?.headers.get('accept') ?? '';
      // Only a client that names application/json (and not the newer type); `*/*` or no Accept keeps the 4xx.
      const legacy = !/application\/graphql-response\+json/i.test(accept) && /application\/json/i.test(accept);
      if (!legacy) return;
      return {
        async willSendResponse({ response }) {
          const status = response.http.status;
          if (response.body.kind === 'single' && response.body.singleResult.data === undefined && status === 400) response.http.status = 200;
        },
      };
    },
  };
}
