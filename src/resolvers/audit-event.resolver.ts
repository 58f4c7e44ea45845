import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { listAuditEvents } from '../services/common/audit.service';
import type { RequestContext } from '../context/request-context';
import { AuditEventConnection, AuditEventsArgs, AuditEventType } from '../schema/audit-event.type';
import { pageRequest, toConnection } from '../schema/connection';

@Resolver(() => AuditEventType)
export class AuditEventResolver {
  @Authorized('admin')
  @Query(() => AuditEventConnection, { description: "The workspace's audit log, newest first (admin keys)." })
  async auditEvents(@Ctx() ctx: RequestContext, @Args() { operation, ...page }: AuditEventsArgs) {
    return toConnection(await listAuditEvents(ctx, { operation: operation ?? undefined }, pageRequest(page)));
  }
}
