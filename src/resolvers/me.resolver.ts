import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Bounded } from '../schema/bounds';
import type { RequestContext } from '../context/request-context';
import type { AbsenceRequest, PunchCorrection } from '../entities';
import { pageRequest, toConnection } from '../schema/connection';
import {
  AbsenceBalanceType,
  AbsenceRequestConnection,
  AbsenceRequestType,
  absenceRequestObject,
  PunchCorrectionConnection,
  PunchCorrectionType,
  punchCorrectionObject,
} from '../schema/absence.type';
import { PunchConnection } from '../schema/punch.type';
import {
  MeApprovalArgs,
  MePunchesArgs,
  MeReportType,
  MeRequestArgs,
  MeTimesheetArgs,
  MeType,
  MyAbsenceRequestInput,
  MyPunchCorrectionInput,
  MyPunchInput,
  MyPunchPayload,
} from '../schema/self-service.type';
import { AttendanceDayConnection } from '../schema/timesheet.type';
import { absenceRequestData } from '../services/leave/absence-request.service';
import { punchCorrectionData } from '../services/leave/punch-correction.service';
import * as me from '../services/self-service/me.service';
import * as approvals from '../services/self-service/approvals.service';
import { createMobilePunch } from '../services/self-service/mobile-punch.service';
import { attendanceDayObject } from './timesheet.resolver';

const requestObject = (request: AbsenceRequest) => absenceRequestObject(absenceRequestData(request));
const correctionObject = (correction: PunchCorrection) => punchCorrectionObject(punchCorrectionData(correction));
/** An optional comment argument, bounded like every comment (@Bounded runs before the resolver). */
const comment = (): ParameterDecorator => (target, key, index) => {
  Arg('comment', () => String, { nullable: true, description: 'For the requester (at most 1,000 characters).' })(target, key!, index);
  Bounded('comment')(target, key!, index);
};

/** Self-service (docs/self-service.md): only an employee principal reaches these; the services scope every call to it. */
@Resolver(() => MeType)
export class MeResolver {
  @Authorized('employee')
  @Query(() => MeType, { description: 'The calling employee (an employee token or a self-service session): what they may see of themself.' })
  async me(@Ctx() ctx: RequestContext): Promise<MeType> {
    const profile = await me.myProfile(ctx);
    const { employee, company } = profile;
    return {
      employee,
      company: {
        id: company.id,
        name: company.name,
        mobilePunch: company.mobilePunch,
        mobilePunchAccuracyM: company.mobilePunchAccuracyM,
        managerApprovals: company.managerApprovals,
      },
      geofences: profile.geofences,
      verificationStates: profile.verificationStates,
      absenceTypes: profile.absenceTypes,
      approver: profile.approver,
    };
  }

  @FieldResolver(() => AttendanceDayConnection, { description: "The employee's days of a date range (at most 366 days): the rows of `timesheet`." })
  async timesheet(@Ctx() ctx: RequestContext, @Args() args: MeTimesheetArgs) {
    const page = await me.myTimesheet(ctx, { startDate: args.startDate, endDate: args.endDate }, pageRequest(args));
    return toConnection({ ...page, items: page.items.map(attendanceDayObject) });
  }

  @FieldResolver(() => PunchConnection, { description: "The employee's punches, newest first: every source, voided ones included." })
  async punches(@Ctx() ctx: RequestContext, @Args() args: MePunchesArgs) {
    return toConnection(await me.myPunches(ctx, { startDate: args.startDate ?? undefined, endDate: args.endDate ?? undefined }, pageRequest(args)));
  }

  @FieldResolver(() => [AbsenceBalanceType], { description: "The employee's balance per absence type for a year (default: the current year)." })
  absenceBalances(@Ctx() ctx: RequestContext, @Arg('year', () => Int, { nullable: true, description: '1900 to 2199.' }) year?: number | null) {
    return me.myAbsenceBalances(ctx, year);
  }

  @FieldResolver(() => AbsenceRequestConnection, { description: "The employee's absence requests with their states, by start date." })
  async absenceRequests(@Ctx() ctx: RequestContext, @Args() { state, startDate, endDate, ...page }: MeRequestArgs) {
    const result = await me.myAbsenceRequests(ctx, { state, startDate, endDate }, pageRequest(page));
    return toConnection({ ...result, items: result.items.map(requestObject) });
  }

  @FieldResolver(() => PunchCorrectionConnection, { description: "The employee's punch corrections with their states." })
  async punchCorrections(@Ctx() ctx: RequestContext, @Args() { state, startDate, endDate, ...page }: MeRequestArgs) {
    const result = await me.myPunchCorrections(ctx, { state, startDate, endDate }, pageRequest(page));
    return toConnection({ ...result, items: result.items.map(correctionObject) });
  }

