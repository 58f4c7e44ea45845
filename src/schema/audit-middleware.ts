import type { MiddlewareFn } from 'type-graphql';
import { DomainError } from '../errors/domain-error';
import { recordWrite } from '../services/audit.service';
import type { RequestContext } from '../services/context';

/**
 * Every mutation, from GraphQL or from a REST route (both execute this schema), is written to the
 * audit log with its outcome. Calls refused before running (bad key, bad body) are not writes and
 * are not recorded; a refused scope is (outcome `forbidden`).
 */
export const auditWrites: MiddlewareFn<RequestContext> = async ({ context, info, args }, next) => {
  if (info.parentType.name !== 'Mutation' || info.path.prev !== undefined) return next();
  try {
    const result = await next();
    await recordWrite(context, info.fieldName, args, 'ok');
    return result;
  } catch (error) {
    await recordWrite(context, info.fieldName, args, error instanceof DomainError ? error.code : 'internal_error').catch((auditError) =>
      context.logger.error({ err: auditError }, 'audit record failed'),
    );
    throw error;
  }
};
