import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { isDatabaseUnavailable } from '../errors/database-unavailable';
import { DomainError } from '../errors/domain-error';
import { toPublicError } from '../errors/public-error';
import { factsExtensions } from '../errors/error-response';

/**
 * One error shape for GraphQL: domain errors keep their code and field details; errors GraphQL
 * itself raises (syntax, unknown fields, bad variables) keep Apollo's codes; anything unexpected
 * becomes `internal_error`. Stack traces (and the server paths in them) and the cause of an internal
 * error are shown only with TIMEGATE_DEBUG_ERRORS=true, whatever NODE_ENV says.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown, options: { debug: boolean }) {
  const original = unwrapResolverError(error);
  if (original instanceof DomainError || isDatabaseUnavailable(original)) {
    const publicError = toPublicError(original, options);
    return {
      message: publicError.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: publicError.code,
        ...(publicError.details.length > 0 || original instanceof DomainError ? { details: publicError.details } : {}),
        ...(publicError.retryAfterSeconds !== undefined ? { retryAfter: publicError.retryAfterSeconds } : {}),
        ...factsExtensions(publicError.facts),
      },
    };
  }
  if (formatted.extensions?.maxDepth !== undefined || formatted.extensions?.maxFields !== undefined) {
    // Apollo relabels every validation error GRAPHQL_VALIDATION_FAILED; the depth and field limits keep their own code.
    const { maxDepth, fields, maxFields } = formatted.extensions;
    return { ...formatted, extensions: { code: 'query_too_complex', ...(maxDepth !== undefined ? { maxDepth } : { fields, maxFields }) } };
  }
  if (original instanceof GraphQLError || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') {
    const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions: options.debug ? formatted.extensions : extensions };
  }
  // Unexpected: graphql-http-guard.ts logs it with the request id; the client gets internal_error.
  const publicError = toPublicError(original, options);
  return { message: publicError.message, locations: formatted.locations, path: formatted.path, extensions: { code: publicError.code } };
}
