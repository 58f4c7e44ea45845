import { Migration } from '@mikro-orm/migrations';

export class Migration20261127055653 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "lockdown" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "scope" varchar(16) not null, "area_id" int null, "mode" varchar(16) not null, "reason" varchar(500) not null, "status" varchar(16) not null default 'active', "requested_by_key_id" int null, "created_at" timestamptz not null, "released_at" timestamptz null);`);
    this.addSql(`create index "lockdown_workspace_index" on "lockdown" ("workspace_id", "id");`);

    this.addSql(`create table "lockdown_door" ("id" serial primary key, "lockdown_id" int not null, "workspace_id" int not null, "door_id" int not null, "device_id" int not null, "door_number" smallint not null, "state" varchar(16) not null, "detail" varchar(200) null, "return_code" int null, "command_id" int null, "confirmed_at" timestamptz null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "lockdown_door_command_id_index" on "lockdown_door" ("command_id");`);
    this.addSql(`create index "lockdown_door_device_index" on "lockdown_door" ("device_id", "door_number");`);
    this.addSql(`create index "lockdown_door_door_index" on "lockdown_door" ("door_id");`);
    this.addSql(`alter table "lockdown_door" add constraint "lockdown_door_unique" unique ("lockdown_id", "door_id");`);

    this.addSql(`alter table "lockdown" add constraint "lockdown_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "lockdown" add constraint "lockdown_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "lockdown" add constraint "lockdown_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "lockdown" add constraint "lockdown_requested_by_key_id_foreign" foreign key ("requested_by_key_id") references "api_key" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "lockdown_door" add constraint "lockdown_door_lockdown_id_foreign" foreign key ("lockdown_id") references "lockdown" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "lockdown_door" add constraint "lockdown_door_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "lockdown_door" add constraint "lockdown_door_door_id_foreign" foreign key ("door_id") references "door" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "lockdown_door" add constraint "lockdown_door_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "lockdown_door" add constraint "lockdown_door_command_id_foreign" foreign key ("command_id") references "device_command" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "lockdown_door" drop constraint "lockdown_door_lockdown_id_foreign";`);

    this.addSql(`drop table if exists "lockdown" cascade;`);

    this.addSql(`drop table if exists "lockdown_door" cascade;`);
  }

}
