import { Migration } from '@mikro-orm/migrations';

export class Migration20261121134824 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "area" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(200) not null, "code" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "area_workspace_company_index" on "area" ("workspace_id", "company_id");`);
    this.addSql(`alter table "area" add constraint "area_company_code_unique" unique ("company_id", "code");`);

    this.addSql(`create table "device_user" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "employee_id" int not null, "pin" varchar(23) not null, "previous_pin" varchar(23) null, "name" varchar(201) not null, "privilege" int not null, "present" boolean not null, "sync_status" text check ("sync_status" in ('pending', 'synced', 'failed')) not null default 'pending', "return_code" int null, "changed_at" timestamptz not null, "synced_at" timestamptz null);`);
    this.addSql(`create index "device_user_employee_index" on "device_user" ("employee_id");`);
    this.addSql(`create index "device_user_device_status_index" on "device_user" ("device_id", "sync_status");`);
    this.addSql(`alter table "device_user" add constraint "device_user_device_employee_unique" unique ("device_id", "employee_id");`);

    this.addSql(`create table "assignment" ("id" serial primary key, "device_id" int not null, "employee_id" int not null, "permission" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "assignment_employee_index" on "assignment" ("employee_id");`);
    this.addSql(`alter table "assignment" add constraint "assignment_device_employee_unique" unique ("device_id", "employee_id");`);

    this.addSql(`create table "area_employee" ("id" serial primary key, "area_id" int not null, "employee_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "area_employee_employee_index" on "area_employee" ("employee_id");`);
    this.addSql(`alter table "area_employee" add constraint "area_employee_area_employee_unique" unique ("area_id", "employee_id");`);

    this.addSql(`alter table "area" add constraint "area_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "area" add constraint "area_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`);

    this.addSql(`alter table "device_user" add constraint "device_user_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_user" add constraint "device_user_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assignment" add constraint "assignment_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assignment" add constraint "assignment_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "area_employee" add constraint "area_employee_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "area_employee" add constraint "area_employee_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "device" add column "area_id" int null;`);
    this.addSql(`alter table "device" add constraint "device_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "device_area_index" on "device" ("area_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "device" drop constraint "device_area_id_foreign";`);

    this.addSql(`alter table "area_employee" drop constraint "area_employee_area_id_foreign";`);

    this.addSql(`drop table if exists "area" cascade;`);

    this.addSql(`drop table if exists "device_user" cascade;`);

    this.addSql(`drop table if exists "assignment" cascade;`);

    this.addSql(`drop table if exists "area_employee" cascade;`);

    this.addSql(`drop index "device_area_index";`);
    this.addSql(`alter table "device" drop column "area_id";`);
  }

}
