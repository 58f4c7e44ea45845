import { BigIntType, Embedded, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Decision } from './decision.embeddable';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/** One punch a correction asks for: an instant and the terminal state it stands for. */
export interface CorrectionPunch {
  /** ISO 8601 UTC. */
  punch_time: string;
  punch_state: string;
}

/**
 * A request to correct an employee's punches: add the punches they forgot (one, or a forgotten
 * week), or remove one (`voidPunchId`). Pending, then approved (the punches are created as manual
 * punches linked here, or the punch is voided, and the days recomputed at once) or rejected
 * (nothing changes); cancelled while pending.
 */
@Entity({ tableName: 'punch_correction' })
@Index({ name: 'punch_correction_employee_index', properties: ['employeeId', 'createdAt'] })
@Index({ name: 'punch_correction_company_state_index', properties: ['companyId', 'decision.state'] })
export class PunchCorrection {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** The punches to add, in time order; empty for a void. */
  @Property({ type: 'json' })
  punches!: CorrectionPunch[];

  /** The punch to void (64-bit id as a number); null when punches are added. */
  @Property({ type: new BigIntType('number'), nullable: true })
  voidPunchId?: number | null;

  /** The manual punches its approval created. */
  @Property({ type: 'json' })
  createdPunchIds!: number[];

  /** The first and last local dates it touches (a locked pay period is checked on them). */
  @Property({ type: 'date' })
  firstDate!: string;

  @Property({ type: 'date' })
  lastDate!: string;

  @Property({ length: 500 })
  reason!: string;

  /** `pending`, `approved`, `rejected` or `cancelled`; who filed and last decided it. */
  @Embedded(() => Decision, { prefix: false })
  decision!: Decision;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
