import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { renameKeys, snakeToCamel } from '../kernel/case';
import { pageRequest, toConnection } from '../schema/connection';
import {
  AttendanceDayConnection,
  TimesheetArgs,
  TimesheetSummaryConnection,
  type AttendanceDayType,
  type TimesheetSummaryType,
} from '../schema/timesheet.type';
import type { DayRecord } from '../services/attendance/day-record';
import { listTimesheetDays, timesheetSummary } from '../services/attendance/timesheet.service';
import type { RequestContext } from '../context/request-context';

/** A stored day (snake_case, ISO times) as the GraphQL object; also used by the attendanceDayUpdated subscription. */
export function attendanceDayObject(record: DayRecord): AttendanceDayType {
  return {
    ...(renameKeys(record, snakeToCamel) as Omit<AttendanceDayType, 'id' | 'firstIn' | 'lastOut'>),
    id: `${record.employee_id}:${record.date}`,
    firstIn: record.first_in ? new Date(record.first_in) : null,
    lastOut: record.last_out ? new Date(record.last_out) : null,
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
    const page = await timesheetSummary(ctx, filterOf(args), pageRequest(args));
    return toConnection({ ...page, items: page.items.map((row) => renameKeys(row, snakeToCamel) as TimesheetSummaryType) });
  }
}
