import { Migration } from '@mikro-orm/migrations';

export class Migration20261127084333 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "overtime_approval" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "employee_id" int not null, "date" date not null, "state" varchar(16) not null, "minutes" int null, "note" varchar(1000) null, "requested_by_key_id" int null, "decided_by_key_id" int null, "decided_at" timestamptz null, "decision_comment" varchar(1000) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "overtime_approval_company_date_index" on "overtime_approval" ("company_id", "date");`);
    this.addSql(`alter table "overtime_approval" add constraint "overtime_approval_employee_date_unique" unique ("employee_id", "date");`);

    this.addSql(`alter table "overtime_approval" add constraint "overtime_approval_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "overtime_approval" add constraint "overtime_approval_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "overtime_approval" add constraint "overtime_approval_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "attendance_day" add column "pending_overtime_minutes" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "overtime_approval" cascade;`);

    this.addSql(`alter table "attendance_day" drop column "pending_overtime_minutes";`);
  }

}
