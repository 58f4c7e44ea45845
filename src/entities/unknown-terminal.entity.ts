import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** A serial number that contacted `/iclock/*` without a device record; cleared when a workspace claims it. */
@Entity({ tableName: 'unknown_terminal' })
@Index({
  name: 'unknown_terminal_serial_unique',
  expression: 'create unique index "unknown_terminal_serial_unique" on "unknown_terminal" (lower("serial_number"))',
})
@Index({ name: 'unknown_terminal_ip_index', properties: ['ip'] })
export class UnknownTerminal {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 64 })
  serialNumber!: string;

  /** Source address as the server saw it. */
  @Property({ length: 64 })
  ip!: string;

  @Property({ length: 100, nullable: true })
  model?: string | null;

  @Property({ length: 100, nullable: true })
  firmware?: string | null;

  /** `att-push` or `acc-push`, from the requests seen. */
  @Property({ length: 16, nullable: true })
  protocol?: string | null;

  @Property({ type: 'timestamptz' })
  firstSeenAt!: Date;

  @Property({ type: 'timestamptz' })
  lastSeenAt!: Date;

  @Property({ type: 'bigint', default: 0 })
  requestCount: string = '0';
}
