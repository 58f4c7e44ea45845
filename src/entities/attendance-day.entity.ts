import { ArrayType, Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * One employee's attendance on one local date, as the engine computed it
 * (src/services/attendance/compute-days.ts). Written only by the attendance store
 * (src/services/attendance/day-store.ts): by the background worker after punches and changes, and
 * when a timesheet read finds a day never computed. docs/attendance.md has every rule.
 */
@Entity({ tableName: 'attendance_day' })
@Unique({ name: 'attendance_day_employee_date_unique', properties: ['employeeId', 'date'] })
@Index({ name: 'attendance_day_company_date_index', properties: ['companyId', 'date'] })
// What the worker must look at again: days marked stale by a change, and days whose status changes
// with time alone (a `scheduled` workday becomes `absent` once its window ends).
@Index({
  name: 'attendance_day_stale_index',
  expression: 'create index "attendance_day_stale_index" on "attendance_day" ("employee_id", "date") where "stale"',
})
@Index({
  name: 'attendance_day_settles_index',
  expression: 'create index "attendance_day_settles_index" on "attendance_day" ("settles_at") where "settles_at" is not null',
})
export class AttendanceDay {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** The local date on which the shift starts (a 22:00–06:00 shift is one day). */
  @Property({ type: 'date' })
  date!: string;

  /** The shift whose instance the day is; null on a rest day or without a shift. No constraint: a deleted shift leaves its history. */
  @Property({ type: 'integer', nullable: true })
  shiftId?: number | null;

  @Property({ length: 16 })
  status!: string;

  @Property({ type: 'timestamptz', nullable: true })
  firstIn?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastOut?: Date | null;

  @Property()
  scheduledMinutes!: number;

  @Property()
  workedMinutes!: number;

  @Property()
  breakMinutes!: number;

  @Property()
  lateMinutes!: number;

  @Property()
  earlyLeaveMinutes!: number;

  @Property()
  overtimeMinutes!: number;

  /** Paid minutes by pay code, `[{code, minutes}]`, non-zero codes in code order (pay-rules.ts). */
  @Property({ type: 'json', default: '[]' })
  payItems!: { code: string; minutes: number }[];

  @Property({ type: 'text[]' })
  exceptions!: string[];

  /** 64-bit punch ids, numbers here (below 2^53, like Punch.id). */
  @Property({ type: new ArrayType((id) => Number(id)), columnType: 'bigint[]' })
  punchIds!: number[];

  /** The approved absence on this workday (docs/attendance.md, "Leave"); null without one. No constraint: history stays. */
  @Property({ type: 'integer', nullable: true })
  absenceTypeId?: number | null;

  /** The absence type's pay item code, as it was when the day was computed. */
  @Property({ length: 20, nullable: true })
  absenceCode?: string | null;

  /** Paid leave minutes of the day (the scheduled minutes of a paid full day; half of them for a half day; an hourly absence's hours). */
  @Property({ default: 0 })
  leaveMinutes!: number;

  /** Overtime and double time waiting for an overtime approval (a company whose policy requires one); not paid until approved. */
  @Property({ default: 0 })
  pendingOvertimeMinutes!: number;

  /** A change (shift, assignment, holiday, void) may alter this day: recompute it. */
  @Property({ default: false })
  stale!: boolean;

  /** When the day's status changes by time alone (the end of a workday's window); null once settled. */
  @Property({ type: 'timestamptz', nullable: true })
  settlesAt?: Date | null;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;
}
