import { Migration } from '@mikro-orm/migrations';

/**
 * Rosters (repeating cycles of shifts and days off) which a shift assignment may name instead of a
 * shift (exactly one of the two), and schedule overrides (one employee's shift on one date).
 */
export class Migration20261127054418 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "roster" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(200) not null, "start_date" date not null, "days" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "roster_company_index" on "roster" ("company_id");`);

    this.addSql(`create table "schedule_override" ("id" serial primary key, "workspace_id" int not null, "employee_id" int not null, "date" date not null, "shift_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "schedule_override" add constraint "schedule_override_employee_date_unique" unique ("employee_id", "date");`);

    this.addSql(`alter table "roster" add constraint "roster_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "roster" add constraint "roster_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "schedule_override" add constraint "schedule_override_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedule_override" add constraint "schedule_override_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedule_override" add constraint "schedule_override_shift_id_foreign" foreign key ("shift_id") references "shift" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "shift_assignment" add column "roster_id" int null;`);
    this.addSql(`alter table "shift_assignment" alter column "shift_id" type int using ("shift_id"::int);`);
    this.addSql(`alter table "shift_assignment" alter column "shift_id" drop not null;`);
    this.addSql(`alter table "shift_assignment" add constraint "shift_assignment_roster_id_foreign" foreign key ("roster_id") references "roster" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "shift_assignment_roster_index" on "shift_assignment" ("roster_id");`);
    this.addSql(`alter table "shift_assignment" add constraint shift_assignment_shift_or_roster check((shift_id is null) <> (roster_id is null));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shift_assignment" drop constraint "shift_assignment_roster_id_foreign";`);

    this.addSql(`drop table if exists "roster" cascade;`);

    this.addSql(`drop table if exists "schedule_override" cascade;`);

    this.addSql(`drop index "shift_assignment_roster_index";`);
    this.addSql(`alter table "shift_assignment" drop constraint shift_assignment_shift_or_roster;`);
    this.addSql(`alter table "shift_assignment" drop column "roster_id";`);

    this.addSql(`alter table "shift_assignment" alter column "shift_id" type int4 using ("shift_id"::int4);`);
    this.addSql(`alter table "shift_assignment" alter column "shift_id" set not null;`);
  }

}
