import { Migration } from '@mikro-orm/migrations';

/** Stored attendance days (issue 13) and the cursor the attendance worker follows the outbox with. */
export class Migration20261125054157 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "job_cursor" ("name" varchar(64) not null, "position" bigint not null, constraint "job_cursor_pkey" primary key ("name"));`);

    this.addSql(`create table "attendance_day" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "employee_id" int not null, "date" date not null, "shift_id" int null, "status" varchar(16) not null, "first_in" timestamptz null, "last_out" timestamptz null, "scheduled_minutes" int not null, "worked_minutes" int not null, "break_minutes" int not null, "late_minutes" int not null, "early_leave_minutes" int not null, "overtime_minutes" int not null, "exceptions" text[] not null, "punch_ids" int[] not null, "stale" boolean not null default false, "settles_at" timestamptz null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "attendance_day_settles_index" on "attendance_day" ("settles_at") where "settles_at" is not null;`);
    this.addSql(`create index "attendance_day_stale_index" on "attendance_day" ("employee_id", "date") where "stale";`);
    this.addSql(`create index "attendance_day_company_date_index" on "attendance_day" ("company_id", "date");`);
    this.addSql(`alter table "attendance_day" add constraint "attendance_day_employee_date_unique" unique ("employee_id", "date");`);

    this.addSql(`alter table "attendance_day" add constraint "attendance_day_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "attendance_day" add constraint "attendance_day_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    // The worker starts at the outbox's end: days of older punches are computed when a timesheet reads them.
    this.addSql(`insert into "job_cursor" ("name", "position") select 'attendance', coalesce(max("id"), 0) from "event";`);
    this.addSql(`alter table "attendance_day" add constraint "attendance_day_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "job_cursor" cascade;`);

    this.addSql(`drop table if exists "attendance_day" cascade;`);
  }

}
