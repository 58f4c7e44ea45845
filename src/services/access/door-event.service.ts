import { Device, DoorEvent } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../common/context';
import type { Page, PageRequest } from '../common/pagination';

/** A device's door events, newest first (then highest id). The device must be of the caller's workspace. */
export async function listDoorEvents(ctx: RequestContext, deviceId: number, page: PageRequest): Promise<Page<DoorEvent>> {
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Device, { id: deviceId, workspaceId }, { fields: ['id'] }))) throw DomainError.notFound('Device', deviceId);
  const [items, totalCount] = await ctx.em.findAndCount(
    DoorEvent,
    { workspaceId, deviceId },
    { orderBy: [{ time: 'desc' }, { id: 'desc' }], offset: page.offset, limit: page.limit },
  );
  return { items, totalCount, offset: page.offset };
}
