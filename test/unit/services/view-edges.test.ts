// One shape (docs/architecture.md): the services return camelCase views; REST, CSV and event payloads
// convert at their edge. Each view here goes to its wire shape and back, and the wire shape is spelled
// out field by field: a renamed view field that would change a REST body, a CSV column or a payload fails.
import { expect } from 'chai';
import { restInputOf, restShapeOf } from '../../../src/rest/rest-shape';
import { toCsv } from '../../../src/rest/csv';
import { DAY_COLUMNS, timesheetRoutes } from '../../../src/rest/timesheet.routes';
import { dayPayloadOf, dayViewOf, type DayView } from '../../../src/services/attendance/day-record';
import type { SummaryView } from '../../../src/services/attendance/timesheet.service';
import type { BalanceView } from '../../../src/services/leave/absence-balance';
import { EXPORT_COLUMNS, exportRowOf, storedExportRowOf, type ExportRow } from '../../../src/services/payroll/export-rows';
import { exportCsv, parseColumnMapping } from '../../../src/services/payroll/column-mapping';

const day: DayView = {
  employeeId: 7,
  companyId: 2,
  date: '2026-03-02',
  shiftId: 4,
  status: 'present',
  firstIn: '2026-03-02T08:58:00.000Z',
  lastOut: '2026-03-02T17:31:00.000Z',
  scheduledMinutes: 480,
  workedMinutes: 483,
  breakMinutes: 30,
  lateMinutes: 0,
  earlyLeaveMinutes: 0,
  overtimeMinutes: 3,
  pendingOvertimeMinutes: 0,
  payItems: [
    { code: 'regular', minutes: 480 },
    { code: 'overtime', minutes: 3 },
  ],
  exceptions: ['manual_punch'],
  punchIds: [11, 12],
  absenceTypeId: null,
  absenceCode: null,
  leaveMinutes: 0,
};

/** The day on the wire: a REST timesheet row (company_id aside, which REST does not select) and the attendance.day.updated payload. */
const dayWire = {
  employee_id: 7,
  company_id: 2,
  date: '2026-03-02',
  shift_id: 4,
  status: 'present',
  first_in: '2026-03-02T08:58:00.000Z',
  last_out: '2026-03-02T17:31:00.000Z',
  scheduled_minutes: 480,
  worked_minutes: 483,
  break_minutes: 30,
  late_minutes: 0,
  early_leave_minutes: 0,
  overtime_minutes: 3,
  pending_overtime_minutes: 0,
  pay_items: [
    { code: 'regular', minutes: 480 },
    { code: 'overtime', minutes: 3 },
  ],
  exceptions: ['manual_punch'],
  punch_ids: [11, 12],
  absence_type_id: null,
  absence_code: null,
  leave_minutes: 0,
};

describe('one shape: each service view and its REST, CSV and event shapes', () => {
  it('a day: REST and the attendance.day.updated payload name every field the same way, and come back to the view', () => {
    expect(restShapeOf(day)).to.deep.equal(dayWire);
    expect(dayPayloadOf(day)).to.deep.equal(dayWire);
    expect(dayViewOf(dayWire)).to.deep.equal(day);
    expect(restInputOf(restShapeOf(day))).to.deep.equal(day);
    // Every CSV column of /public/v2/timesheets is a field of the REST row.
    expect(DAY_COLUMNS.filter((column) => !(column in dayWire))).to.deep.equal([]);
    expect(toCsv(DAY_COLUMNS, [restShapeOf(day) as Record<string, unknown>]).split('\r\n')[1]).to.equal(
      '7,2026-03-02,4,present,2026-03-02T08:58:00.000Z,2026-03-02T17:31:00.000Z,480,483,30,0,0,3,regular:480;overtime:3,manual_punch,11;12,,,0,0',
    );
  });

  it('a summary row: the REST row names each total as the CSV columns do, and comes back to the view', () => {
    const summary: SummaryView = {
      employeeId: 7,
      daysPresent: 20,
      daysAbsent: 1,
      daysIncomplete: 0,
      workedMinutes: 9600,
      overtimeMinutes: 45,
      lateMinutes: 12,
      daysLeave: 1,
      leaveMinutes: 480,
      payItems: [{ code: 'regular', minutes: 9600 }],
      pendingOvertimeMinutes: 0,
    };
    const wire = {
      employee_id: 7,
      days_present: 20,
      days_absent: 1,
      days_incomplete: 0,
      worked_minutes: 9600,
      overtime_minutes: 45,
      late_minutes: 12,
      days_leave: 1,
      leave_minutes: 480,
      pay_items: [{ code: 'regular', minutes: 9600 }],
      pending_overtime_minutes: 0,
    };
    expect(restShapeOf(summary)).to.deep.equal(wire);
    expect(restInputOf(wire)).to.deep.equal(summary);
    expect(timesheetRoutes.find((r) => r.name === 'getTimesheetSummary')!.csv).to.deep.equal(Object.keys(wire));
  });

  it('an absence balance: the REST row, and back', () => {
    const balance: BalanceView = { absenceTypeId: 3, year: 2026, unit: 'day', allowance: 25, carriedOver: 4, taken: 10, pending: 2, remaining: 17 };
    const wire = { absence_type_id: 3, year: 2026, unit: 'day', allowance: 25, carried_over: 4, taken: 10, pending: 2, remaining: 17 };
    expect(restShapeOf(balance)).to.deep.equal(wire);
    expect(restInputOf(wire)).to.deep.equal(balance);
  });

  it('a payroll export row: the REST row, the row frozen at a lock and the CSV columns share one set of names', () => {
    const row: ExportRow = {
      employeeId: 3,
      employeeCode: 'E-3',
      employeeName: 'Ada Lovelace',
      companyCode: 'ACME',
      companyName: 'Acme, Inc.',
      startDate: '2026-09-01',
      endDate: '2026-09-30',
      payCode: 'overtime',
      minutes: 20,
      hours: '0.33',
      hoursMinutes: '0:20',
      ratePercent: 150,
    };
    const wire = {
      employee_id: 3,
      employee_code: 'E-3',
      employee_name: 'Ada Lovelace',
      company_code: 'ACME',
      company_name: 'Acme, Inc.',
      start_date: '2026-09-01',
      end_date: '2026-09-30',
      pay_code: 'overtime',
      minutes: 20,
      hours: '0.33',
      hours_minutes: '0:20',
      rate_percent: 150,
    };
    expect(restShapeOf(row)).to.deep.equal(wire);
    expect(storedExportRowOf(row)).to.deep.equal(wire);
    expect(exportRowOf(wire)).to.deep.equal(row);
    expect(restInputOf(restShapeOf(row))).to.deep.equal(row);
    expect(EXPORT_COLUMNS).to.deep.equal(Object.keys(wire));
    expect(exportCsv([row], parseColumnMapping(null, null))).to.equal(
      `${Object.keys(wire).join(',')}\r\n3,E-3,Ada Lovelace,ACME,"Acme, Inc.",2026-09-01,2026-09-30,overtime,20,0.33,0:20,150\r\n`,
    );
    // A row frozen before rates were exported has no rate, stored or viewed (its JSON row: null; its CSV cell: empty).
    const { rate_percent: _rate, ...frozen } = wire;
    expect(exportRowOf(frozen)).to.not.have.property('ratePercent');
    expect(storedExportRowOf(exportRowOf(frozen))).to.deep.equal(frozen);
  });
});
