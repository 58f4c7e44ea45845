import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * How far a background consumer of the event outbox has read (`position` = the last event id it
 * processed). The attendance worker follows `attendance.created` events with it.
 */
@Entity({ tableName: 'job_cursor' })
export class JobCursor {
  @PrimaryKey({ length: 64 })
  name!: string;

  @Property({ type: 'bigint' })
  position!: string;
}
