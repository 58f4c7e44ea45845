import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/** One opening interval of a weekday (ISO 1 Monday … 7 Sunday), `HH:MM` local to the terminal, end inclusive. */
export interface WeekdayInterval {
  weekday: number;
  startTime: string;
  endTime: string;
}

/** One opening interval on holidays of a type (1–3, the company's holidays). */
export interface HolidayInterval {
  holidayType: number;
  startTime: string;
  endTime: string;
}

/**
 * When doors open for an access level: up to 3 intervals per weekday and per holiday type. A
 * company's built-in schedule "Always" (every day and holiday, 00:00–23:59) cannot be changed.
 */
@Entity({ tableName: 'access_schedule' })
export class AccessSchedule {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 100 })
  name!: string;

  @Property({ type: 'jsonb' })
  intervals!: WeekdayInterval[];

  @Property({ type: 'jsonb' })
  holidayIntervals!: HolidayInterval[];

  @Property({ default: false })
  builtIn: boolean = false;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
