import { Migration } from '@mikro-orm/migrations';

export class Migration20261207082315 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "sandbox_lease" ("workspace_id" int not null, "holder" varchar(64) null, "lease_until" timestamptz null, constraint "sandbox_lease_pkey" primary key ("workspace_id"));`);

    this.addSql(`create table "virtual_terminal_trigger" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "action" varchar(16) not null, "pin" varchar(23) null, "created_at" timestamptz not null);`);
    this.addSql(`create index "virtual_terminal_trigger_device_index" on "virtual_terminal_trigger" ("device_id", "id");`);

    this.addSql(`create table "virtual_terminal" ("device_id" int not null, "workspace_id" int not null, "enabled" boolean not null default true, "punches_per_hour" int null, "daily_pattern" jsonb null, "speed" double precision not null default 1, "schedule_started_at" timestamptz not null, "snapshot" jsonb null, "updated_at" timestamptz not null, constraint "virtual_terminal_pkey" primary key ("device_id"));`);
    this.addSql(`create index "virtual_terminal_workspace_index" on "virtual_terminal" ("workspace_id");`);

    this.addSql(`alter table "sandbox_lease" add constraint "sandbox_lease_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "virtual_terminal_trigger" add constraint "virtual_terminal_trigger_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "virtual_terminal_trigger" add constraint "virtual_terminal_trigger_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "virtual_terminal" add constraint "virtual_terminal_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "virtual_terminal" add constraint "virtual_terminal_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "workspace" add column "sandbox" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sandbox_lease" cascade;`);

    this.addSql(`drop table if exists "virtual_terminal_trigger" cascade;`);

    this.addSql(`drop table if exists "virtual_terminal" cascade;`);

    this.addSql(`alter table "workspace" drop column "sandbox";`);
  }

}
