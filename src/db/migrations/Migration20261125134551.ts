import { Migration } from '@mikro-orm/migrations';

export class Migration20261125134551 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "device_action" ("id" serial primary key, "action_id" varchar(40) not null, "workspace_id" int not null, "device_id" int not null, "type" varchar(40) not null, "options" jsonb not null, "status" text check ("status" in ('queued', 'sent', 'succeeded', 'failed', 'expired')) not null default 'queued', "result" jsonb null, "requested_by_key_id" int null, "created_at" timestamptz not null, "completed_at" timestamptz null, "expires_at" timestamptz not null);`);
    this.addSql(`alter table "device_action" add constraint "device_action_action_id_unique" unique ("action_id");`);
    this.addSql(`create index "device_action_device_index" on "device_action" ("device_id", "id");`);

    this.addSql(`alter table "device_action" add constraint "device_action_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_action" add constraint "device_action_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_action" add constraint "device_action_requested_by_key_id_foreign" foreign key ("requested_by_key_id") references "api_key" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "device_command" add column "result_fields" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device_action" cascade;`);

    this.addSql(`alter table "device_command" drop column "result_fields";`);
  }

}
