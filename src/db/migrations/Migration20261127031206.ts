import { Migration } from '@mikro-orm/migrations';

/**
 * Multi-record commands: a record packed into one (`DATA UPDATE user` with many rows) keeps its own
 * `device_command` row, status `batched`, pointing at the command that carries it (`batch_id`); it
 * concludes with that command, or is queued alone when the command is refused. Existing rows were
 * sent as themselves (null).
 */
export class Migration20261127031206 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "device_command" drop constraint if exists "device_command_status_check";`);

    this.addSql(`alter table "device_command" add column "batch_id" int null;`);
    this.addSql(`alter table "device_command" add constraint "device_command_batch_id_foreign" foreign key ("batch_id") references "device_command" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "device_command" add constraint "device_command_status_check" check("status" in ('queued', 'sent', 'succeeded', 'failed', 'expired', 'batched'));`);
    this.addSql(`create index "device_command_batch_index" on "device_command" ("batch_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "device_command" drop constraint if exists "device_command_status_check";`);

    this.addSql(`alter table "device_command" drop constraint "device_command_batch_id_foreign";`);

    this.addSql(`drop index "device_command_batch_index";`);
    this.addSql(`alter table "device_command" drop column "batch_id";`);

    this.addSql(`alter table "device_command" add constraint "device_command_status_check" check("status" in ('queued', 'sent', 'succeeded', 'failed', 'expired'));`);
  }

}
