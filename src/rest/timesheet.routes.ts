import { limits } from '../services/common/validation';
import type { RestRoute } from './route';

export const DAY_COLUMNS = [
  'employee_id',
  'date',
  'shift_id',
  'status',
  'first_in',
  'last_out',
  'scheduled_minutes',
  'worked_minutes',
  'break_minutes',
  'late_minutes',
  'early_leave_minutes',
  'overtime_minutes',
  'pay_items',
  'exceptions',
  'punch_ids',
  'absence_type_id',
  'absence_code',
  'leave_minutes',
  'pending_overtime_minutes',
];
const SUMMARY_COLUMNS = [
  'employee_id',
  'days_present',
  'days_absent',
  'days_incomplete',
  'worked_minutes',
  'overtime_minutes',
  'late_minutes',
  'days_leave',
  'leave_minutes',
  'pay_items',
  'pending_overtime_minutes',
];

// Dates are checked by the service (a real calendar date, the order, the span) so both APIs give the same errors.
const timesheetQuery = {
  type: 'object',
  properties: {
    start_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD` from 1900-01-01 to 2199-12-31, inclusive.' },
    end_date: {
      type: 'string',
      maxLength: limits.date,
      description: `\`YYYY-MM-DD\` from 1900-01-01 to 2199-12-31, inclusive; at most 366 days from start_date (the service's rule).`,
    },
    employee_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    area_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: "The area's current employees." },
  },
  required: ['start_date', 'end_date'],
};

const variables = ({ query }: { query: Record<string, unknown> }) => ({
  startDate: query.start_date,
  endDate: query.end_date,
  employeeId: query.employee_id,
  companyId: query.company_id,
  areaId: query.area_id,
});
const args = `$first: Int, $after: String, $startDate: String!, $endDate: String!, $employeeId: Int, $companyId: Int, $areaId: Int`;
const pass = `first: $first, after: $after, startDate: $startDate, endDate: $endDate, employeeId: $employeeId, companyId: $companyId, areaId: $areaId`;

export const timesheetRoutes: RestRoute[] = [
  {
    name: 'listTimesheetDays',
    method: 'GET',
    path: '/public/v2/timesheets',
    list: true,
    csv: DAY_COLUMNS,
    query: timesheetQuery,
    document: `query (${args}) { timesheet(${pass}) { totalCount nodes {
      employeeId date shiftId status firstIn lastOut scheduledMinutes workedMinutes breakMinutes lateMinutes earlyLeaveMinutes overtimeMinutes payItems { code minutes } exceptions punchIds absenceTypeId absenceCode leaveMinutes pendingOvertimeMinutes } } }`,
    resultField: 'timesheet',
    status: 200,
    variables,
  },
  {
    name: 'getTimesheetSummary',
    method: 'GET',
    path: '/public/v2/timesheets/summary',
    list: true,
    csv: SUMMARY_COLUMNS,
    query: timesheetQuery,
    document: `query (${args}) { timesheetSummary(${pass}) { totalCount nodes {
      employeeId daysPresent daysAbsent daysIncomplete workedMinutes overtimeMinutes lateMinutes daysLeave leaveMinutes payItems { code minutes } pendingOvertimeMinutes } } }`,
    resultField: 'timesheetSummary',
    status: 200,
    variables,
  },
];
