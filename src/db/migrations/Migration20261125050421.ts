import { Migration } from '@mikro-orm/migrations';

/** Shift assignments of employees and areas, from a date (attendance engine, issue 13). */
export class Migration20261125050421 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shift_assignment" ("id" serial primary key, "workspace_id" int not null, "shift_id" int not null, "employee_id" int null, "area_id" int null, "start_date" date not null, "end_date" date null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shift_assignment_area_index" on "shift_assignment" ("area_id", "start_date");`);
    this.addSql(`create index "shift_assignment_employee_index" on "shift_assignment" ("employee_id", "start_date");`);

    this.addSql(`alter table "shift_assignment" add constraint "shift_assignment_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shift_assignment" add constraint "shift_assignment_shift_id_foreign" foreign key ("shift_id") references "shift" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shift_assignment" add constraint "shift_assignment_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shift_assignment" add constraint "shift_assignment_area_id_foreign" foreign key ("area_id") references "area" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shift_assignment" cascade;`);
  }

}
