import { Embeddable, Property } from '@mikro-orm/core';

/**
 * Where a request an approver decides stands, and who filed and last decided it: the same columns
 * in `absence_request`, `punch_correction` and `overtime_approval` (embedded without a prefix, so the
 * column names are the properties' own). The transitions are services/leave/request-decision.ts.
 */
@Embeddable()
export class Decision {
  /** `pending`, `approved`, `rejected` or `cancelled` (an overtime approval is never cancelled). */
  @Property({ length: 16 })
  state!: string;

  /** The API key that filed it. */
  @Property({ type: 'integer', nullable: true })
  requestedByKeyId?: number | null;

  /** The API key of the last decision (approve, reject, cancel). */
  @Property({ type: 'integer', nullable: true })
  decidedByKeyId?: number | null;

  /** The employee who filed it themself in self-service (null when an API key or console session did). */
  @Property({ type: 'integer', nullable: true })
  requestedByEmployeeId?: number | null;

  /** The employee of the last decision: the requester cancelling, or a manager deciding in self-service. */
  @Property({ type: 'integer', nullable: true })
  decidedByEmployeeId?: number | null;

  @Property({ type: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Property({ length: 1000, nullable: true })
  decisionComment?: string | null;
}
