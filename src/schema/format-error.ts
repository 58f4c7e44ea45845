import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { isDatabaseUnavailable } from '../errors/database-unavailable';
import { DomainError } from '../errors/domain-error';

/**
 * One error shape for GraphQL: domain errors keep their code and field details; errors GraphQL
 * itself raises (syntax, unknown fields, bad variables) keep Apollo's codes; anything unexpected
 * becomes `internal_error` without internals in production.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown, options: { production: boolean }) {
  const original = unwrapResolverError(error);
  if (original instanceof DomainError) {
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: original.code, details: original.details, ...(original.retryAfterSeconds !== undefined ? { retryAfter: original.retryAfterSeconds } : {}) },
    };
  }
  if (isDatabaseUnavailable(original)) {
    return {
      message: 'The database is unavailable for a moment; nothing was changed. Retry shortly.',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'service_unavailable' },
    };
  }
  if (formatted.extensions?.maxDepth !== undefined || formatted.extensions?.maxFields !== undefined) {
    // Apollo relabels every validation error GRAPHQL_VALIDATION_FAILED; the depth and field limits keep their own code.
    const { maxDepth, fields, maxFields } = formatted.extensions;
    return { ...formatted, extensions: { code: 'query_too_complex', ...(maxDepth !== undefined ? { maxDepth } : { fields, maxFields }) } };
  }
  if (original instanceof GraphQLError || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') {
    const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions: options.production ? extensions : formatted.extensions };
  }
  return {
    message: options.production ? 'Internal error.' : formatted.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'internal_error' },
  };
}
