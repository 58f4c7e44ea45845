import { Migration } from '@mikro-orm/migrations';

/**
 * `punch` stops referencing company, device and employee with constraints checked per row: the
 * service locks each parent once per upload and nulls punches when it deletes one (docs/decisions.md,
 * "Ingestion: references locked once per upload").
 */
export class Migration20261121181656 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "punch" drop constraint "punch_company_id_foreign";`);
    this.addSql(`alter table "punch" drop constraint "punch_device_id_foreign";`);
    this.addSql(`alter table "punch" drop constraint "punch_employee_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "punch" add constraint "punch_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "punch" add constraint "punch_device_id_foreign" foreign key ("device_id") references "device" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "punch" add constraint "punch_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete set null;`);
  }

}
