import { Migration } from '@mikro-orm/migrations';

/**
 * History that grows for years: `punch`, `event` and `audit_event` become tables partitioned by
 * month (PostgreSQL declarative range partitioning), and punch ids become 64-bit. An existing
 * database is converted in place, inside the migration's transaction: each table is renamed, a
 * partitioned table of the same name and columns is created, a partition is made for every month
 * that holds rows (and for the months around today), the rows are copied with their ids, and the
 * old table is dropped. Rows whose time is implausible (before 2000, or more than a year ahead, as
 * a terminal with a wrong clock sends) go to the table's default partition.
 *
 * A partitioned table's primary key and unique keys must contain the partition column, so the keys
 * gain it: punch (id, punch_time), event (id, created_at), audit_event (id, created_at), and the
 * access-control record key of punch gains punch_time. webhook_delivery keeps event_id without a
 * foreign key (none can reference a partitioned table's id alone); the service deletes deliveries
 * with the events they belong to (src/db/partitions.ts).
 *
 * Partition names are `<table>_y<YYYY>m<MM>` (UTC months) and `<table>_default`; the service
 * creates the coming months ahead (src/db/partitions.ts).
 */
export class Migration20261125183000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`set local time zone 'UTC';`);
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_event_id_foreign";`);
    this.addSql(`alter table "attendance_day" alter column "punch_ids" type bigint[];`);

    this.partitionInPlace({
      table: 'punch',
      column: 'punch_time',
      sequence: 'punch_id_seq',
      columns: `
        "id" bigint not null default nextval('punch_id_seq'),
        "workspace_id" int not null,
        "company_id" int not null,
        "employee_id" int null,
        "device_id" int null,
        "device_serial" varchar(64) not null,
        "pin" varchar(64) not null,
        "punch_time" timestamptz not null,
        "local_time" varchar(19) not null,
        "time_zone" varchar(64) not null,
        "punch_state" varchar(16) not null,
        "verify_type" varchar(64) null,
        "verify_code" int null,
        "record_type" text check ("record_type" in ('device', 'manual')) not null,
        "work_code" varchar(32) null,
        "device_record_index" int null,
        "received_at" timestamptz not null,
        "voided_at" timestamptz null,
        "void_reason" varchar(500) null,
        constraint "punch_pkey" primary key ("id", "punch_time")`,
      oldKeys: ['punch_pkey', 'punch_idempotence_key'],
      oldIndexes: ['punch_device_time_index', 'punch_employee_time_index', 'punch_company_time_index', 'punch_workspace_time_index', 'punch_unattached_pin_index', 'punch_record_index_key'],
      indexes: [
        `alter table "punch" add constraint "punch_idempotence_key" unique ("workspace_id", "device_serial", "pin", "punch_time");`,
        `create index "punch_workspace_time_index" on "punch" ("workspace_id", "punch_time", "id");`,
        `create index "punch_company_time_index" on "punch" ("company_id", "punch_time");`,
        `create index "punch_employee_time_index" on "punch" ("employee_id", "punch_time");`,
        `create index "punch_device_time_index" on "punch" ("device_id", "punch_time");`,
        `create unique index "punch_record_index_key" on "punch" ("workspace_id", "device_serial", "device_record_index", "punch_time") where "device_record_index" is not null;`,
        `create index "punch_unattached_pin_index" on "punch" ("company_id", "pin") where "employee_id" is null;`,
      ],
    });

    this.partitionInPlace({
      table: 'event',
      column: 'created_at',
      columns: `
        "id" bigint not null,
        "workspace_id" int not null,
        "type" varchar(64) not null,
        "data" jsonb not null,
        "created_at" timestamptz not null,
        constraint "event_pkey" primary key ("id", "created_at")`,
      oldKeys: ['event_pkey'],
      oldIndexes: ['event_workspace_id_index', 'event_created_at_index'],
      indexes: [
        `create index "event_workspace_id_index" on "event" ("workspace_id", "id");`,
        `create index "event_created_at_index" on "event" ("created_at");`,
      ],
    });

    this.partitionInPlace({
      table: 'audit_event',
      column: 'created_at',
      sequence: 'audit_event_id_seq',
      columns: `
        "id" bigint not null default nextval('audit_event_id_seq'),
        "workspace_id" int null,
        "api_key_id" int null,
        "operation" varchar(100) not null,
        "arguments" jsonb not null,
        "outcome" varchar(64) not null,
        "request_id" varchar(128) not null,
        "created_at" timestamptz not null,
        constraint "audit_event_pkey" primary key ("id", "created_at")`,
      oldKeys: ['audit_event_pkey'],
      oldIndexes: ['audit_event_workspace_id_index'],
      indexes: [`create index "audit_event_workspace_id_index" on "audit_event" ("workspace_id", "id");`],
    });
  }

  /**
   * Renames `table`, creates its partitioned successor with `columns`, a partition per month that
   * holds rows (2000 to a year ahead) and per month from last month to three ahead, and the default
   * partition; copies the rows (ids kept) and drops the old table, its sequence moved over.
   */
  private partitionInPlace(spec: { table: string; column: string; sequence?: string; columns: string; oldKeys: string[]; oldIndexes: string[]; indexes: string[] }): void {
    const { table, column, sequence } = spec;
    const old = `${table}_unpartitioned`;
    this.addSql(`alter table "${table}" rename to "${old}";`);
    for (const key of spec.oldKeys) this.addSql(`alter table "${old}" drop constraint "${key}";`);
    for (const index of spec.oldIndexes) this.addSql(`drop index if exists "${index}";`);
    if (sequence) this.addSql(`alter sequence "${sequence}" owned by none;`);
    if (sequence) this.addSql(`alter sequence "${sequence}" as bigint;`);
    this.addSql(`create table "${table}" (${spec.columns}) partition by range ("${column}");`);
    if (sequence) this.addSql(`alter sequence "${sequence}" owned by "${table}"."id";`);
    this.addSql(`create table "${table}_default" partition of "${table}" default;`);
    this.addSql(`
      do $$
      declare month timestamptz;
      begin
        for month in
          select distinct date_trunc('month', "${column}") from "${old}"
           where "${column}" >= '2000-01-01' and "${column}" < now() + interval '1 year'
          union
          select date_trunc('month', now()) + make_interval(months => k) from generate_series(-1, 3) k
        loop
          execute format('create table %I partition of %I for values from (%L) to (%L)',
            '${table}_y' || to_char(month, 'YYYY"m"MM'), '${table}', month, month + interval '1 month');
        end loop;
      end $$;`);
    this.addSql(`insert into "${table}" select * from "${old}";`);
    this.addSql(`drop table "${old}";`);
    for (const index of spec.indexes) this.addSql(index);
  }

  override async down(): Promise<void> {
    throw new Error('Migration20261125183000 (partitioned history, 64-bit punch ids) cannot be undone; restore the backup taken before the upgrade.');
  }

}
