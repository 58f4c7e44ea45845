import { Migration } from '@mikro-orm/migrations';

/**
 * Deleting an employee with history keeps the row (`deleted_at`) so that their punches and stored
 * attendance days, locked ones included, stay theirs. The code and the pin of a deleted employee are
 * free for a new one: both unique constraints become unique indexes over live rows only.
 */
export class Migration20261127030652 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "employee" add column "deleted_at" timestamptz null;`);
    this.addSql(`alter table "employee" drop constraint "employee_workspace_code_unique";`);
    this.addSql(`alter table "employee" drop constraint "employee_company_pin_unique";`);
    this.addSql(`create unique index "employee_workspace_code_unique" on "employee" ("workspace_id", "code") where "deleted_at" is null;`);
    this.addSql(`create unique index "employee_company_pin_unique" on "employee" ("company_id", "pin") where "deleted_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "employee" where "deleted_at" is not null;`);
    this.addSql(`drop index "employee_company_pin_unique";`);
    this.addSql(`drop index "employee_workspace_code_unique";`);
    this.addSql(`alter table "employee" add constraint "employee_workspace_code_unique" unique ("workspace_id", "code");`);
    this.addSql(`alter table "employee" add constraint "employee_company_pin_unique" unique ("company_id", "pin");`);
    this.addSql(`alter table "employee" drop column "deleted_at";`);
  }

}
