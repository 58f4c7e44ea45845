import { Migration } from '@mikro-orm/migrations';

export class Migration20261121135300 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "unknown_terminal" ("id" serial primary key, "serial_number" varchar(64) not null, "ip" varchar(64) not null, "model" varchar(100) null, "firmware" varchar(100) null, "protocol" varchar(16) null, "first_seen_at" timestamptz not null, "last_seen_at" timestamptz not null, "request_count" bigint not null default 0);`);
    this.addSql(`create index "unknown_terminal_ip_index" on "unknown_terminal" ("ip");`);
    this.addSql(`create unique index "unknown_terminal_serial_unique" on "unknown_terminal" (lower("serial_number"));`);

    this.addSql(`create table "device_status_change" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "status" text check ("status" in ('pending', 'online', 'offline')) not null, "at" timestamptz not null);`);
    this.addSql(`create index "device_status_change_device_index" on "device_status_change" ("device_id", "at");`);

    this.addSql(`create table "device_command" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "command_id" varchar(16) not null, "command" text not null, "kind" varchar(32) not null, "status" text check ("status" in ('queued', 'sent', 'succeeded', 'failed', 'expired')) not null default 'queued', "return_code" int null, "attempts" int not null default 0, "reference" varchar(64) null, "created_at" timestamptz not null, "sent_at" timestamptz null, "completed_at" timestamptz null, "expires_at" timestamptz null);`);
    this.addSql(`create index "device_command_delivery_index" on "device_command" ("device_id", "status", "id");`);
    this.addSql(`alter table "device_command" add constraint "device_command_device_command_id_unique" unique ("device_id", "command_id");`);

    this.addSql(`create table "door_action" ("id" serial primary key, "action_id" varchar(40) not null, "workspace_id" int not null, "device_id" int not null, "command_id" int not null, "door" int not null, "duration" int not null, "status" text check ("status" in ('queued', 'sent', 'succeeded', 'failed', 'expired')) not null default 'queued', "return_code" int null, "requested_by_key_id" int null, "created_at" timestamptz not null, "sent_at" timestamptz null, "completed_at" timestamptz null, "expires_at" timestamptz not null);`);
    this.addSql(`alter table "door_action" add constraint "door_action_action_id_unique" unique ("action_id");`);
    this.addSql(`create index "door_action_command_id_index" on "door_action" ("command_id");`);
    this.addSql(`create index "door_action_workspace_index" on "door_action" ("workspace_id");`);

    this.addSql(`alter table "device_status_change" add constraint "device_status_change_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_status_change" add constraint "device_status_change_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "device_command" add constraint "device_command_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_command" add constraint "device_command_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "door_action" add constraint "door_action_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_action" add constraint "door_action_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_action" add constraint "door_action_command_id_foreign" foreign key ("command_id") references "device_command" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "door_action" add constraint "door_action_requested_by_key_id_foreign" foreign key ("requested_by_key_id") references "api_key" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "device" add column "fp_algorithm" varchar(32) null, add column "face_algorithm" varchar(32) null, add column "remote_address" varchar(64) null, add column "poll_interval_seconds" int null, add column "reported_options" jsonb null, add column "registry_code" varchar(32) null, add column "session_id" varchar(32) null, add column "door_states" jsonb null;`);
    this.addSql(`create index "device_serial_lower_index" on "device" (lower("serial_number"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "door_action" drop constraint "door_action_command_id_foreign";`);

    this.addSql(`drop table if exists "unknown_terminal" cascade;`);

    this.addSql(`drop table if exists "device_status_change" cascade;`);

    this.addSql(`drop table if exists "device_command" cascade;`);

    this.addSql(`drop table if exists "door_action" cascade;`);

    this.addSql(`drop index "device_serial_lower_index";`);
    this.addSql(`alter table "device" drop column "fp_algorithm", drop column "face_algorithm", drop column "remote_address", drop column "poll_interval_seconds", drop column "reported_options", drop column "registry_code", drop column "session_id", drop column "door_states";`);
  }

}