  @FieldResolver(() => [MeReportType], { description: "A manager's reports: the employees of the areas they approve (forbidden for anyone else)." })
  async reports(@Ctx() ctx: RequestContext) {
    return approvals.myReports(ctx);
  }

  @FieldResolver(() => AbsenceRequestConnection, { description: "A manager's reports' absence requests (pending unless `state` says otherwise)." })
  async reportAbsenceRequests(@Ctx() ctx: RequestContext, @Args() { state, ...page }: MeApprovalArgs) {
    const result = await approvals.reportAbsenceRequests(ctx, state, pageRequest(page));
    return toConnection({ ...result, items: result.items.map(requestObject) });
  }

  @FieldResolver(() => PunchCorrectionConnection, { description: "A manager's reports' punch corrections (pending unless `state` says otherwise)." })
  async reportPunchCorrections(@Ctx() ctx: RequestContext, @Args() { state, ...page }: MeApprovalArgs) {
    const result = await approvals.reportPunchCorrections(ctx, state, pageRequest(page));
    return toConnection({ ...result, items: result.items.map(correctionObject) });
  }

  @Authorized('employee')
  @Mutation(() => AbsenceRequestType, { description: 'Files an absence request for the calling employee (pending).' })
  async createMyAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The absence asked for; a bad value is `validation_failed` and files nothing.' }) input: MyAbsenceRequestInput,
  ) {
    return requestObject(await me.fileMyAbsenceRequest(ctx, input));
  }

  @Authorized('employee')
  @Mutation(() => AbsenceRequestType, { description: "Cancels one of the calling employee's own pending absence requests." })
  async cancelMyAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The id of one of the caller's own absence requests; anyone else's is `not_found`." }) id: number,
    @comment() text?: string | null,
  ) {
    return requestObject(await me.cancelMyAbsenceRequest(ctx, id, text));
  }

  @Authorized('employee')
  @Mutation(() => PunchCorrectionType, { description: 'Files a punch correction for the calling employee (pending).' })
  async createMyPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The punches to add or the punch to void, and why; a bad value is `validation_failed` and files nothing.' })
    input: MyPunchCorrectionInput,
  ) {
    return correctionObject(await me.fileMyPunchCorrection(ctx, input));
  }

  @Authorized('employee')
  @Mutation(() => PunchCorrectionType, { description: "Cancels one of the calling employee's own pending punch corrections." })
  async cancelMyPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The id of one of the caller's own punch corrections; anyone else's is `not_found`." }) id: number,
    @comment() text?: string | null,
  ) {
    return correctionObject(await me.cancelMyPunchCorrection(ctx, id, text));
  }

  @Authorized('employee')
  @Mutation(() => MyPunchPayload, {
    description:
      "A punch from the calling employee's phone, inside a geofence that applies to them (refused: mobile_punch_disabled, location_inaccurate, outside_geofence).",
  })
  createMyPunch(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The punch state and where the phone says it is; a bad value is `validation_failed` and stores nothing.' })
    input: MyPunchInput,
  ) {
    return createMobilePunch(ctx, input);
  }

  @Authorized('employee')
  @Mutation(() => AbsenceRequestType, { description: "A manager approves a report's pending absence request (the rules of the `approve` scope)." })
  async approveReportAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The id of a report's absence request; one of anyone else is `not_found`." }) id: number,
    @comment() text?: string | null,
  ) {
    return requestObject(await approvals.decideReportAbsenceRequest(ctx, id, 'approve', text));
  }

  @Authorized('employee')
  @Mutation(() => AbsenceRequestType, { description: "A manager rejects a report's pending absence request." })
  async rejectReportAbsenceRequest(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The id of a report's absence request; one of anyone else is `not_found`." }) id: number,
    @comment() text?: string | null,
  ) {
    return requestObject(await approvals.decideReportAbsenceRequest(ctx, id, 'reject', text));
  }

  @Authorized('employee')
  @Mutation(() => PunchCorrectionType, { description: "A manager approves a report's pending punch correction (its punches are made at once)." })
  async approveReportPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The id of a report's punch correction; one of anyone else is `not_found`." }) id: number,
    @comment() text?: string | null,
  ) {
    return correctionObject(await approvals.decideReportPunchCorrection(ctx, id, 'approve', text));
  }

  @Authorized('employee')
  @Mutation(() => PunchCorrectionType, { description: "A manager rejects a report's pending punch correction." })
  async rejectReportPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The id of a report's punch correction; one of anyone else is `not_found`." }) id: number,
    @comment() text?: string | null,
  ) {
    return correctionObject(await approvals.decideReportPunchCorrection(ctx, id, 'reject', text));
  }
}
