import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The tenant and billing unit: everything else belongs to exactly one workspace. */
@Entity({ tableName: 'workspace' })
export class Workspace {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 200 })
  name!: string;

  /** IANA zone used to read bare dates and as the default zone of new devices. */
  @Property({ length: 64, default: 'UTC' })
  timeZone: string = 'UTC';

  /** Plan limits: the free plan allows one company; an operator can raise them. */
  @Property({ default: 1 })
  maxCompanies: number = 1;

  @Property({ default: 10 })
  maxDevices: number = 10;

  @Property({ default: 5000 })
  maxEmployees: number = 5000;

  /**
   * A sandbox (docs/sandbox.md): `tg_test_` keys, virtual terminals only (serials `TGSBX…`), data
   * that can be reset. Chosen at creation and never changed.
   */
  @Property({ default: false })
  sandbox: boolean = false;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
