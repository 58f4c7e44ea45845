import type { GraphQLSchema } from 'graphql';
import { DomainError } from '../errors/domain-error';
import { recordWrite } from '../services/audit.service';
import type { RequestContext } from '../services/context';

/**
 * Every mutation, from GraphQL or from a REST route (both execute this schema), is written to the
 * audit log with its outcome. Calls refused before running (bad key, bad body) are not writes and
 * are not recorded; a refused scope is (outcome `forbidden`).
 *
 * The Mutation fields' resolvers are wrapped once the schema is built, rather than through a
 * type-graphql global middleware: a global middleware also wraps every field of every object in
 * every response (100 employees x 12 fields per list), which cost reads a large share of their time.
 */
export function auditMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutationType = schema.getMutationType();
  for (const field of Object.values(mutationType?.getFields() ?? {})) {
    const resolve = field.resolve;
    if (!resolve) continue;
    field.resolve = async (root, args, context: RequestContext, info) => {
      try {
        const result = await resolve(root, args, context, info);
        await recordWrite(context, info.fieldName, args, 'ok');
        return result;
      } catch (error) {
        await recordWrite(context, info.fieldName, args, error instanceof DomainError ? error.code : 'internal_error').catch((auditError) =>
          context.logger.error({ err: auditError }, 'audit record failed'),
        );
        throw error;
      }
    };
  }
  return schema;
}
