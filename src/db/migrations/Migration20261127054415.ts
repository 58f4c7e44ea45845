import { Migration } from '@mikro-orm/migrations';

/**
 * Leave: absence types per company (existing companies get the defaults new ones are created with:
 * vacation, sick, unpaid), absence requests, and the leave fields of attendance days.
 */
export class Migration20261127054415 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "absence_type" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "code" varchar(20) not null, "paid" boolean not null, "unit" varchar(8) not null, "annual_allowance" double precision null, "carry_over" double precision not null default 0, "allow_negative" boolean not null default false, "color" varchar(7) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "absence_type" add constraint "absence_type_company_code_unique" unique ("company_id", "code");`);

    this.addSql(`create table "absence_request" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "employee_id" int not null, "absence_type_id" int not null, "start_date" date not null, "end_date" date not null, "half_day" varchar(2) null, "start_time" varchar(5) null, "end_time" varchar(5) null, "note" varchar(1000) null, "state" varchar(16) not null, "amounts" jsonb not null, "requested_by_key_id" int null, "decided_by_key_id" int null, "decided_at" timestamptz null, "decision_comment" varchar(1000) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "absence_request_company_state_index" on "absence_request" ("company_id", "state");`);
    this.addSql(`create index "absence_request_employee_dates_index" on "absence_request" ("employee_id", "start_date");`);

    this.addSql(`alter table "absence_type" add constraint "absence_type_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "absence_type" add constraint "absence_type_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "absence_request" add constraint "absence_request_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "absence_request" add constraint "absence_request_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "absence_request" add constraint "absence_request_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "absence_request" add constraint "absence_request_absence_type_id_foreign" foreign key ("absence_type_id") references "absence_type" ("id") on update cascade;`);

    this.addSql(`alter table "attendance_day" add column "absence_type_id" int null, add column "absence_code" varchar(20) null, add column "leave_minutes" int not null default 0;`);

    this.addSql(`insert into "absence_type" ("workspace_id", "company_id", "name", "code", "paid", "unit", "annual_allowance", "carry_over", "allow_negative", "color", "created_at", "updated_at")
      select c."workspace_id", c."id", t.name, t.code, t.paid, 'day', t.allowance, t.carry, false, t.color, now(), now()
      from "company" c cross join (values ('Vacation', 'VAC', true, 25::float8, 5::float8, '#2E86DE'), ('Sick', 'SICK', true, null, 0, '#E67E22'), ('Unpaid', 'UNPAID', false, null, 0, '#95A5A6'))
        as t(name, code, paid, allowance, carry, color);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "absence_request" drop constraint "absence_request_absence_type_id_foreign";`);

    this.addSql(`drop table if exists "absence_type" cascade;`);

    this.addSql(`drop table if exists "absence_request" cascade;`);

    this.addSql(`alter table "attendance_day" drop column "absence_type_id", drop column "absence_code", drop column "leave_minutes";`);
  }

}
