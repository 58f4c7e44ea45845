import { Migration } from '@mikro-orm/migrations';

/** Visitor passes: a visitor's time-limited user row on the controllers of its doors, removed after its end. */
export class Migration20261127060140 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "visitor_pass" ("id" serial primary key, "workspace_id" int not null, "company_id" int not null, "name" varchar(100) not null, "host_employee_id" int null, "valid_from" timestamptz not null, "valid_until" timestamptz not null, "door_ids" int[] not null, "pin" varchar(24) not null, "card_no" varchar(20) null, "revoked_at" timestamptz null, "removed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "visitor_pass_due_index" on "visitor_pass" ("valid_until") where "removed_at" is null;`);
    this.addSql(`create index "visitor_pass_company_pin_index" on "visitor_pass" ("company_id", "pin");`);

    this.addSql(`alter table "visitor_pass" add constraint "visitor_pass_workspace_id_foreign" foreign key ("workspace_id") references "workspace" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "visitor_pass" add constraint "visitor_pass_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "visitor_pass" add constraint "visitor_pass_host_employee_id_foreign" foreign key ("host_employee_id") references "employee" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "visitor_pass" cascade;`);
  }

}
