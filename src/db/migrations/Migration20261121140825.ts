import { Migration } from '@mikro-orm/migrations';

export class Migration20261121140825 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "employee_template" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "type" smallint not null, "no" smallint not null, "sub_index" smallint not null default 0, "version" varchar(16) null, "format" smallint not null default 0, "valid" boolean not null default true, "duress" boolean not null default false, "data" text not null, "size" int not null, "source_device_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "employee_template_workspace_index" on "employee_template" ("workspace_id");`);
    this.addSql(`alter table "employee_template" add constraint "employee_template_slot_unique" unique ("employee_id", "type", "no", "sub_index");`);

    this.addSql(`alter table "employee_template" add constraint "employee_template_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee_template" add constraint "employee_template_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "employee_template" add constraint "employee_template_source_device_id_foreign" foreign key ("source_device_id") references "device" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "device_command" add column "device_user_id" int null, add column "device_user_version" timestamptz null, add column "step" smallint null;`);
    this.addSql(`alter table "device_command" add constraint "device_command_device_user_id_foreign" foreign key ("device_user_id") references "device_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_command" add constraint "device_command_sync_step_unique" unique ("device_user_id", "device_user_version", "step");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "employee_template" cascade;`);

    this.addSql(`alter table "device_command" drop constraint "device_command_device_user_id_foreign";`);

    this.addSql(`alter table "device_command" drop constraint "device_command_sync_step_unique";`);
    this.addSql(`alter table "device_command" drop column "device_user_id", drop column "device_user_version", drop column "step";`);
  }

}
