import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { pageRequest, toConnection } from '../schema/connection';
import { AttendanceDayConnection, TimesheetArgs, TimesheetSummaryConnection, type AttendanceDayType } from '../schema/timesheet.type';
import type { DayView } from '../services/attendance/day-record';
import { listTimesheetDays, timesheetSummary } from '../services/attendance/timesheet.service';
import type { RequestContext } from '../context/request-context';

/** A day's view as the GraphQL object (its id, times as Dates); also used by the attendanceDayUpdated subscription. */
export function attendanceDayObject(view: DayView): AttendanceDayType {
  return {
    ...view,
    id: `${view.employeeId}:${view.date}`,
    firstIn: view.firstIn ? new Date(view.firstIn) : null,
    lastOut: view.lastOut ? new Date(view.lastOut) : null,
  };
}

const filterOf = (args: TimesheetArgs) => ({
  startDate: args.startDate,
  endDate: args.endDate,
  employeeId: args.employeeId,
  companyId: args.companyId,
  areaId: args.areaId,
});

@Resolver()
export class TimesheetResolver {
  @Authorized('read')
  @Query(() => AttendanceDayConnection, { description: 'Attendance days of a date range (at most 366 days), by employee then date.' })
  async timesheet(@Ctx() ctx: RequestContext, @Args() args: TimesheetArgs) {
    const page = await listTimesheetDays(ctx, filterOf(args), pageRequest(args));
    return toConnection({ ...page, items: page.items.map(attendanceDayObject) });
  }

  @Authorized('read')
  @Query(() => TimesheetSummaryConnection, { description: 'One row per employee of the filter: totals over the date range.' })
  async timesheetSummary(@Ctx() ctx: RequestContext, @Args() args: TimesheetArgs) {
    return toConnection(await timesheetSummary(ctx, filterOf(args), pageRequest(args)));
  }
}
