import { Migration } from '@mikro-orm/migrations';

export class Migration20261127054318 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "company" add column "pay_policy" jsonb not null default '{}';`);

    this.addSql(`alter table "shift" add column "rounding_minutes" smallint null, add column "rounding_mode" varchar(8) not null default 'nearest', add column "recorded_break" varchar(8) not null default 'tops_up', add column "pay_policy" jsonb not null default '{}';`);

    this.addSql(`alter table "pay_period" add column "export_rows" jsonb null;`);

    this.addSql(`alter table "employee" add column "employment_start_date" date null, add column "employment_end_date" date null;`);

    this.addSql(`alter table "attendance_day" add column "pay_items" jsonb not null default '[]';`);

    // Days stored under the old rules: their pay items are what those rules paid (regular and overtime),
    // so a locked period keeps exporting what it paid; every day outside a locked period is recomputed
    // under the new rules by the attendance worker.
    this.addSql(`update "attendance_day" set "pay_items" = (
      select coalesce(jsonb_agg(item order by ord), '[]'::jsonb) from (values
        (1, jsonb_build_object('code', 'regular', 'minutes', "worked_minutes" - "overtime_minutes"), "worked_minutes" - "overtime_minutes"),
        (2, jsonb_build_object('code', 'overtime', 'minutes', "overtime_minutes"), "overtime_minutes")) as v(ord, item, minutes)
      where minutes > 0)
    where "worked_minutes" > 0;`);
    this.addSql(`update "attendance_day" d set "stale" = true where not exists (
      select 1 from "pay_period" p where p."company_id" = d."company_id" and p."locked_at" is not null and d."date" between p."start_date" and p."end_date");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "attendance_day" drop column "pay_items";`);

    this.addSql(`alter table "company" drop column "pay_policy";`);

    this.addSql(`alter table "employee" drop column "employment_start_date", drop column "employment_end_date";`);

    this.addSql(`alter table "pay_period" drop column "export_rows";`);

    this.addSql(`alter table "shift" drop column "rounding_minutes", drop column "rounding_mode", drop column "recorded_break", drop column "pay_policy";`);
  }

}
