import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

export enum ShiftPairing {
  first_last = 'first_last',
  alternating = 'alternating',
  by_state = 'by_state',
}

/**
 * A company's working time: when it starts and ends (local to `timeZone`; an end at or before the
 * start is the next day), on which ISO weekdays, its unpaid break and the tolerances the attendance
 * engine applies (src/services/attendance/compute-days.ts, docs/attendance.md).
 */
@Entity({ tableName: 'shift' })
@Index({ name: 'shift_company_index', properties: ['companyId'] })
export class Shift {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 200 })
  name!: string;

  /** `HH:MM`. */
  @Property({ length: 5 })
  startTime!: string;

  @Property({ length: 5 })
  endTime!: string;

  @Property({ length: 64 })
  timeZone!: string;

  /** ISO weekdays 1 (Monday) – 7 (Sunday), ascending (a JSON array: read back as numbers). */
  @Property({ type: 'json' })
  workdays!: number[];

  @Property({ type: 'smallint', default: 0 })
  breakMinutes!: number;

  @Property({ type: 'smallint', default: 360 })
  breakAfterMinutes!: number;

  @Property({ type: 'smallint', default: 0 })
  graceInMinutes!: number;

  @Property({ type: 'smallint', default: 0 })
  graceOutMinutes!: number;

  @Property({ type: 'smallint', default: 240 })
  checkInBeforeMinutes!: number;

  @Property({ type: 'smallint', default: 240 })
  checkOutAfterMinutes!: number;

  @Enum({ items: () => ShiftPairing, default: ShiftPairing.first_last })
  pairing!: ShiftPairing;

  /** Punch rounding (docs/attendance.md, "Minute rules"): 1–60 minutes; null: seconds are dropped. */
  @Property({ type: 'smallint', nullable: true })
  roundingMinutes?: number | null;

  /** `nearest`, `down` or `up`, each punch on its own. */
  @Property({ length: 8, default: 'nearest' })
  roundingMode: string = 'nearest';

  /** How a recorded break meets the unpaid break: `replaces`, `adds` or `tops_up`. */
  @Property({ length: 8, default: 'tops_up' })
  recordedBreak: string = 'tops_up';

  /** The shift's overrides of its company's pay policy (only the keys it sets; pay-rules.ts). */
  @Property({ type: 'json', default: '{}' })
  payPolicy: Record<string, unknown> = {};

  /** A flexible shift: start–end is the span in which work counts; lateness only against the core hours. */
  @Property({ default: false })
  flexible: boolean = false;

  /** `HH:MM` core hours of a flexible shift; null: none. */
  @Property({ length: 5, nullable: true })
  coreStart?: string | null;

  @Property({ length: 5, nullable: true })
  coreEnd?: string | null;

  /** A flexible shift's scheduled minutes; null: the shift's length minus its unpaid break. */
  @Property({ type: 'smallint', nullable: true })
  requiredMinutes?: number | null;

  /** Applies to every employee of the company without an assignment; at most one per company. */
  @Property({ default: false })
  isDefault!: boolean;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
