import { Embedded, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { AbsenceType } from './absence-type.entity';
import { Company } from './company.entity';
import { Decision } from './decision.embeddable';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * An employee's request to be away from `startDate` to `endDate` (inclusive local dates): pending,
 * then approved or rejected by an approver; cancelled by the requester while pending or by an
 * approver after approval. Approved requests make their workdays `leave` (docs/attendance.md).
 */
@Entity({ tableName: 'absence_request' })
@Index({ name: 'absence_request_employee_dates_index', properties: ['employeeId', 'startDate'] })
@Index({ name: 'absence_request_company_state_index', properties: ['companyId', 'decision.state'] })
export class AbsenceRequest {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** A type in use is not deleted (resource_in_use). */
  @ManyToOne(() => AbsenceType, { mapToPk: true, fieldName: 'absence_type_id' })
  absenceTypeId!: number;

  @Property({ type: 'date' })
  startDate!: string;

  @Property({ type: 'date' })
  endDate!: string;

  /** `am` or `pm`: half of one day (day types only). */
  @Property({ length: 2, nullable: true })
  halfDay?: string | null;

  /** `HH:MM` local: the hours of an hourly type, on each day of the range. */
  @Property({ length: 5, nullable: true })
  startTime?: string | null;

  @Property({ length: 5, nullable: true })
  endTime?: string | null;

  @Property({ length: 1000, nullable: true })
  note?: string | null;

  /** `pending`, `approved`, `rejected` or `cancelled`; who filed and last decided it. */
  @Embedded(() => Decision, { prefix: false })
  decision!: Decision;

  /** What the request charges, in the type's unit, per calendar year of its dates: `{"2026": 5}`. */
  @Property({ type: 'json' })
  amounts!: Record<string, number>;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
