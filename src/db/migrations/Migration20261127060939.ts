import { Migration } from '@mikro-orm/migrations';

/**
 * Punch corrections (punches to add, or one to void, decided by an approver), and the link from a
 * manual punch to the correction that created it.
 */
export class Migration20261127060939 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "punch_correction" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "employee_id" int not null, "punches" jsonb not null, "void_punch_id" bigint null, "created_punch_ids" jsonb not null, "first_date" date not null, "last_date" date not null, "reason" varchar(500) not null, "state" varchar(16) not null, "requested_by_key_id" int null, "decided_by_key_id" int null, "decided_at" timestamptz null, "decision_comment" varchar(1000) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "punch_correction_company_state_index" on "punch_correction" ("company_id", "state");`);
    this.addSql(`create index "punch_correction_employee_index" on "punch_correction" ("employee_id", "created_at");`);

    this.addSql(`alter table "punch_correction" add constraint "punch_correction_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "punch_correction" add constraint "punch_correction_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "punch_correction" add constraint "punch_correction_employee_id_foreign" foreign key ("employee_id") references "employee" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "punch" add column "correction_id" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "punch_correction" cascade;`);

    this.addSql(`alter table "punch" drop column "correction_id";`);
  }

}
