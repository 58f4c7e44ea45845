import type { GraphQLSchema } from 'graphql';
import { DomainError } from '../errors/domain-error';
import { finishWrite, recordWrite } from '../services/common/audit.service';
import type { RequestContext } from '../context/request-context';

/**
 * Every mutation, from GraphQL or from a REST route (both execute this schema), is written to the
 * audit log before it runs (outcome `pending`), and its outcome after. Calls refused before running (bad key, bad body) are not writes and
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
      // The audit row comes first: a write that cannot be audited does not happen.
      const auditId = await recordWrite(context, info.fieldName, args);
      try {
        const result = await resolve(root, args, context, info);
        await finishWrite(context, auditId, 'ok');
        return result;
      } catch (error) {
        await finishWrite(context, auditId, error instanceof DomainError ? error.code : 'internal_error').catch((auditError) =>
          context.logger.error({ err: auditError }, 'audit outcome not recorded'),
        );
        throw error;
      }
    };
  }
  return schema;
}
