import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import { listQuarantinedPunches } from '../services/terminals/punch-quarantine.service';
import { pageRequest, toConnection } from '../schema/connection';
import { QuarantinedPunchConnection, QuarantinedPunchesArgs, QuarantinedPunchType } from '../schema/quarantined-punch.type';

@Resolver(() => QuarantinedPunchType)
export class QuarantinedPunchResolver {
  @Authorized('read')
  @Query(() => QuarantinedPunchConnection, {
    description:
      'Terminal punches with an impossible date (before 2000, or more than a day ahead of the terminal clock), newest first. They are shown, not released: enter the real time as a manual punch (createPunch).',
  })
  async quarantinedPunches(@Ctx() ctx: RequestContext, @Args() { deviceId, companyId, reason, ...page }: QuarantinedPunchesArgs) {
    const filter = { deviceId: deviceId ?? undefined, companyId: companyId ?? undefined, reason: reason ?? undefined };
    return toConnection(await listQuarantinedPunches(ctx, filter, pageRequest(page)));
  }
}
