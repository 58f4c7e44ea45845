import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { GraphQLError, type GraphQLSchema, type ValidationRule } from 'graphql';
import { DEFAULT_PAGE_SIZE } from '../services/pagination';

/**
 * GraphQL protection: a depth limit (a validation rule: fails before anything runs) and a cost limit
 * computed with the request's variables (so `first: $n` counts). A list field costs its children
 * times the page size it asks for (`first`, default 100), which is what it can make the database do.
 */
export function depthRule(maxDepth: number): ValidationRule {
  const inner = depthLimit(maxDepth) as unknown as ValidationRule;
  // The package reports a plain validation error; ours carries the same code as the cost limit.
  return (context) =>
    inner(
      Object.create(context, {
        reportError: {
          value: (error: GraphQLError) =>
            context.reportError(new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'query_too_complex', maxDepth } })),
        },
      }),
    );
}

const pagedListEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (!('first' in args) && !field.args.some((a) => a.name === 'first')) return undefined;
  const first = typeof args.first === 'number' ? args.first : DEFAULT_PAGE_SIZE;
  return 1 + Math.max(first, 1) * Math.max(childComplexity, 1);
};

export function operationCost(schema: GraphQLSchema, query: import('graphql').DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string): number {
  return getComplexity({
    schema,
    query,
    variables,
    operationName,
    estimators: [pagedListEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

export function costLimitPlugin(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const cost = operationCost(schema, document, request.variables, request.operationName ?? undefined);
          if (cost > maxCost) {
            throw new GraphQLError(
              `This operation costs ${cost}, more than the limit of ${maxCost}: ask for fewer items per page (first) or fewer nested lists.`,
              { extensions: { code: 'query_too_complex', cost, maxCost, http: { status: 400 } } },
            );
          }
        },
      };
    },
  };
}
