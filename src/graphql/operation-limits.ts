import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { GraphQLError, Kind, visit, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { DEFAULT_PAGE_SIZE } from '../services/common/pagination';

/**
 * GraphQL protection: a depth limit (a validation rule: fails before anything runs) and a cost limit
 * computed with the request's variables (so `first: $n` counts). A list field costs its children
 * times the page size it asks for (`first`, default 100), which is what it can make the database do.
 */
export function depthRule(maxDepth: number): ValidationRule {
  const inner = depthLimit(maxDepth) as unknown as ValidationRule;
  // The package reports a plain validation error; ours carries the same code as the cost limit.
  // It follows fragment spreads without a guard: on a fragment cycle it recursed until the stack
  // overflowed (a 500). A document with a cycle is invalid anyway (NoFragmentCyclesRule says so),
  // so the depth is not measured there.
  return (context) =>
    hasFragmentCycle(context.getDocument())
      ? {}
      : inner(
          Object.create(context, {
            reportError: {
              value: (error: GraphQLError) =>
                context.reportError(new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'query_too_complex', maxDepth } })),
            },
          }),
        );
}

/** True when some fragment spreads itself, directly or through others. */
export function hasFragmentCycle(document: DocumentNode): boolean {
  const spreads = new Map<string, string[]>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const names: string[] = [];
    visit(definition.selectionSet, { FragmentSpread: (node) => void names.push(node.name.value) });
    spreads.set(definition.name.value, names);
  }
  const done = new Set<string>();
  const onPath = new Set<string>();
  const cyclic = (name: string): boolean => {
    if (onPath.has(name)) return true;
    if (done.has(name) || !spreads.has(name)) return false;
    onPath.add(name);
    const found = spreads.get(name)!.some(cyclic);
    onPath.delete(name);
    done.add(name);
    return found;
  };
  return [...spreads.keys()].some(cyclic);
}

const pagedListEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (!('first' in args) && !field.args.some((a) => a.name === 'first')) return undefined;
  const first = typeof args.first === 'number' ? args.first : DEFAULT_PAGE_SIZE;
  return 1 + Math.max(first, 1) * Math.max(childComplexity, 1);
};

export function operationCost(
  schema: GraphQLSchema,
  query: import('graphql').DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
): number {
  return getComplexity({
    schema,
    query,
    variables,
    operationName,
    estimators: [pagedListEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

export function costError(cost: number, maxCost: number): GraphQLError {
  return new GraphQLError(`This operation costs ${cost}, more than the limit of ${maxCost}: ask for fewer items per page (first) or fewer nested lists.`, {
    extensions: { code: 'query_too_complex', cost, maxCost, http: { status: 400 } },
  });
}

/**
 * The cost check of an operation: a `query_too_complex` error when it costs more than `maxCost`, or
 * null. Apollo hands every request of the same query text the same parsed document (and the
 * repeated-query path keeps it too). Without variables the cost depends on the document and the
 * operation name only, so it is computed once for them.
 */
export function costLimit(
  schema: GraphQLSchema,
  maxCost: number,
): (document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | undefined) => GraphQLError | null {
  const costsOf = new WeakMap<DocumentNode, Map<string, number>>();
  const costOf = (document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | undefined) => {
    if (variables && Object.keys(variables).length > 0) return operationCost(schema, document, variables, operationName);
    let costs = costsOf.get(document);
    if (!costs) costsOf.set(document, (costs = new Map()));
    let cost = costs.get(operationName ?? '');
    if (cost === undefined) costs.set(operationName ?? '', (cost = operationCost(schema, document, undefined, operationName)));
    return cost;
  };
  return (document, variables, operationName) => {
    let cost: number;
    try {
      cost = costOf(document, variables, operationName);
    } catch (error) {
      // Pricing coerces the variables first: one that does not fit its type is the client's
      // mistake (Apollo's BAD_USER_INPUT, 400), not the internal error an escaping throw became.
      if (!(error instanceof GraphQLError)) throw error;
      return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
    }
    return cost > maxCost ? costError(cost, maxCost) : null;
  };
}

export function costLimitPlugin(check: ReturnType<typeof costLimit>): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const error = check(document, request.variables, request.operationName ?? undefined);
          if (error) throw error;
        },
      };
    },
  };
}
