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
import { Bounded, maxChars } from '../schema/bounds';

@Resolver(() => PunchType)
export class PunchResolver {
  @FieldResolver(() => PunchSource, { description: 'Where the punch came from: a terminal, a manual entry, a punch correction or a phone.' })
  source(@Root() punch: { recordType: PunchRecordType; correctionId?: number | null; source?: PunchSource }) {
    // A punch of an event carries its source; a stored punch derives it.
    return punch.source ?? punchSource(punch);
  }

  @Authorized('read')
  @Query(() => PunchType, { description: 'The punch with this id; one of another workspace, or none, answers `not_found`.' })
  punch(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => GraphQLSafeInt, { description: "The punch's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
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
    @Arg('date', { description: 'The calendar day, `YYYY-MM-DD`, in the workspace time zone.' }) @Bounded('date') date: string,
    @Arg('companyId', () => Int, { nullable: true, description: "The company's id; one of another workspace, or none, answers `not_found`." })
    companyId?: number | null,
  ) {
    return punchCountsByHour(ctx, date, companyId);
  }

  @Authorized('write')
  @Mutation(() => CreatePunchPayload, { description: 'A manual punch; repeating the same punch returns the stored one with `created: false`.' })
  createPunch(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreatePunchInput,
  ) {
    return punches.createPunch(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => PunchType, { description: 'Marks the punch as not counting in attendance, with a reason; it stays stored and listed.' })
  voidPunch(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => GraphQLSafeInt, { description: "The punch's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('reason', { description: `Why the punch does not count (kept with it and in the audit log): not blank, ${maxChars('reason')}.` })
    @Bounded('reason')
    reason: string,
  ) {
    return voidPunch(ctx, id, reason);
  }
}
