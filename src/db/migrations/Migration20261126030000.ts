import { Migration } from '@mikro-orm/migrations';

/**
 * The device command log's history: finished commands older than the archive age move from the
 * live queue (`device_command`) into `device_command_archive`, partitioned by month of
 * `completed_at` like the other history tables (a default partition, and partitions from last month
 * to three ahead; the service creates later ones). Only what the command list shows is kept (the
 * command's verb, not its text). A new table: nothing to convert.
 */
export class Migration20261126030000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`set local time zone 'UTC';`);
    this.addSql(`
      create table "device_command_archive" (
        "id" int not null,
        "workspace_id" int not null,
        "device_id" int not null,
        "command_id" varchar(16) not null,
        "verb" varchar(64) not null,
        "kind" varchar(32) not null,
        "status" varchar(16) not null,
        "return_code" int null,
        "attempts" int not null,
        "reference" varchar(64) null,
        "created_at" timestamptz not null,
        "sent_at" timestamptz null,
        "completed_at" timestamptz not null,
        "expires_at" timestamptz null,
        constraint "device_command_archive_pkey" primary key ("id", "completed_at")
      ) partition by range ("completed_at");`);
    this.addSql(`create index "device_command_archive_device_index" on "device_command_archive" ("device_id", "id");`);
    this.addSql(`create table "device_command_archive_default" partition of "device_command_archive" default;`);
    this.addSql(`
      do $$
      declare month timestamptz;
      begin
        for month in select date_trunc('month', now()) + make_interval(months => k) from generate_series(-1, 3) k
        loop
          execute format('create table %I partition of %I for values from (%L) to (%L)',
            'device_command_archive_y' || to_char(month, 'YYYY"m"MM'), 'device_command_archive', month, month + interval '1 month');
        end loop;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device_command_archive";`);
  }
}
