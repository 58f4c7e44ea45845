import type { EntityName } from '@mikro-orm/core';
import type { FilterQuery } from '@mikro-orm/postgresql';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';

/** The row `id` of the caller's workspace, or not_found (an id of another workspace is unknown here too). */
export async function findOwned<T extends object>(ctx: RequestContext, entity: EntityName<T>, id: number, resource: string): Promise<T> {
  const row = await ctx.em.findOne(entity, { id, workspaceId: workspaceOf(ctx) } as FilterQuery<T>);
  if (!row) throw DomainError.notFound(resource, id);
  return row;
}
