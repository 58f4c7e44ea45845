import { GraphQLSafeInt } from 'graphql-scalars';
import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as punches from '../services/attendance/punch.service';
import { voidPunch } from '../services/attendance/punch-void.service';
import { punchCountsByHour } from '../services/attendance/punch-counts.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreatePunchInput, CreatePunchPayload, PunchConnection, PunchesArgs, PunchSource, PunchType } from '../schema/punch.type';
import { punchSource } from '../events/event-payloads';
import type { PunchRecordType } from '../entities/punch.entity';
import { Bounded } from '../schema/bounds';

@Resolver(() => PunchType)
export class PunchResolver {
  @FieldResolver(() => PunchSource, { description: 'Where the punch came from: a terminal, a manual entry, a punch correction or a phone.' })
  source(@Root() punch: { recordType: PunchRecordType; correctionId?: number | null; source?: PunchSource }) {
    // A punch of an event carries its source; a stored punch derives it.
    return punch.source ?? punchSource(punch);
  }

  @Authorized('read')
  @Query(() => PunchType)
  punch(@Ctx() ctx: RequestContext, @Arg('id', () => GraphQLSafeInt) id: number) {
    return punches.getPunch(ctx, id);
  }

  @Authorized('read')
  @Query(() => PunchConnection, { description: 'Newest first (then highest id).' })
  async punches(@Ctx() ctx: RequestContext, @Args() { startDate, endDate, employeeId, deviceId, companyId, ...page }: PunchesArgs) {
    const filter = {
      startDate: startDate ?? undefined,
      endDate: endDate ?? undefined,
      employeeId: employeeId ?? undefined,
      deviceId: deviceId ?? undefined,
      companyId: companyId ?? undefined,
    };
    return toConnection(await punches.listPunches(ctx, filter, pageRequest(page)));
  }

  @Authorized('read')
  @Query(() => [Int], {
    description: 'Punches per hour (24 counts, hour 0 first) of one calendar day (YYYY-MM-DD) in the workspace time zone; of one company when given.',
  })
  punchCountsByHour(
    @Ctx() ctx: RequestContext,
    @Arg('date') @Bounded('date') date: string,
    @Arg('companyId', () => Int, { nullable: true }) companyId?: number | null,
  ) {
    return punchCountsByHour(ctx, date, companyId);
  }

  @Authorized('write')
  @Mutation(() => CreatePunchPayload, { description: 'A manual punch; repeating the same punch returns the stored one with `created: false`.' })
  createPunch(@Ctx() ctx: RequestContext, @Arg('input') input: CreatePunchInput) {
    return punches.createPunch(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => PunchType, { description: 'Marks the punch as not counting in attendance, with a reason; it stays stored and listed.' })
  voidPunch(@Ctx() ctx: RequestContext, @Arg('id', () => GraphQLSafeInt) id: number, @Arg('reason') @Bounded('reason') reason: string) {
    return voidPunch(ctx, id, reason);
  }
}
