import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/**
 * A kind of absence a company grants (vacation, sick, unpaid...): counted in whole or half days
 * (`unit` day) or in hours (`unit` hour), with a yearly allowance in that unit. Every company gets
 * vacation, sick and unpaid when it is created (src/services/leave/absence-type.service.ts).
 */
@Entity({ tableName: 'absence_type' })
@Unique({ name: 'absence_type_company_code_unique', properties: ['companyId', 'code'] })
export class AbsenceType {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 100 })
  name!: string;

  /** The pay item code payroll books the absence under (`VAC`, `SICK`, `UNPAID`). */
  @Property({ length: 20 })
  code!: string;

  /** Paid: an approved day counts its scheduled minutes as leave minutes. */
  @Property()
  paid!: boolean;

  /** `day` (whole or half days) or `hour`. */
  @Property({ length: 8 })
  unit!: string;

  /** Per calendar year, in `unit`; null: no allowance is tracked (no balance refusal). */
  @Property({ type: 'double', nullable: true })
  annualAllowance?: number | null;

  /** The most of last year's remaining allowance that carries into a year, in `unit`. */
  @Property({ type: 'double', default: 0 })
  carryOver!: number;

  /** A request may take the balance below zero. */
  @Property({ default: false })
  allowNegative!: boolean;

  @Property({ length: 7, nullable: true })
  color?: string | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
