import { Migration } from '@mikro-orm/migrations';

export class Migration20261125132856 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "access_schedule" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "intervals" jsonb not null, "holiday_intervals" jsonb not null, "built_in" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);

    this.addSql(`create table "access_level" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "schedule_id" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "access_level_schedule_index" on "access_level" ("schedule_id");`);

    this.addSql(`create table "access_level_employee" ("id" serial primary key, "workspace_id" int not null, "access_level_id" int not null, "employee_id" int not null, "start_date" date null, "end_date" date null, "created_at" timestamptz not null);`);
    this.addSql(`create index "access_level_employee_employee_index" on "access_level_employee" ("employee_id");`);
    this.addSql(`alter table "access_level_employee" add constraint "access_level_employee_unique" unique ("access_level_id", "employee_id");`);

    this.addSql(`create table "access_level_door" ("id" serial primary key, "workspace_id" int not null, "access_level_id" int not null, "door_id" int not null);`);
    this.addSql(`create index "access_level_door_door_index" on "access_level_door" ("door_id");`);
    this.addSql(`alter table "access_level_door" add constraint "access_level_door_unique" unique ("access_level_id", "door_id");`);

    this.addSql(`create table "access_level_area" ("id" serial primary key, "workspace_id" int not null, "access_level_id" int not null, "area_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "access_level_area_area_index" on "access_level_area" ("area_id");`);
    this.addSql(`alter table "access_level_area" add constraint "access_level_area_unique" unique ("access_level_id", "area_id");`);

    this.addSql(`alter table "access_schedule" add constraint "access_schedule_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_schedule" add constraint "access_schedule_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "access_level" add constraint "access_level_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level" add constraint "access_level_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level" add constraint "access_level_schedule_id_foreign" foreign key ("schedule_id") references "access_schedule" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "access_level_employee" add constraint "access_level_employee_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level_employee" add constraint "access_level_employee_access_level_id_foreign" foreign key ("access_level_id") references "access_level" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level_employee" add constraint "access_level_employee_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "access_level_door" add constraint "access_level_door_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level_door" add constraint "access_level_door_access_level_id_foreign" foreign key ("access_level_id") references "access_level" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level_door" add constraint "access_level_door_door_id_foreign" foreign key ("door_id") references "door" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "access_level_area" add constraint "access_level_area_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level_area" add constraint "access_level_area_access_level_id_foreign" foreign key ("access_level_id") references "access_level" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_level_area" add constraint "access_level_area_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "device_user" add column "access" jsonb null, add column "valid_from" date null, add column "valid_until" date null, add column "sent_access" jsonb null;`);

    // Every company gets its built-in "Always" schedule (new companies get it when created).
    this.addSql(`insert into "access_schedule" ("workspace_id", "company_id", "name", "intervals", "holiday_intervals", "built_in", "created_at", "updated_at")
      select c.workspace_id, c.id, 'Always',
        (select jsonb_agg(jsonb_build_object('weekday', d, 'startTime', '00:00', 'endTime', '23:59') order by d) from generate_series(1, 7) d),
        (select jsonb_agg(jsonb_build_object('holidayType', h, 'startTime', '00:00', 'endTime', '23:59') order by h) from generate_series(1, 3) h),
        true, now(), now()
      from "company" c;`);

    this.addSql(`create table "device_access_schedule" ("id" serial primary key, "workspace_id" int not null, "device_id" int not null, "schedule_id" int not null, "timezone_id" smallint not null);`);
    this.addSql(`alter table "device_access_schedule" add constraint "device_access_schedule_timezone_unique" unique ("device_id", "timezone_id");`);
    this.addSql(`alter table "device_access_schedule" add constraint "device_access_schedule_schedule_unique" unique ("device_id", "schedule_id");`);

    this.addSql(`alter table "device_access_schedule" add constraint "device_access_schedule_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_access_schedule" add constraint "device_access_schedule_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "device_access_schedule" add constraint "device_access_schedule_schedule_id_foreign" foreign key ("schedule_id") references "access_schedule" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "device_access_schedule" cascade;`);

    this.addSql(`alter table "access_level" drop constraint "access_level_schedule_id_foreign";`);

    this.addSql(`alter table "access_level_employee" drop constraint "access_level_employee_access_level_id_foreign";`);

    this.addSql(`alter table "access_level_door" drop constraint "access_level_door_access_level_id_foreign";`);

    this.addSql(`alter table "access_level_area" drop constraint "access_level_area_access_level_id_foreign";`);

    this.addSql(`drop table if exists "access_schedule" cascade;`);

    this.addSql(`drop table if exists "access_level" cascade;`);

    this.addSql(`drop table if exists "access_level_employee" cascade;`);

    this.addSql(`drop table if exists "access_level_door" cascade;`);

    this.addSql(`drop table if exists "access_level_area" cascade;`);

    this.addSql(`alter table "device_user" drop column "access", drop column "valid_from", drop column "valid_until", drop column "sent_access";`);
  }

}
